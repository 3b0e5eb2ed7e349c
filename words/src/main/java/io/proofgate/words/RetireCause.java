package io.proofgate.words;

/** Why a pending store was dropped without a plan: the {@code cause} of a {@code retired} verdict (protocol §3). */
public enum RetireCause {
    QUORUM("quorum"),
    FINISHED("finished");

    private final String wireName;

    RetireCause(String wireName) {
        this.wireName = wireName;
    }

    /** The cause as written in replay output and in the spec. */
    public String wireName() {
        return wireName;
    }
}
