package io.proofgate.value;

import io.proofgate.tlc.ParseException;
import io.proofgate.tlc.ThrowingErrorListener;
import io.proofgate.tlc.TlaValueLexer;
import io.proofgate.tlc.TlaValueParser;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.atn.PredictionMode;

/**
 * Reads many states, one after another, with one lexer and one parser: a state graph has a
 * state per node, and building a lexer, parser and error listener for each costs as much as
 * parsing a small state. Same results and errors as {@link TlaValueReader#state(String, String)}.
 */
public final class StateReader {
    private final TlaValueLexer lexer = new TlaValueLexer(null);
    private final CommonTokenStream tokens = new CommonTokenStream(lexer);
    private final TlaValueParser parser = new TlaValueParser(tokens);
    private final TlaValueBuilder builder;

    /** @param source the file name errors carry; lines and columns count within each state's text */
    public StateReader(String source) {
        new ThrowingErrorListener(source, 0)
                .naming(TlaValueParser.RULE_value, "a TLA+ value")
                .installOn(lexer, parser);
        builder = new TlaValueBuilder(source, 0);
    }

    /** One state, e.g. {@code /\ x = 1 /\ y = "a"}; see {@link TlaValueReader#twoStage} for the two passes. */
    public TlaState state(CharStream text) {
        try {
            return parse(text, PredictionMode.SLL);
        } catch (ParseException e) {
            return parse(text, PredictionMode.LL);
        }
    }

    private TlaState parse(CharStream text, PredictionMode mode) {
        text.seek(0);
        lexer.setInputStream(text);
        tokens.setTokenSource(lexer);
        parser.setTokenStream(tokens);
        parser.getInterpreter().setPredictionMode(mode);
        return builder.state(parser.state().stateFormula());
    }
}
