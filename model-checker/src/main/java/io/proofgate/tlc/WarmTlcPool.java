package io.proofgate.tlc;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Runs TLC in warm child JVMs ({@link WarmTlc}), each kept for the next run, instead of a fresh JVM per run ({@link
 * TlcProcess}): for many short runs, such as a mutation run's. A run here is read as {@link TlcProcess#run} reads one
 * (its output file, exit code, time limit and state bound), without a listener: the output is read once the run ends.
 * Its output is TLC's in a warm JVM, written in UTF-8; where it can differ from a fresh JVM's: docs/performance.md.
 *
 * <p>A child is lent to one caller at a time; as many children start as callers run at once, and a run's time limit
 * starts once its child is warm. Where a child cannot say how a run went (it ended, TLC threw, or ran out of heap or
 * stack), the run is made again in a fresh JVM, so a warm child can cost time but never leave a run without its
 * outcome. A run past its time limit ends its child, as it ends a fresh JVM. After three new children in a row that did
 * not become warm, every run goes to a fresh JVM.
 */
public final class WarmTlcPool implements TlcRunner, AutoCloseable {

    /** A reply line that no child writes: the child's stdout ended. */
    private static final String GONE = "\0gone";

    /** The replies a child writes; any other line on its stdout is the JVM's own, and is skipped. */
    private static final java.util.regex.Pattern REPLY =
            java.util.regex.Pattern.compile("ready|failed|(done|last) -?\\d+");

    /** How long a new child may take to load TLC and warm up; past it, runs go to fresh JVMs. */
    private static final long READY_LIMIT_S = 300;

    private static final long KILL_WAIT_S = 10;

    /** Children in a row that failed before serving a run, after which the pool starts no more. */
    private static final int GIVE_UP_AFTER = 3;

    private final Path home;
    private final String maxHeap;
    private final boolean seesLoadedClasses;
    private final Deque<Child> idle = new ArrayDeque<>();
    private final List<Child> all = new ArrayList<>();
    private final Thread hook;
    private int started;
    private int failedInARow;
    private boolean closed;

    /**
     * @param home a folder of this pool's own: each child's working folder and java.io.tmpdir
     * @param maxHeap each child's {@code -Xmx}; a command asking for another heap runs in a fresh JVM
     */
    public WarmTlcPool(Path home, String maxHeap) {
        this(home, maxHeap, true);
    }

