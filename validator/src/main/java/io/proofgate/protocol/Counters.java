package io.proofgate.protocol;

/**
 * The connector's counters (protocol §5 summary). {@code rejected} is the connector's {@code
 * recurrent_boundary_metadata_rejected} plus {@code invalid_selection} rejections; {@code ignoredHeld} counts held
 * reports from ranks outside {@code 0..tp_degree-1}, which the real connector skips (protocol §6).
 */
public record Counters(long plans, long rejected, long storeSkippedQuorum, long retiredFinished, long ignoredHeld) {

    /** The counters with no held report ignored. */
    public Counters(long plans, long rejected, long storeSkippedQuorum, long retiredFinished) {
        this(plans, rejected, storeSkippedQuorum, retiredFinished, 0);
    }
}
