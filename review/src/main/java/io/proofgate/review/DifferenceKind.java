package io.proofgate.review;

/** What changed at the first event where two revisions of a connector answer differently. */
public enum DifferenceKind {
    /** A verdict appears, disappears, or changes kind, code, cause or plan. */
    VERDICT("verdict", "verdict"),
    /** The same verdicts, but a rejection's reason (its facts or its text) differs. */
    REASON_ONLY("reason_only", "reason only"),
    /** The same verdicts of one event in another order. */
    ORDER_ONLY("order_only", "order only"),
    /** The same verdicts; the connector's state after the event (or the summary) differs. */
    STATE_ONLY("state_only", "state only");

    private final String wireName;
    private final String words;

    DifferenceKind(String wireName, String words) {
        this.wireName = wireName;
        this.words = words;
    }

    /** The JSON report's value. */
    public String wireName() {
        return wireName;
    }

    /** The text and Markdown reports' words. */
    public String words() {
        return words;
    }
}
