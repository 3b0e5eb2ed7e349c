package io.proofgate.parse;

import io.proofgate.words.Outside;

import java.io.Serial;

/**
 * Input that does not match its grammar: says what, where and what was expected.
 *
 * <p>It is made with ANTLR's place of the error, lines from 1 and columns from 0 ({@code charPositionInLine}); its
 * message reads {@code source:line:column: detail} with both counted from 1, as every message of proofgate counts them,
 * so that an editor jumps to the character the message names.
 */
public final class ParseException extends RuntimeException {
    @Serial private static final long serialVersionUID = 1L;

    private final String source;
    private final int line;
    private final int column;
    private final String detail;

    public ParseException(String source, int line, int column, String detail) {
        super(Outside.at(source, line, column + 1) + detail);
        this.source = source;
        this.line = line;
        this.column = column;
        this.detail = detail;
    }

    public String source() {
        return source;
    }

    public int line() {
        return line;
    }

    /** The column, counted from 1 as in the message. */
    public int column() {
        return column + 1;
    }

    /** The message without its {@code source:line:column:} prefix. */
    public String detail() {
        return detail;
    }
}
