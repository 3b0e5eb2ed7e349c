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

    /** The cause of a wire name; empty for a name this version does not know. */
    public static java.util.Optional<RetireCause> of(String wireName) {
        return java.util.Arrays.stream(values()).filter(c -> c.wireName.equals(wireName)).findFirst();
    }
}
