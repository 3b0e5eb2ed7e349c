package io.proofgate.format;

import io.proofgate.words.Outside;

import java.io.Serial;

/** Text that is not in the scenario format: says where ({@code source:line:column}) and what. */
public final class ScenarioFormatException extends IllegalArgumentException {
    @Serial private static final long serialVersionUID = 1L;

    private final String source;
    private final int line;
    private final int column;
    private final String detail;

    public ScenarioFormatException(String source, int line, int column, String detail) {
        super(Outside.at(source, line, column) + detail);
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
