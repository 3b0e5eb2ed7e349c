package io.proofgate.value;

import io.proofgate.tlc.CharArrayStream;
import io.proofgate.tlc.ThrowingErrorListener;
import io.proofgate.tlc.TlaValueLexer;
import io.proofgate.tlc.TlaValueParser;
import io.proofgate.tlc.TokenPool;
import io.proofgate.tlc.WindowTokenStream;
import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenFactory;
import org.antlr.v4.runtime.DefaultErrorStrategy;
import org.antlr.v4.runtime.atn.PredictionMode;

/**
 * Reads many states, one after another, with one lexer and one parser: a state graph has a
 * state per node, and building a lexer, parser and error listener for each costs as much as
 * parsing a small state. Same results and errors as {@link TlaValueReader#state(String, String)}.
 *
 * <p>Two passes, as ANTLR recommends: the first predicts with SLL, stops at the first error
 * without trying to recover, builds no tree and makes the values in the parser's actions
 * ({@link ValueStack}). Only if it fails does the second run as {@code TlaValueReader} does (full
 * LL, a tree, {@link TlaValueBuilder}), to report the error exactly.
 */
public final class StateReader {
    private final String source;
    private final TlaValueLexer lexer = new TlaValueLexer(null);
    private final WindowTokenStream tokens = new WindowTokenStream(lexer);
    private final TlaValueParser parser = new TlaValueParser(tokens);
    private final ThrowingErrorListener errors;
    private final CharArrayStream chars;
    private final ValueStack values = new ValueStack();
    private final TokenPool pool = new TokenPool();
    private final BailErrorStrategy bail = new BailErrorStrategy();
    private final DefaultErrorStrategy recover = new DefaultErrorStrategy();

    /** @param source the file name errors carry; lines and columns count within each state's text */
    public StateReader(String source) {
        this.source = source;
        this.errors = TlaValueReader.errors(source, 0);
        this.chars = new CharArrayStream(source);
        lexer.removeErrorListeners();
        lexer.addErrorListener(errors);
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
            return exactPass(chars.reset(text, length));
        }
    }

    /** The state in {@code text}. */
    public TlaState state(String text) {
        CharStream stream = CharStreams.fromString(text, source);
        try {
            values.reset(null);
            fastPass(stream);
            return values.state();
        } catch (RuntimeException rejected) {
            stream.seek(0);
            return exactPass(stream);
        }
    }

    private void fastPass(CharStream text) {
        pool.reset();
        lexer.setTokenFactory(pool);
        parser.setErrorHandler(bail);
        start(text);
        parser.removeErrorListeners();
        parser.setBuildParseTree(false);
        parser.setValues(values);
        parser.getInterpreter().setPredictionMode(PredictionMode.SLL);
        parser.state();
    }

    private TlaState exactPass(CharStream text) {
        lexer.setTokenFactory(CommonTokenFactory.DEFAULT);
        parser.setErrorHandler(recover);
        start(text);
        parser.removeErrorListeners();
        parser.addErrorListener(errors);
        parser.setBuildParseTree(true);
        parser.setValues(TlaValueParser.Values.NONE);
        parser.getInterpreter().setPredictionMode(PredictionMode.LL);
        return new TlaValueBuilder(source, 0).state(parser.state().stateFormula());
    }

    private void start(CharStream text) {
        lexer.setInputStream(text);
        tokens.reset();
        parser.setTokenStream(tokens);
    }
}
