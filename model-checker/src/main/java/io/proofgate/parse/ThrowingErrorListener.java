package io.proofgate.parse;

import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.misc.IntervalSet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;

/**
 * Turns the first syntax error into a {@link ParseException}; ANTLR's default listener would print to stderr and let
 * parsing go on with a repaired tree.
 *
 * <p>Parser errors read "expected X after "=", found "Y"". Where the expected tokens include all tokens that can start
 * a rule named with {@link #naming}, the rule's name replaces them, so a missing value reads "expected a TLA+ value"
 * rather than a list of nine tokens.
 */
public final class ThrowingErrorListener extends BaseErrorListener {
    private final String source;
    private final int lineOffset;
    private final SequencedMap<Integer, String> ruleNames = new LinkedHashMap<>();
    private final Map<Integer, String> tokenNames = new HashMap<>();

    /**
     * @param lineOffset added to every reported line, for text cut out of a larger file (a trace state's body starts on
     *     line {@code lineOffset + 1} of {@code source})
     */
    public ThrowingErrorListener(String source, int lineOffset) {
        this.source = source;
        this.lineOffset = lineOffset;
    }

    /** Describes the tokens that start rule {@code ruleIndex} as {@code name} in messages. */
    public ThrowingErrorListener naming(int ruleIndex, String name) {
        ruleNames.put(ruleIndex, name);
        return this;
    }

    /** Describes token type {@code type} as {@code name} in messages instead of its grammar name (INT). */
    public ThrowingErrorListener namingToken(int type, String name) {
        tokenNames.put(type, name);
        return this;
    }

    @Override
    public void syntaxError(
            Recognizer<?, ?> recognizer,
            Object offendingSymbol,
            int line,
            int charPositionInLine,
            String msg,
            RecognitionException e) {
        String detail =
                recognizer instanceof Parser parser && offendingSymbol instanceof Token found
                        ? parserDetail(parser, found)
                        : msg;
        throw new ParseException(source, line + lineOffset, charPositionInLine, detail);
    }

    private String parserDetail(Parser parser, Token found) {
        String expected = describe(parser, parser.getExpectedTokens());
        Token previous = found.getTokenIndex() > 0 ? parser.getTokenStream().get(found.getTokenIndex() - 1) : null;
        String after = previous != null && !previous.getText().isBlank() ? " after " + quote(previous.getText()) : "";
        String foundText = found.getType() == Token.EOF ? "end of input" : quote(found.getText());
        return "expected " + expected + after + ", found " + foundText;
    }

    private String describe(Parser parser, IntervalSet expected) {
        IntervalSet rest = new IntervalSet(expected);
        rest.remove(Token.EPSILON);
        List<String> parts = new ArrayList<>();
        for (Map.Entry<Integer, String> named : ruleNames.entrySet()) {
            IntervalSet first = parser.getATN().nextTokens(parser.getATN().ruleToStartState[named.getKey()]);
            first = new IntervalSet(first);
            first.remove(Token.EPSILON);
            if (!first.isNil() && first.and(rest).size() == first.size()) {
                parts.add(named.getValue());
                rest = rest.subtract(first);
            }
        }
        for (int type : rest.toList()) {
            parts.add(
                    type == Token.EOF
                            ? "end of input"
                            : tokenNames.getOrDefault(type, parser.getVocabulary().getDisplayName(type)));
        }
        return parts.size() == 1
                ? parts.getFirst()
                : String.join(", ", parts.subList(0, parts.size() - 1)) + " or " + parts.getLast();
    }

    private static String quote(String text) {
        String firstLine = text.lines().findFirst().orElse("");
        String shown = firstLine.length() > 40 ? firstLine.substring(0, 40) + "..." : firstLine;
        return "\"" + shown.replace("\"", "\\\"") + "\"";
    }

    /** Replaces the console listener of a lexer and its parser with this one. */
    public void installOn(Lexer lexer, Parser parser) {
        lexer.removeErrorListeners();
        lexer.addErrorListener(this);
        parser.removeErrorListeners();
        parser.addErrorListener(this);
    }
}