    /**
     * @param seesLoadedClasses false for tests: a child that cannot tell which of TLC's classes are loaded ({@link
     *     TlcClasses}) ends after every run, as if each had loaded one
     */
    WarmTlcPool(Path home, String maxHeap, boolean seesLoadedClasses) {
        this.home = home;
        this.maxHeap = maxHeap;
        this.seesLoadedClasses = seesLoadedClasses;
        this.hook = new Thread(this::destroyAll, "proofgate-warm-tlc-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** One warm child: its process, the requests it reads and the replies it writes. */
    private record Child(Process process, Writer requests, BlockingQueue<String> replies) {
        /** Kills the child and waits for it, so that no later run shares a file with it. */
        void destroy() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor(KILL_WAIT_S, TimeUnit.SECONDS);
        }
    }

    /**
     * Kills {@code child}, waits for it, and forgets it, so that a pool that runs for hours does not hold every child
     * it ended. A child killed without waiting stays, for {@link #close} to wait for.
     */
    private void end(Child child) throws InterruptedException {
        child.destroy();
        synchronized (this) {
            all.remove(child);
        }
    }

    /** How many children this pool holds now, lent or idle (for tests). */
    synchronized int childrenHeld() {
        return all.size();
    }

    /** Runs {@code asked} in a warm child, or in a fresh JVM where no child can run it. */
    @Override
    public TlcResult run(TlcCommand asked) throws IOException, InterruptedException {
        if (!asked.maxHeap().map(maxHeap::equals).orElse(false)) { // no heap asked: the JVM's own default
            return TlcProcess.run(asked, message -> {});
        }
        TlcCommand command = TlcProcess.prepare(asked);
        Optional<String> request = request(command);
        Optional<Child> lent = request.isEmpty() ? Optional.empty() : borrow();
        if (lent.isEmpty()) {
            return TlcProcess.run(asked, message -> {});
        }
        Child child = lent.get();
        String reply;
        try {
            child.requests().write(request.get());
            child.requests().write('\n');
            child.requests().flush();
            reply =
                    command.timeout().isPresent()
                            ? child.replies().poll(command.timeout().get().toMillis(), TimeUnit.MILLISECONDS)
                            : child.replies().take();
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            if (e instanceof IOException) {
                end(child);
                return again(asked); // the child's stdin closed: it ended
            }
            child.process().destroyForcibly(); // never lend a child whose run is still going
            throw e;
        }
        boolean bounded = asked.stateBound().isPresent();
        if (reply == null) { // past the time limit: as a fresh JVM's run, killed, its output as far as it went
            end(child);
            cutToLastLine(command.rawOutput());
            return TlcProcess.result(137, true, bounded, command.rawOutput());
        }
        if (reply.startsWith("done ") || reply.startsWith("last ")) {
            if (reply.startsWith("done ")) {
                giveBack(child);
            } else {
                child.process().waitFor(KILL_WAIT_S, TimeUnit.SECONDS); // it ends after this run (WarmTlc)
                end(child);
            }
            return TlcProcess.result(
                    Integer.parseInt(reply.substring("done ".length())), false, bounded, command.rawOutput());
        }
        end(child); // "failed", or gone: this run again in a JVM of its own
        return again(asked);
    }

    /**
     * {@code asked} in a JVM of its own, after a warm child did not finish it, with a metadir of its own: TLC names its
     * folder there by the second it starts in and refuses one that exists, such as the child's of the same second.
     */
    private static TlcResult again(TlcCommand asked) throws IOException, InterruptedException {
        Path metaDir = asked.metaDir();
        return TlcProcess.run(
                asked.withMetaDir(metaDir.resolveSibling(metaDir.getFileName() + "-again")), message -> {});
    }

    /**
     * A warm child for one run: an idle one, or a new one once it is warm (its run's time limit starts after the
     * warm-up); none where a new one did not become warm, or where {@value #GIVE_UP_AFTER} in a row did not, after
     * which this pool runs every run fresh.
     */
    private Optional<Child> borrow() throws IOException, InterruptedException {
        Optional<Lent> child = idleOrNew();
        if (child.isEmpty() || !child.get().fresh()) {
            return child.map(Lent::child);
        }
        Child made = child.get().child();
        String first = made.replies().poll(READY_LIMIT_S, TimeUnit.SECONDS);
        synchronized (this) {
            if ("ready".equals(first)) {
                failedInARow = 0;
                return Optional.of(made);
            }
            failedInARow++;
        }
        end(made); // its stderr.txt says why
        return Optional.empty();
    }

    /** A child to lend, and whether it was started for this run. */
    private record Lent(Child child, boolean fresh) {}

    /**
     * The child's request line for {@code command}, or empty where a field cannot go in one or the config cannot be
     * named from the module's folder (such a run goes to a fresh JVM).
     */
    private static Optional<String> request(TlcCommand command) {
        Optional<List<String>> arguments = command.warmTlcArguments();
        if (arguments.isEmpty()) {
            return Optional.empty();
        }
        List<String> fields = new ArrayList<>();
        fields.add(command.rawOutput().toAbsolutePath().toString());
        fields.add(command.libraryPath());
        fields.addAll(arguments.get());
        if (fields.stream().anyMatch(f -> f.indexOf('\0') >= 0 || f.indexOf('\n') >= 0 || f.indexOf('\r') >= 0)) {
            return Optional.empty();
        }
        return Optional.of(String.join("\0", fields));
    }

    private synchronized Optional<Lent> idleOrNew() throws IOException {
        if (closed) {
            throw new IllegalStateException("this pool of warm TLC children is closed");
        }
        while (!idle.isEmpty()) {
            Child child = idle.pop();
            if (child.process().isAlive()) {
                return Optional.of(new Lent(child, false));
            }
            all.remove(child);
        }
        if (failedInARow >= GIVE_UP_AFTER) {
            return Optional.empty();
        }
        Path folder = home.resolve("child-" + started++);
        Path tmp = folder.resolve("java-tmp");
        Files.createDirectories(tmp);
        List<String> options = new ArrayList<>(List.of("-Xmx" + maxHeap));
        if (seesLoadedClasses) { // WarmTlc tells TLC's loaded classes through ClassLoader.findLoadedClass (TlcClasses)
            options.add("--add-opens=java.base/java.lang=ALL-UNNAMED");
        }
        List<String> line =
                TlcCommand.childJvm(
                        TlcProcess.java(), options, tmp, TlcProcess.childClassPath(), WarmTlc.class.getName());
        Process process =
                new ProcessBuilder(line)
                        .directory(folder.toFile())
                        .redirectError(folder.resolve("stderr.txt").toFile())
                        .start();
        BlockingQueue<String> replies = new LinkedBlockingQueue<>();
        Thread.ofVirtual()
                .start(
                        () -> {
                            try (BufferedReader in =
                                    new BufferedReader(
                                            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                                for (String reply; (reply = in.readLine()) != null; ) {
                                    if (REPLY.matcher(reply).matches()) {
                                        replies.add(reply);
                                    }
                                }
                            } catch (IOException e) {
                                // the child is gone; said below
                            }
                            replies.add(GONE);
                        });
        Child child =
                new Child(
                        process,
                        new java.io.OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8),
                        replies);
        all.add(child);
        return Optional.of(new Lent(child, true));
    }

    private static String identity;

    /**
     * A SHA-256 of what a warm child's runs print by: a fresh JVM's TLC ({@link TlcProcess#toolIdentity()}), the
     * child's own classes, and its warm-up models, whose strings TLC has made before any run's. A run this pool hands
     * to a fresh JVM (a child that failed) prints as a warm one does wherever the spec's record fields and strings are
     * not names TLC makes itself, as on every model of this project (docs/performance.md); one identity covers both.
     */
    @Override
    public String identity() throws IOException {
        synchronized (WarmTlcPool.class) {
            if (identity == null) {
                io.proofgate.words.Sha256.Fields fields = io.proofgate.words.Sha256.fields();
                fields.add("warm TLC JVM");
                fields.add(TlcProcess.toolIdentity());
                for (Class<?> own : List.of(WarmTlc.class, TlcStatics.class, TlcClasses.class)) {
                    fields.add(resource(own, own.getSimpleName() + ".class"));
                }
                for (String name : WarmTlc.WARM_UP_FILES) {
                    fields.add(resource(WarmTlc.class, WarmTlc.WARM_UP + name));
                }
                identity = fields.hex();
            }
            return identity;
        }
    }

    private static byte[] resource(Class<?> near, String name) throws IOException {
        try (var in = near.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("cannot read proofgate's " + name + " to identify warm TLC runs");
            }
            return in.readAllBytes();
        }
    }

