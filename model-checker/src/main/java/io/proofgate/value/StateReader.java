package io.proofgate.value;

import io.proofgate.tlc.CharArrayStream;
import io.proofgate.tlc.TlaValueLexer;
import io.proofgate.tlc.TlaValueParser;
import io.proofgate.tlc.TokenPool;
import io.proofgate.tlc.WindowTokenStream;
import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.atn.PredictionMode;

/**
 * Reads many states, one after another, with one lexer and one parser: a state graph has a
 * state per node, and building a lexer, parser and error listener for each costs as much as
 * parsing a small state. Same results and errors as {@link TlaValueReader#state(String, String)}.
 *
 * <p>Two passes, as ANTLR recommends: the first predicts with SLL, stops at the first error
 * without trying to recover, builds no tree and makes the values in the parser's actions
 * ({@link ValueStack}). Only if it fails is the state read again by {@link TlaValueReader}
 * (a tree, {@link TlaValueBuilder}, full LL where SLL fails), to report the error exactly.
 */
public final class StateReader {
    private final String source;
    private final TlaValueLexer lexer = new TlaValueLexer(null);
    private final WindowTokenStream tokens = new WindowTokenStream(lexer);
    private final TlaValueParser parser = new TlaValueParser(tokens);
    private final CharArrayStream chars;
    private final ValueStack values = new ValueStack();
    private final TokenPool pool = new TokenPool();

    /** @param source the file name errors carry; lines and columns count within each state's text */
    public StateReader(String source) {
        this.source = source;
        this.chars = new CharArrayStream(source);
        // the fast pass only: no tree, no recovery, values from the parser's actions
        lexer.removeErrorListeners();
        lexer.addErrorListener(TlaValueReader.errors(source, 0));
        lexer.setTokenFactory(pool);
        parser.removeErrorListeners();
        parser.setErrorHandler(new BailErrorStrategy());
        parser.setBuildParseTree(false);
        parser.setValues(values);
        parser.getInterpreter().setPredictionMode(PredictionMode.SLL);
    }

    /**
     * The state in {@code text[0..length)}, e.g. {@code /\ x = 1 /\ y = "a"}, which must hold no
     * surrogate pair ({@link CharArrayStream#isBmpOnly}); else use {@link #state(String)}.
     */
    public TlaState state(char[] text, int length) {
        try {
            values.reset(text);
            fastPass(chars.reset(text, length));
            return values.state();
        } catch (RuntimeException rejected) {
            return TlaValueReader.state(source, new String(text, 0, length));
        }
    }

    /** The state in {@code text}. */
    public TlaState state(String text) {
        try {
            values.reset(null);
            fastPass(CharStreams.fromString(text, source));
            return values.state();
        } catch (RuntimeException rejected) {
            return TlaValueReader.state(source, text);
        }
    }

    /** Failing here only means "read it again the exact way", which words the error. */
    private void fastPass(CharStream text) {
        pool.reset();
        lexer.setInputStream(text);
        tokens.reset();
        parser.setTokenStream(tokens);
        parser.state();
    }
}
