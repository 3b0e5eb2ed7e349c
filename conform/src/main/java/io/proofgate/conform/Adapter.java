package io.proofgate.conform;

import java.time.Duration;

/**
 * Where the kit's messages go and the answer lines come from: an external process ({@link ProcessAdapter}) or, for the
 * throughput baseline, proofgate's validator in process ({@link InProcessAdapter}). The protocol itself is {@link
 * AdapterClient}'s.
 */
public interface Adapter extends AutoCloseable {

    /**
     * Queues one message line. It never fails: an adapter that is gone or stopped reading shows in {@link #receive}, at
     * the answer that does not come.
     */
    void send(String message);

    /**
     * Queues messages in order, as {@link #send(String)} each; an adapter process gets them in one write, so that a
     * scenario sent ahead wakes its adapter once, not once per message.
     */
    default void send(java.util.List<String> messages) {
        messages.forEach(this::send);
    }

    /** The next line of the answer, or null when none came within {@code patience}. */
    String receive(Duration patience) throws AdapterException;

    /** What the adapter said on the side (its stderr's last lines), for an error message; may be empty. */
    default String diagnostics() {
        return "";
    }

    /**
     * Closes the adapter's input and returns the first non-blank line it printed after its last answer, or null when it
     * printed none before it ended. One still running after {@code patience} is stopped, and what it printed until then
     * is read too.
     */
    String leftover(Duration patience);

    /**
     * After {@link #leftover} saw the adapter end its output: how it exited, when that was a failure (a status other
     * than 0, with its last stderr lines); null when it exited with 0, is still running, or is no process.
     */
    default String failedExit() {
        return null;
    }

    /** Nanoseconds spent waiting in {@link #receive}: the adapter's share of a run. */
    long waitedNanos();

    @Override
    void close();
}
