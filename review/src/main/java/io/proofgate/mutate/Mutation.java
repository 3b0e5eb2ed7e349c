package io.proofgate.mutate;

import io.proofgate.words.Sha256;

/**
 * One mutation: the characters {@code start..end} of the module's text replaced by {@code replacement}, inside the
 * definition {@code operator}.
 *
 * <p>Its id depends only on the definition's own text (layout reduced to single spaces), where in it the mutation is,
 * and what it does: an edit elsewhere in the module keeps every id of this definition, so a judgement recorded against
 * an id stays attached to the same mutant.
 *
 * @param kind one of {@link Kind}'s words
 * @param original the text replaced
 * @param line 1-based line of the replaced text
 * @param column 1-based column of the replaced text
 */
public record Mutation(
        String id,
        String operator,
        Kind kind,
        int start,
        int end,
        String original,
        String replacement,
        int line,
        int column) {

    public enum Kind {
        /** {@code <} and {@code <=}, {@code >} and {@code >=}, {@code =} and {@code #} swapped */
        RELATIONAL("relational"),
        /** an integer constant shifted by one, up or down */
        BOUNDARY("boundary"),
        /** TRUE and FALSE swapped, a string replaced by another string of the definition */
        CONSTANT("constant"),
        /** {@code +} and {@code -} swapped */
        ARITHMETIC("arithmetic"),
        /** an infix {@code /\} and {@code \/} swapped */
        LOGICAL("logical"),
        /** {@code \cup} and {@code \cap}, {@code \in} and {@code \notin} swapped */
        SET("set"),
        /** one item of a bulleted conjunction dropped */
        DROP_CONJUNCT("drop-conjunct"),
        /** one item of a bulleted disjunction dropped */
        DROP_DISJUNCT("drop-disjunct"),
        /** an IF's condition negated: its THEN and ELSE branches swap */
        SWAP_IF("swap-if"),
        /** an IF's condition made FALSE: the row it guards never applies */
        SKIP_IF("skip-if"),
        /** a {@code ~} dropped */
        DROP_NEGATION("drop-negation"),
        /** a mistake a reviewer wrote down by name (spec/mistakes.json): it must be killed */
        NAMED("named");

        private final String wireName;

        Kind(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }

    /** The module's text with this mutation applied. */
    public String apply(String text) {
        return text.substring(0, start) + replacement + text.substring(end);
    }

    /** {@code original} → {@code replacement}, on one line, layout reduced, for reports. */
    public String change() {
        return oneLine(original) + " → " + (replacement.isBlank() ? "(dropped)" : oneLine(replacement));
    }

    static String oneLine(String s) {
        return s.strip().replaceAll("\\s+", " ");
    }

    static String id(Definition definition, int offsetInDefinition, Kind kind, String replacement) {
        String key =
                definition.name()
                        + "\n"
                        + definition.normalized()
                        + "\n"
                        + offsetInDefinition
                        + "\n"
                        + kind.wireName()
                        + "\n"
                        + oneLine(replacement);
        return Sha256.of(key).substring(0, 10);
    }
}
