package io.proofgate.words;

/** Why a plan's block selection fails closed: the {@code problem} of an {@code invalid_selection} (protocol §3). */
public enum SelectionProblem {
    SHORT_TABLE("short_table"),
    NULL_BLOCK("null_block"),
    REPEATED_BLOCK("repeated_block");

    private final String wireName;

    SelectionProblem(String wireName) {
        this.wireName = wireName;
    }

    /** The problem as written in reasons and in the spec. */
    public String wireName() {
        return wireName;
    }
}
