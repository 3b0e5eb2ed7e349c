package io.proofgate.value;

import io.proofgate.tlc.ParseException;
import io.proofgate.tlc.ThrowingErrorListener;
import io.proofgate.tlc.TlaValueLexer;
import io.proofgate.tlc.TlaValueParser;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;

/** Reads TLA+ values and states in TLC's print syntax; errors are {@link ParseException}s. */
public final class TlaValueReader {
    private TlaValueReader() {
    }

    /** One value, e.g. {@code (a :> 0 @@ b :> 1)}. */
    public static TlaValue value(String source, String text) {
        TlaValueParser parser = parser(source, text, 0);
        return new TlaValueBuilder(source, 0).visit(parser.valueOnly().value());
    }

    /** One state: {@code /\ x = 1 /\ y = "a"} or {@code x = 1}. */
    public static TlaState state(String source, String text) {
        return state(source, text, 1);
    }

    /**
     * One state cut out of a larger file.
     *
     * @param firstLine the line of {@code source} on which {@code text} starts, so that errors
     *     point into the file; the text must start at column 0 of that line
     */
    public static TlaState state(String source, String text, int firstLine) {
        TlaValueParser parser = parser(source, text, firstLine - 1);
        return new TlaValueBuilder(source, firstLine - 1).state(parser.state().stateFormula());
    }

    static TlaValueParser parser(String source, String text, int lineOffset) {
        TlaValueLexer lexer = new TlaValueLexer(CharStreams.fromString(text, source));
        TlaValueParser parser = new TlaValueParser(new CommonTokenStream(lexer));
        new ThrowingErrorListener(source, lineOffset)
                .naming(TlaValueParser.RULE_value, "a TLA+ value")
                .installOn(lexer, parser);
        return parser;
    }

    /** A builder for callers in other packages that walk a tree of their own (trace modules). */
    public static TlaState state(String source, TlaValueParser.StateFormulaContext formula) {
        return new TlaValueBuilder(source, 0).state(formula);
    }

    /** The lexer and parser with errors turned into {@link ParseException}s. */
    public static TlaValueParser newParser(String source, String text) {
        return parser(source, text, 0);
    }
}
