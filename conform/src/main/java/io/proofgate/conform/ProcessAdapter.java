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
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An implementation's adapter as a child process: {@code /bin/sh -c CMD}. Messages are written to
 * its stdin and answers read from its stdout by threads of their own, so that a silent adapter,
 * or one that stops reading, is a timeout, never a hang of the kit. Its stderr is kept (the last few kilobytes) for the error message when
 * it breaks. Closing ends the process and everything it started, daemons included ({@link OwnSession}).
 */
public final class ProcessAdapter implements Adapter {

    /** A line longer than this is not an answer; reading on would only fill memory. */
    static final int MAX_LINE_BYTES = 1 << 20;
    private static final int STDERR_TAIL = 2048;

    private sealed interface Item {}

    /** A line and the bytes of the queue's budget it holds. */
    private record Text(String line, int cost) implements Item {}

    private record Broken(String problem) implements Item {}

    private record Ended() implements Item {}

    private final String command;
    private final OwnSession session;
    private final Process process;
    private final OutputStream stdin;
    /**
     * Bounded in lines and in bytes: an adapter that floods its output waits for the kit instead
     * of filling its heap (65,536 lines of up to 1 MiB each were up to 64 GiB).
     */
    private final BlockingQueue<Item> lines = new java.util.concurrent.ArrayBlockingQueue<>(1 << 16);
    static final int QUEUED_BYTES = 4 << 20;
    private final java.util.concurrent.Semaphore budget = new java.util.concurrent.Semaphore(QUEUED_BYTES);
    private volatile boolean closed;
    /** Messages for the writer thread: a write never blocks the kit, so a stuck adapter is a timeout. */
    private final BlockingQueue<String> outbox = new LinkedBlockingQueue<>();
    private static final String CLOSE = new String("close");
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final Thread stderrReader;
    private long waited;
    private boolean ended;

    public ProcessAdapter(String command, Path directory) throws AdapterException {
        this.command = command;
        try {
            session = OwnSession.start(command, directory);
        } catch (IOException e) {
            throw new AdapterException("could not be started: " + e.getMessage());
        }
        process = session.process();
        stdin = process.getOutputStream();
        Thread.ofPlatform().daemon(true).name("proofgate-conform-stdin").start(this::writeMessages);
        Thread.ofPlatform().daemon(true).name("proofgate-conform-stdout").start(() -> readLines(process.getInputStream()));
        stderrReader = Thread.ofPlatform().daemon(true).name("proofgate-conform-stderr")
                .start(() -> keepTail(process.getErrorStream()));
    }

    /** What this machine cannot do to end an adapter's descendants (no setsid, no /proc), for a line on stderr; or empty. */
    public static java.util.Optional<String> hygieneNote() {
        return OwnSession.note();
    }

    public String command() {
        return command;
    }

    @Override
    public void send(String message) {
        outbox.add(message);
    }

    /** The writer thread: messages in order; when the adapter stops reading, the rest are dropped. */
    private void writeMessages() {
        try (OutputStream out = stdin) {
            while (true) {
                String message = outbox.take();
                if (message == CLOSE) {
                    return;
                }
                out.write(message.getBytes(StandardCharsets.UTF_8));
                out.write('\n');
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
            case Text text -> {
                budget.release(text.cost());
                yield text.line();
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
                    return null; // still running: close() stops it
                }
                case Text text -> {
                    budget.release(text.cost());
                    if (!text.line().isBlank()) {
                        return text.line();
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
     * Closes the adapter's input, gives it two seconds to exit, then ends its session: the
     * adapter, every process it started and every daemon those started ({@link OwnSession}).
     */
    @Override
    public void close() {
        closed = true; // the reader stops waiting for room in the queue
        outbox.add(CLOSE);
        try {
            process.waitFor(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        session.end(Duration.ofSeconds(1));
    }

    /** How the process ended, with its last stderr lines, for a message. */
    private String exit() {
        try {
            if (process.waitFor(1, TimeUnit.SECONDS)) {
                stderrReader.join(500);
                return " (it exited with status " + process.exitValue() + ")" + stderrTail();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return " (it is still running)" + stderrTail();
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
        List<String> last = tail.lines().toList();
        last = last.subList(Math.max(0, last.size() - 5), last.size());
        return "; its stderr ends: " + String.join(" | ", last.stream().map(Json::excerpt).toList());
    }

    private void readLines(InputStream out) {
        ByteArrayOutputStream line = new ByteArrayOutputStream(256);
        byte[] buffer = new byte[1 << 16];
        try (out) {
            int read;
            while ((read = out.read(buffer)) >= 0) {
                for (int i = 0; i < read; i++) {
                    if (buffer[i] == '\n') {
                        if (!hand(decode(line.toByteArray()))) {
                            return;
                        }
                        line.reset();
                    } else if (line.size() >= MAX_LINE_BYTES) {
                        hand(new Broken("printed a line longer than " + (MAX_LINE_BYTES >> 20) + " MiB"));
                        return;
                    } else {
                        line.write(buffer[i]);
                    }
                }
            }
            if (line.size() > 0) {
                hand(new Broken("ended its output in the middle of a line: " + Json.excerpt(
                        new String(line.toByteArray(), StandardCharsets.UTF_8))));
            }
            hand(new Ended());
        } catch (IOException e) {
            lines.offer(new Ended());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Hands a line to the kit once the queue has room for its bytes; false when the adapter was
     * closed meanwhile (nobody reads any more).
     */
    private boolean hand(Item item) throws InterruptedException {
        int cost = item instanceof Text text ? text.cost() : 0;
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

    private static Item decode(byte[] bytes) {
        try {
            String text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
            return new Text(text.endsWith("\r") ? text.substring(0, text.length() - 1) : text, bytes.length + 1);
        } catch (CharacterCodingException e) {
            return new Broken("printed a line that is not UTF-8: " + Json.excerpt(new String(bytes, StandardCharsets.UTF_8)));
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
