package io.proofgate.value;

import io.proofgate.parse.ParseException;
import io.proofgate.parse.ThrowingErrorListener;

import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.atn.PredictionMode;
import org.antlr.v4.runtime.tree.ParseTree;
import org.antlr.v4.runtime.tree.ParseTreeWalker;

import java.util.function.Function;

/** Reads TLA+ values and states in TLC's print syntax; errors are {@link ParseException}s. */
public final class TlaValueReader {
    private TlaValueReader() {}

    /** One value, e.g. {@code (a :> 0 @@ b :> 1)}. */
    public static TlaValue value(String source, String text) {
        return twoStage(source, text, 0, parser -> walk(source, 0, parser.valueOnly()).value());
    }

    /** One state: {@code /\ x = 1 /\ y = "a"} or {@code x = 1}. */
    public static TlaState state(String source, String text) {
        return state(source, text, 1);
    }

    /**
     * One state cut out of a larger file.
     *
     * @param firstLine the line of {@code source} on which {@code text} starts, so that errors point into the file; the
     *     text must start at column 0 of that line
     */
    public static TlaState state(String source, String text, int firstLine) {
        return twoStage(source, text, firstLine - 1, parser -> walk(source, firstLine - 1, parser.state()).state());
    }

    /**
     * Parses with ANTLR's fast SLL prediction first and falls back to full LL only when SLL reports an error, so valid
     * input (every state of a dump) costs one cheap pass and invalid input still gets the exact error of a full parse.
     */
    static <T> T twoStage(String source, String text, int lineOffset, Function<TlaValueParser, T> rule) {
        TlaValueParser fast = parser(source, text, lineOffset);
        fast.getInterpreter().setPredictionMode(PredictionMode.SLL);
        try {
            return rule.apply(fast);
        } catch (ParseException e) {
            return rule.apply(parser(source, text, lineOffset));
        }
    }

    static TlaValueParser parser(String source, String text, int lineOffset) {
        TlaValueLexer lexer = new TlaValueLexer(CharStreams.fromString(text, source));
        TlaValueParser parser = new TlaValueParser(new CommonTokenStream(lexer));
        errors(source, lineOffset).installOn(lexer, parser);
        return parser;
    }

    /** Errors in the words of TLA+ values: "a TLA+ value", "an integer", not grammar names. */
    static ThrowingErrorListener errors(String source, int lineOffset) {
        return new ThrowingErrorListener(source, lineOffset)
                .naming(TlaValueParser.RULE_value, "a TLA+ value")
                .namingToken(TlaValueParser.INT, "an integer")
                .namingToken(TlaValueParser.IDENT, "a name")
                .namingToken(TlaValueParser.STRING, "a string");
    }

    /** The state of a formula in a tree of the caller's own (a trace module's {@code STATE_k ==}). */
    public static TlaState state(String source, TlaValueParser.StateFormulaContext formula) {
        return walk(source, 0, formula).state();
    }

    /** The values of a parse tree, built by walking it. */
    private static TlaValueBuilder walk(String source, int lineOffset, ParseTree tree) {
        TlaValueBuilder builder = new TlaValueBuilder(source, lineOffset);
        ParseTreeWalker.DEFAULT.walk(builder, tree);
        return builder;
    }
}
