package io.proofgate.protocol;

/**
 * The connector's counters (protocol §5 summary). {@code rejected} is the connector's
 * {@code recurrent_boundary_metadata_rejected} plus {@code invalid_selection} rejections.
 */
public record Counters(long plans, long rejected, long storeSkippedQuorum, long retiredFinished) {}
