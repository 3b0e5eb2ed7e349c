package io.proofgate.mutate;

/**
 * One token of a TLA+ module's text.
 *
 * @param start offset of the first character in the text
 * @param end offset just past the last character
 * @param line 1-based line of the first character
 * @param column 1-based column of the first character
 */
public record TlaToken(Kind kind, String text, int start, int end, int line, int column) {

    public enum Kind {
        /** a name or a keyword (IF, THEN, LET, TRUE, ...) */
        WORD,
        /** a decimal integer */
        NUMBER,
        /** a string literal, quotes included */
        STRING,
        /** an operator or a bracket: {@code /\}, {@code <=}, {@code \in}, {@code (}, ... */
        SYMBOL,
        /** a {@code \*} line comment or a {@code (* *)} block comment */
        COMMENT,
        /** a line of four or more dashes or equals signs (section rules, module start and end) */
        RULE
    }

    public boolean is(String s) {
        return (kind == Kind.SYMBOL || kind == Kind.WORD) && text.equals(s);
    }
}
