package io.proofgate.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Lines come out in order, read on the caller's thread for a short log and on a second thread
 * after that; the reader's failures reach the consumer, and a consumer never waits on a dead reader.
 */
class EventPipelineTest {

    @Test
    void aFailureOfTheReaderReachesTheConsumer() throws Exception {
        for (int inline : new int[] {0, 3, EventPipeline.INLINE_LINES}) {
            Numbered numbered = new Numbered(2, new IOException("disk gone"));
            try (EventPipeline pipeline = EventPipeline.start(numbered, inline)) {
                assertEquals(1, pipeline.next().line());
                assertEquals(2, pipeline.next().line());
                IOException e = assertThrows(IOException.class, pipeline::next);
                assertEquals("disk gone", e.getMessage());
            }
        }
    }

    @Test
    void aShortLogIsReadOnTheCallersThreadAndALongOneGoesOnOnASecondThread() throws Exception {
        // the end is the last of the inline reads
        Numbered small = new Numbered(EventPipeline.INLINE_LINES - 1, null);
        try (EventPipeline pipeline = EventPipeline.start(small)) {
            for (int i = 1; i < EventPipeline.INLINE_LINES; i++) {
                assertEquals(i, pipeline.next().line());
            }
            assertNull(pipeline.next());
        }
        assertEquals(Set.of(Thread.currentThread()), small.readers);

        int lines = EventPipeline.INLINE_LINES + 1000;
        Numbered large = new Numbered(lines, null);
        try (EventPipeline pipeline = EventPipeline.start(large)) {
            for (int i = 1; i <= lines; i++) {
                assertEquals(i, pipeline.next().line());
            }
            assertNull(pipeline.next());
        }
        assertEquals(2, large.readers.size(), "the caller's thread first, then the pipeline's");
        assertTrue(large.readers.contains(Thread.currentThread()));
    }

    /** Lines numbered 1 to {@code count}, then the end or {@code failure}; records which threads read them. */
    private static final class Numbered implements EventPipeline.Lines {
        final Set<Thread> readers = java.util.concurrent.ConcurrentHashMap.newKeySet();
        private final int count;
        private final IOException failure;
        private int next = 1;

        Numbered(int count, IOException failure) {
            this.count = count;
            this.failure = failure;
        }

        @Override
        public ReplayLine next() throws IOException {
            readers.add(Thread.currentThread());
            if (next > count) {
                if (failure != null) {
                    throw failure;
                }
                return null;
            }
            return new ReplayLine(null, next++, 1);
        }
    }

    /**
     * Stands in for a reader thread that dies while handing over its own failure (out of memory
     * again while allocating the hand-over): nothing ever reaches the queue. Without the watch on
     * the thread, next() waits for ever and this test times out.
     */
    @Test
    void aReaderThatDiesWithoutAWordEndsTheReplayInsteadOfHangingIt() {
        EventPipeline.Lines dying = () -> {
            throw EventPipelineTest.<RuntimeException>sneaky(new Exception("escapes every catch of the reader"));
        };
        // a guard against the hang this test exists for: seconds here would be a bet on the machine
        assertTimeoutPreemptively(Duration.ofMinutes(5), () -> {
            try (EventPipeline pipeline = EventPipeline.start(dying, 0)) {
                OutOfMemoryError e = assertThrows(OutOfMemoryError.class, pipeline::next);
                assertEquals("the log reader stopped without handing over its failure", e.getMessage());
            }
        });
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T sneaky(Throwable t) throws T {
        throw (T) t;
    }
}
