package io.proofgate.conform;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An implementation's adapter as a child process: {@code /bin/sh -c CMD}. Messages are written to its stdin and answers
 * read from its stdout by threads of their own, so that a silent adapter, or one that stops reading, is a timeout,
 * never a hang of the kit. Its stderr is kept (the last few kilobytes) for the error message when it breaks. Closing
 * ends the process and everything it started, daemons included ({@link OwnSession}).
 */
public final class ProcessAdapter implements Adapter {

    /** A line longer than this is not an answer; reading on would only fill memory. */
    static final int MAX_LINE_BYTES = 1 << 20;

    private static final int STDERR_TAIL = 2048;

    private sealed interface Item {}

    /**
     * The complete lines of one read from the pipe, and the bytes of the queue's budget they hold: an answer printed in
     * one write crosses from the reader thread to the kit in one hand-over, not one per line.
     */
    private record Lines(List<String> lines, int cost) implements Item {}

    private record Broken(String problem) implements Item {}

    private record Ended() implements Item {}

    private final String command;
    private final OwnSession session;
    private final Process process;
    private final OutputStream stdin;

    /**
     * Bounded in lines and in bytes: an adapter that floods its output waits for the kit instead of filling its heap
     * (65,536 lines of up to 1 MiB each were up to 64 GiB).
     */
    private final BlockingQueue<Item> lines = new java.util.concurrent.ArrayBlockingQueue<>(1 << 16);

    static final int QUEUED_BYTES = 4 << 20;
    private final java.util.concurrent.Semaphore budget = new java.util.concurrent.Semaphore(QUEUED_BYTES);
    private volatile boolean closed;

    /** The lines of the last hand-over not yet given to the kit. */
    private final java.util.ArrayDeque<String> ready = new java.util.ArrayDeque<>();

    /** Messages for the writer thread, encoded: a write never blocks the kit, so a stuck adapter is a timeout. */
    private final BlockingQueue<byte[]> outbox = new LinkedBlockingQueue<>();

    private static final byte[] CLOSE = new byte[0];
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final Thread stderrReader;
    private long waited;
    private boolean ended;

    /** Whether the kit ended the adapter's session (it did not exit on its own in time). */
    private volatile boolean stopped;

    /**
     * The folder's own path as its files are named in the adapter's stderr, both as given and as the system resolves it
     * (a folder reached through a link); empty but for {@link #ofRevision}.
     */
    private final List<String> shownFromFolder;

    public ProcessAdapter(String command, Path directory) throws AdapterException {
        this(command, directory, null);
    }

    /** What an adapter run in a revision is told: where that revision is, and where its repository's own files are. */
    public static final String REVISION = "PROOFGATE_REVISION";

    public static final String REPOSITORY = "PROOFGATE_REPOSITORY";

    /**
     * An adapter run in a revision written into a folder of the kit's own, from {@code repository}. That folder is gone
     * when an error is read, so the adapter's stderr names the files under it from the folder, as the author finds them
     * in the revision. The adapter is told both folders ({@link #REVISION}, {@link #REPOSITORY}): code it runs from the
     * repository's working tree (an installed package, PYTHONPATH) is the same code at both revisions, and an adapter
     * that can tell refuses to run it (the Python library does).
     */
    public static ProcessAdapter ofRevision(String command, Path revision, Path repository) throws AdapterException {
        return new ProcessAdapter(command, revision, repository);
    }

    private ProcessAdapter(String command, Path directory, Path repository) throws AdapterException {
        this.command = command;
        boolean revision = repository != null;
        this.shownFromFolder = revision ? prefixes(directory) : List.of();
        try {
            session =
                    OwnSession.start(
                            command,
                            directory,
                            revision
                                    ? java.util.Map.of(
                                            REVISION,
                                            directory.toAbsolutePath().toString(),
                                            REPOSITORY,
                                            repository.toAbsolutePath().toString())
                                    : java.util.Map.of());
        } catch (IOException e) {
            throw new AdapterException("could not be started: " + e.getMessage());
        }
        process = session.process();
        stdin = process.getOutputStream();
        Thread.ofPlatform().daemon(true).name("proofgate-conform-stdin").start(this::writeMessages);
        Thread.ofPlatform()
                .daemon(true)
                .name("proofgate-conform-stdout")
                .start(() -> readLines(process.getInputStream()));
        stderrReader =
                Thread.ofPlatform()
                        .daemon(true)
                        .name("proofgate-conform-stderr")
                        .start(() -> keepTail(process.getErrorStream()));
    }

    /**
     * Ends every adapter still running and everything each started: at shutdown, before the folders they run in are
     * removed, so that none writes into one while it goes.
     */
    public static void endAll() {
        OwnSession.endAll();
    }

