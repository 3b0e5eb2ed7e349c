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

    /** A batch of lines, possibly ending with the error or the end that followed them. */
    private record Batch(List<ReplayLine> lines, Throwable failure, boolean end) {}

    private final BlockingQueue<Batch> queue = new ArrayBlockingQueue<>(CAPACITY);
    private final Thread producer;
    private volatile boolean closed;
    private Batch current = new Batch(List.of(), null, false);
    private int position;

    private EventPipeline(Lines reader) {
        // A thread that dies with nothing handed over is reported by the consumer (take()), in one
        // line; the JVM's default handler would print a stack trace first.
        producer = Thread.ofPlatform().name("proofgate-replay-reader").daemon(true)
                .uncaughtExceptionHandler((thread, failure) -> { })
                .unstarted(() -> produce(reader));
    }

    static EventPipeline start(Lines reader) {
        EventPipeline pipeline = new EventPipeline(reader);
        pipeline.producer.start();
        return pipeline;
    }

    /** The next line, or null at the end of the log. */
    ReplayLine next() throws ReplayException, IOException {
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

    private void produce(Lines reader) {
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
