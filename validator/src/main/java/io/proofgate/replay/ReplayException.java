package io.proofgate.replay;

import io.proofgate.words.Outside;

/** A structural error in a replay log, located at {@code source:line:column}. */
public final class ReplayException extends Exception {
    private final String source;
    private final long line;
    private final long column;
    private final String problem;

    public ReplayException(String source, long line, long column, String problem) {
        // the source is a file name from outside: escaped, so that a name cannot write to the terminal
        super(Outside.at(source, line, column) + problem);
        this.source = source;
        this.line = line;
        this.column = column;
        this.problem = problem;
    }

    public String source() {
        return source;
    }

    public long line() {
        return line;
    }

    public long column() {
        return column;
    }

    public String problem() {
        return problem;
    }
}
