package io.proofgate.audit;

import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * The outcome of work run on a thread of its own (a revision written, a side's TLC runs), as the work itself would have
 * given it: its value, or its failure rethrown as what was thrown, so that a report words it as it would a failure on
 * the caller's thread.
 */
public final class TaskResult {

    private TaskResult() {}

    /** The value of {@code task}, waiting for it; its failure rethrown as it was thrown. */
    public static <T> T of(Future<T> task) throws IOException, InterruptedException {
        try {
            return task.get();
        } catch (ExecutionException e) {
            switch (e.getCause()) {
                case IOException io -> throw io;
                case InterruptedException interrupted -> throw interrupted;
                case RuntimeException runtime -> throw runtime;
                case Error error -> throw error;
                default -> throw new IllegalStateException(e.getCause());
            }
        }
    }

    /**
     * Waits for {@code task} to end, whatever its outcome (an interrupt is kept for the caller): before the folder it
     * writes in is deleted, say, when the caller is already failing.
     */
    public static void await(Future<?> task) {
        boolean interrupted = false;
        while (true) {
            try {
                task.get();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            } catch (ExecutionException e) {
                break; // its failure is the caller's to report, through of(), or not at all
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
