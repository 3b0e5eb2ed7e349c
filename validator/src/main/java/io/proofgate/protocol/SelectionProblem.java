package io.proofgate.protocol;

/** Why a plan's block selection fails closed: the {@code problem} of an {@code invalid_selection} (protocol §3). */
enum SelectionProblem {
    SHORT_TABLE("short_table"),
    NULL_BLOCK("null_block"),
    REPEATED_BLOCK("repeated_block");

    private final String word;

    SelectionProblem(String word) {
        this.word = word;
    }

    /** The problem as written in reasons and in the spec. */
    String word() {
        return word;
    }
}