    /** How many warm JVMs this pool has started. */
    public synchronized int childrenStarted() {
        return started;
    }

    private synchronized void giveBack(Child child) {
        if (closed) {
            child.process().destroyForcibly(); // close() waits for it
        } else {
            idle.push(child);
        }
    }

    /** A killed child may have written part of a line: the output ends at its last whole line. */
    private static void cutToLastLine(Path raw) throws IOException {
        if (!Files.exists(raw)) {
            Files.createFile(raw);
            return;
        }
        byte[] bytes = Files.readAllBytes(raw);
        int end = bytes.length;
        while (end > 0 && bytes[end - 1] != '\n') {
            end--;
        }
        if (end < bytes.length) {
            try (FileChannel channel = FileChannel.open(raw, StandardOpenOption.WRITE)) {
                channel.truncate(end);
            }
        }
    }

    /** Kills every child, then waits a while for each to be gone. */
    private void destroyAll() {
        List<Child> children;
        synchronized (this) {
            children = List.copyOf(all);
        }
        children.forEach(child -> child.process().destroyForcibly());
        try {
            for (Child child : children) {
                child.process().waitFor(KILL_WAIT_S, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Ends every child: their stdin closes, and any still running is killed. Closing again does nothing. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            for (Child child : all) {
                try {
                    child.requests().close();
                } catch (IOException e) {
                    // it ended already
                }
            }
        }
        destroyAll();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
    }
}