    /**
     * What this machine cannot do to end an adapter's descendants (no setsid, no /proc), for a line on stderr; or
     * empty.
     */
    public static java.util.Optional<String> hygieneNote() {
        return OwnSession.note();
    }

    public String command() {
        return command;
    }

    @Override
    public void send(String message) {
        send(List.of(message));
    }

    @Override
    public void send(List<String> messages) {
        StringBuilder text = new StringBuilder();
        for (String message : messages) {
            text.append(message).append('\n');
        }
        outbox.add(text.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The writer thread: messages in order; when the adapter stops reading, the rest are dropped. */
    private void writeMessages() {
        try (OutputStream out = stdin) {
            while (true) {
                byte[] message = outbox.take();
                if (message == CLOSE) {
                    return;
                }
                out.write(message);
                if (outbox.isEmpty()) {
                    out.flush();
                }
            }
        } catch (IOException | InterruptedException e) {
            // the adapter is gone or stopped reading: reading its answers says where and how
        }
    }

    @Override
    public String receive(Duration patience) throws AdapterException {
        if (!ready.isEmpty()) {
            return ready.pollFirst();
        }
        if (ended) {
            throw new AdapterException("closed its output" + exit());
        }
        long start = System.nanoTime();
        Item item;
        try {
            item = lines.poll(patience.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AdapterException("was abandoned: the run was interrupted");
        } finally {
            waited += System.nanoTime() - start;
        }
        return switch (item) {
            case null -> null;
            case Lines batch -> {
                budget.release(batch.cost());
                ready.addAll(batch.lines());
                yield ready.pollFirst();
            }
            case Broken broken -> throw new AdapterException(broken.problem());
            case Ended ended -> {
                this.ended = true;
                throw new AdapterException("closed its output" + exit());
            }
        };
    }

    @Override
    public long waitedNanos() {
        return waited;
    }

    @Override
    public String leftover(Duration patience) {
        outbox.add(CLOSE);
        for (String line : ready) {
            if (!line.isBlank()) {
                return line;
            }
        }
        ready.clear();
        long deadline = System.nanoTime() + patience.toNanos();
        while (!ended) {
            Item item;
            try {
                item = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
            switch (item) {
                case null -> {
                    if (stopped) {
                        return null; // its output stays open after the stop: something outside its session holds it
                    }
                    // Still running: stopped now, and what it wrote until then is read to its end,
                    // so no line written before the stop goes unread.
                    stop();
                    deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
                }
                case Lines batch -> {
                    budget.release(batch.cost());
                    for (String line : batch.lines()) {
                        if (!line.isBlank()) {
                            return line;
                        }
                    }
                }
                case Broken broken -> {
                    return broken.problem();
                }
                case Ended e -> ended = true;
            }
        }
        return null;
    }

    /**
     * Closes the adapter's input, gives it two seconds to exit, then ends its session: the adapter, every process it
     * started and every daemon those started ({@link OwnSession}).
     */
    @Override
    public void close() {
        closed = true; // the reader stops waiting for room in the queue
        outbox.add(CLOSE);
        if (stopped) {
            return;
        }
        try {
            process.waitFor(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stop();
    }

    /** Ends the adapter's session: the adapter, what it started and what those started. */
    private void stop() {
        stopped = true;
        session.end(Duration.ofSeconds(1));
    }

    @Override
    public String failedExit() {
        if (!ended || stopped) {
            return null; // still running, or stopped by the kit: its exit status is the kit's signal
        }
        Integer status = exitStatus();
        return status == null || status == 0
                ? null
                : "exited with status " + status + said(status) + " after its last answer" + stderrTail();
    }

    /** How the process ended, with its last stderr lines, for a message. */
    private String exit() {
        Integer status = exitStatus();
        return (status == null ? " (it is still running)" : " (it exited with status " + status + said(status) + ")")
                + stderrTail();
    }

    /**
     * The exit status of the Python library's adapter whose connector raised what the library may not catch
     * (KeyboardInterrupt, {@code sys.exit()} in a hook; its stderr's last line names it): adapters/python, {@code
     * UNCAUGHT}.
     */
    public static final int UNCAUGHT = 3;

    private static String said(int status) {
        return status == UNCAUGHT
                ? ", which the Python library gives when the connector raised what the library may not catch"
                : "";
    }

    /** The exit status once the process ended (waiting a second for it, and for its last stderr), or null. */
    private Integer exitStatus() {
        try {
            if (process.waitFor(1, TimeUnit.SECONDS)) {
                stderrReader.join(500);
                return process.exitValue();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return null;
    }

    @Override
    public String diagnostics() {
        return stderrTail();
    }

    private String stderrTail() {
        String tail;
        synchronized (stderr) {
            tail = stderr.toString(StandardCharsets.UTF_8).strip();
        }
        if (tail.isEmpty()) {
            return "";
        }
        String shown = tail;
        for (String prefix : shownFromFolder) {
            shown = shown.replace(prefix, "");
        }
        List<String> last = shown.lines().toList();
        last = last.subList(Math.max(0, last.size() - 5), last.size());
        return (shown.equals(tail)
                        ? "; its stderr ends: "
                        : "; its stderr ends (paths from the root of its revision): ")
                + String.join(" | ", last.stream().map(Json::excerpt).toList());
    }

    /** The longest first: a resolved path may extend the given one. */
    private static List<String> prefixes(Path directory) {
        java.util.TreeSet<String> prefixes =
                new java.util.TreeSet<>(
                        java.util.Comparator.comparingInt(String::length)
                                .reversed()
                                .thenComparing(java.util.Comparator.naturalOrder()));
        prefixes.add(directory.toAbsolutePath().normalize() + java.io.File.separator);
        try {
            prefixes.add(directory.toRealPath() + java.io.File.separator);
        } catch (IOException e) {
            // not there (yet): the adapter then fails to start, and names the folder as given
        }
        return List.copyOf(prefixes);
    }

    private void readLines(InputStream out) {
        ByteArrayOutputStream line = new ByteArrayOutputStream(256);
        byte[] buffer = new byte[1 << 16];
        try (out) {
            int read;
            while ((read = out.read(buffer)) >= 0) {
                List<String> lines = new ArrayList<>();
                int cost = 0;
                int from = 0;
                Item problem = null;
                for (int i = 0; i < read && problem == null; i++) {
                    if (buffer[i] != '\n') {
                        continue;
                    }
                    byte[] bytes;
                    if (line.size() == 0) {
                        bytes = Arrays.copyOfRange(buffer, from, i);
                    } else {
                        line.write(buffer, from, i - from);
                        bytes = line.toByteArray();
                        line.reset();
                    }
                    from = i + 1;
                    if (bytes.length > MAX_LINE_BYTES) {
                        problem = tooLong();
                    } else if (decode(bytes) instanceof String text) {
                        lines.add(text);
                        cost += bytes.length + 1;
                    } else {
                        problem =
                                new Broken(
                                        "printed a line that is not UTF-8: "
                                                + Json.excerpt(new String(bytes, StandardCharsets.UTF_8)));
                    }
                }
                if (problem == null) {
                    line.write(buffer, from, read - from);
                    if (line.size() > MAX_LINE_BYTES) {
                        problem = tooLong();
                    }
                }
                if (!lines.isEmpty() && !hand(new Lines(lines, cost))) {
                    return;
                }
                if (problem != null) {
                    hand(problem);
                    return;
                }
            }
            if (line.size() > 0) {
                hand(
                        new Broken(
                                "ended its output in the middle of a line: "
                                        + Json.excerpt(new String(line.toByteArray(), StandardCharsets.UTF_8))));
            }
            hand(new Ended());
        } catch (IOException e) {
            lines.offer(new Ended());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Broken tooLong() {
        return new Broken("printed a line longer than " + (MAX_LINE_BYTES >> 20) + " MiB");
    }

    /**
     * Hands lines to the kit once the queue has room for their bytes; false when the adapter was closed meanwhile
     * (nobody reads any more).
     */
    private boolean hand(Item item) throws InterruptedException {
        int cost = item instanceof Lines batch ? batch.cost() : 0;
        while (!budget.tryAcquire(cost, 100, TimeUnit.MILLISECONDS)) {
            if (closed) {
                return false;
            }
        }
        while (!lines.offer(item, 100, TimeUnit.MILLISECONDS)) {
            if (closed) {
                return false;
            }
        }
        return true;
    }

    /** The line's text, a carriage return at its end left out; null when it is not UTF-8. */
    private static String decode(byte[] bytes) {
        try {
            String text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
            return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private void keepTail(InputStream err) {
        byte[] buffer = new byte[4096];
        try (err) {
            int read;
            while ((read = err.read(buffer)) >= 0) {
                synchronized (stderr) {
                    stderr.write(buffer, 0, read);
                    if (stderr.size() > 4 * STDERR_TAIL) {
                        byte[] all = stderr.toByteArray();
                        stderr.reset();
                        stderr.write(all, all.length - STDERR_TAIL, STDERR_TAIL);
                    }
                }
            }
        } catch (IOException e) {
            // the process is gone
        }
    }
}
