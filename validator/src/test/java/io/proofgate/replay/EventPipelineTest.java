package io.proofgate.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The reader thread's failures reach the consumer, and a consumer never waits on a dead reader. */
class EventPipelineTest {

    @Test
    void aFailureOfTheReaderReachesTheConsumer() {
        EventPipeline.Lines failing = () -> {
            throw new IOException("disk gone");
        };
        try (EventPipeline pipeline = EventPipeline.start(failing)) {
            IOException e = assertThrows(IOException.class, pipeline::next);
            assertEquals("disk gone", e.getMessage());
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
            try (EventPipeline pipeline = EventPipeline.start(dying)) {
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
