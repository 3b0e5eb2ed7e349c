package io.proofgate.tlc;

/** A span of a TLA+ module as TLC prints it: "line 18, col 8 to line 23, col 23". */
public record SourceRange(int beginLine, int beginColumn, int endLine, int endColumn) {
    @Override
    public String toString() {
        return "line " + beginLine + ", col " + beginColumn + " to line " + endLine + ", col " + endColumn;
    }
}
