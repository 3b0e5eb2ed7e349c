package io.proofgate.parse;

import java.io.Serial;

/**
 * Input that does not match its grammar: says what, where and what was expected.
 *
 * <p>Lines count from 1 and columns from 0, as ANTLR reports them ({@code line 3:0}); the message reads {@code
 * source:line:column: detail}.
 */
public final class ParseException extends RuntimeException {
    @Serial private static final long serialVersionUID = 1L;

    private final String source;
    private final int line;
    private final int column;
    private final String detail;

    public ParseException(String source, int line, int column, String detail) {
        super(source + ":" + line + ":" + column + ": " + detail);
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

    public int column() {
        return column;
    }

    /** The message without its {@code source:line:column:} prefix. */
    public String detail() {
        return detail;
    }
}
