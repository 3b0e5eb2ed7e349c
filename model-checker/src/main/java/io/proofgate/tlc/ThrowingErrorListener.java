package io.proofgate.tlc;

import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;

/**
 * Turns the first syntax error into a {@link ParseException}; ANTLR's default listener would
 * print to stderr and let parsing go on with a repaired tree.
 */
public final class ThrowingErrorListener extends BaseErrorListener {
    private final String source;
    private final int lineOffset;

    /**
     * @param lineOffset added to every reported line, for text cut out of a larger file
     *     (a trace state's body starts on line {@code lineOffset + 1} of {@code source})
     */
    public ThrowingErrorListener(String source, int lineOffset) {
        this.source = source;
        this.lineOffset = lineOffset;
    }

    @Override
    public void syntaxError(Recognizer<?, ?> recognizer, Object offendingSymbol, int line,
            int charPositionInLine, String msg, RecognitionException e) {
        throw new ParseException(source, line + lineOffset, charPositionInLine, msg);
    }

    /** Replaces the console listener of a lexer and its parser with this one. */
    public void installOn(Lexer lexer, Parser parser) {
        lexer.removeErrorListeners();
        lexer.addErrorListener(this);
        parser.removeErrorListeners();
        parser.addErrorListener(this);
    }
}
