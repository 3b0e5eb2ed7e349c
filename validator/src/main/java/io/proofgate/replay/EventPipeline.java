package io.proofgate.replay;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Parses the log on a second thread while the caller validates, in batches through a small
 * bounded queue: replay then costs about as much as parsing alone instead of parsing plus
 * validating, and memory stays bounded (at most {@link #CAPACITY} batches in flight). Lines and a
 * parse error come out in log order, exactly as {@link EventReader#next()} would give them.
 *
 * <p>The first {@link #INLINE_LINES} reads are made on the caller's thread, so a log of fewer
 * lines ends there, and the second thread starts only for a log that goes on after them:
 * starting and joining a thread costs far more than a short log takes to replay (the audit
 * replays tens of thousands of scenarios of a few lines each), while on a long log those first
 * lines are nothing.
 */
final class EventPipeline implements AutoCloseable {

    /** Where the lines come from: {@link EventReader#next()}, or a stand-in in tests. */
    @FunctionalInterface
    interface Lines {
        ReplayLine next() throws ReplayException, IOException;
    }

    /** How often the consumer looks whether the reader thread is still alive while it waits. */
    private static final long WATCH_MILLIS = 50;

    private static final int BATCH = 64;
    private static final int CAPACITY = 8;
    /** Reads made on the caller's thread before the second thread takes over. */
    static final int INLINE_LINES = 64;

    /** A batch of lines, possibly ending with the error or the end that followed them. */
    private record Batch(List<ReplayLine> lines, Throwable failure, boolean end) {}

    private final BlockingQueue<Batch> queue = new ArrayBlockingQueue<>(CAPACITY);
    private final Thread producer;
    private final Lines reader;
    /** Reads still to be made on the caller's thread; at 0 the second thread takes over; -1 once it has, or the log ended. */
    private int inline;
    private volatile boolean closed;
    private Batch current = new Batch(List.of(), null, false);
    private int position;

    private EventPipeline(Lines reader, int inlineLines) {
        this.reader = reader;
        this.inline = inlineLines;
        // A thread that dies with nothing handed over is reported by the consumer (take()), in one
        // line; the JVM's default handler would print a stack trace first.
        producer = Thread.ofPlatform().name("proofgate-replay-reader").daemon(true)
                .uncaughtExceptionHandler((thread, failure) -> { })
                .unstarted(this::produce);
    }

    static EventPipeline start(Lines reader) {
        return start(reader, INLINE_LINES);
    }

    /** As {@link #start(Lines)}, the second thread taking over after {@code inlineLines} lines (tests). */
    static EventPipeline start(Lines reader, int inlineLines) {
        return new EventPipeline(reader, inlineLines);
    }

    /** The next line, or null at the end of the log. */
    ReplayLine next() throws ReplayException, IOException {
        if (inline > 0) {
            ReplayLine line = reader.next(); // a failure here comes out in order by itself
            if (line == null) {
                inline = -1;
                current = new Batch(List.of(), null, true); // the end, read here: the thread never starts
            } else {
                inline--;
            }
            return line;
        }
        if (inline == 0) {
            // the log goes on past the inline reads: the reader is the second thread's from here,
            // and Thread.start orders this thread's reads before its own
            inline = -1;
            producer.start();
        }
        while (position == current.lines().size()) {
            if (current.failure() != null) {
                switch (current.failure()) {
                    case ReplayException e -> throw e;
                    case IOException e -> throw e;
                    case RuntimeException e -> throw e;
                    case Error e -> throw e; // out of memory on the reader thread surfaces here, once
                    default -> throw new IllegalStateException(current.failure());
                }
            }
            if (current.end()) {
                return null;
            }
            try {
                current = take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while reading the log", e);
            }
            position = 0;
        }
        return current.lines().get(position++);
    }

    /**
     * The next batch. The reader thread hands over its own failure, an out-of-memory error
     * included; but when even that hand-over cannot be allocated the thread dies with nothing in
     * the queue, and a plain take() would wait for ever. So the consumer watches the thread.
     */
    private Batch take() throws InterruptedException {
        while (true) {
            Batch batch = queue.poll(WATCH_MILLIS, TimeUnit.MILLISECONDS);
            if (batch != null) {
                return batch;
            }
            if (!producer.isAlive()) {
                batch = queue.poll(); // it may have put its last batch just before it ended
                if (batch != null) {
                    return batch;
                }
                throw new OutOfMemoryError("the log reader stopped without handing over its failure");
            }
        }
    }

    private void produce() {
        List<ReplayLine> lines = new ArrayList<>(BATCH);
        Batch last;
        try {
            ReplayLine line;
            while (!closed && (line = reader.next()) != null) {
                lines.add(line);
                if (lines.size() == BATCH) {
                    put(new Batch(lines, null, false));
                    lines = new ArrayList<>(BATCH);
                }
            }
            last = new Batch(lines, null, true);
        } catch (ReplayException | IOException | RuntimeException | Error e) {
            // the lines before the failure first, then the failure; an Error (out of memory) too,
            // or the consumer would wait for ever on a reader that died
            last = new Batch(lines, e, false);
        } catch (InterruptedException e) {
            return; // closed by the consumer: nobody is waiting for more
        }
        try {
            put(last);
        } catch (InterruptedException e) {
            // closed by the consumer
        }
    }

    private void put(Batch batch) throws InterruptedException {
        while (!closed) {
            if (queue.offer(batch, WATCH_MILLIS, TimeUnit.MILLISECONDS)) {
                return;
            }
        }
        throw new InterruptedException("closed");
    }

    /** Stops the reader thread when the consumer gives up early (an invalid event, an error). */
    @Override
    public void close() {
        closed = true;
        queue.clear();
        try {
            producer.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
