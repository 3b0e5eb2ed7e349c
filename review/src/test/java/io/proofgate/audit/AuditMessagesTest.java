package io.proofgate.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;

/** What the audit says of a state it cannot read, whichever thread of a parallel step read it. */
class AuditMessagesTest {

    @Test
    void anExceptionAPoolThreadThrewIsSaidInItsOwnWords() {
        ForkJoinPool pool = new ForkJoinPool(1);
        try {
            ForkJoinTask<?> task =
                    pool.submit(
                            () -> {
                                throw new IllegalArgumentException("lastEvent's kind is not a string");
                            });
            while (!task.isDone()) { // thrown on the pool's thread, not run by this one at the join
                Thread.onSpinWait();
            }
            IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, task::join);
            assertEquals(
                    "java.lang.IllegalArgumentException: lastEvent's kind is not a string",
                    thrown.getMessage(),
                    "the pool's rethrow: what the audit must not say");
            assertEquals("lastEvent's kind is not a string", Audit.ownMessage(thrown));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anExceptionWithAnotherCauseKeepsItsMessage() {
        IllegalArgumentException e =
                new IllegalArgumentException("the spec says so", new IllegalArgumentException("why"));
        assertEquals("the spec says so", Audit.ownMessage(e));
    }
}
