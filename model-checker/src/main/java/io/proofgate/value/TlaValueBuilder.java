package io.proofgate.value;

import io.proofgate.tlc.ParseException;
import io.proofgate.tlc.TlaValueLexer;
import io.proofgate.tlc.TlaValueParser;
import io.proofgate.value.TlaValue.Field;
import io.proofgate.value.TlaValue.Pair;
import io.proofgate.value.TlaValue.TlaBool;
import io.proofgate.value.TlaValue.TlaFunction;
import io.proofgate.value.TlaValue.TlaInt;
import io.proofgate.value.TlaValue.TlaModelValue;
import io.proofgate.value.TlaValue.TlaRecord;
import io.proofgate.value.TlaValue.TlaSeq;
import io.proofgate.value.TlaValue.TlaSet;
import io.proofgate.value.TlaValue.TlaString;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.tree.ParseTree;

/**
 * Maps a {@code TlaValue.g4} parse tree onto {@link TlaValue} records, one case per labelled
 * alternative of {@code value}.
 *
 * <p>It walks each context's children once instead of using the generated accessors, which
 * filter the children into a new list on every call: a state graph has millions of values.
 */
final class TlaValueBuilder {
    static final TlaBool TRUE = new TlaBool(true);
    static final TlaBool FALSE = new TlaBool(false);

    private final String source;
    private final int lineOffset;

    TlaValueBuilder(String source, int lineOffset) {
        this.source = source;
        this.lineOffset = lineOffset;
    }

    TlaState state(TlaValueParser.StateFormulaContext formula) {
        SequencedMap<String, TlaValue> vars = new LinkedHashMap<>();
        switch (formula) {
            case TlaValueParser.SingleVariableContext single -> assign(vars, single.assignment());
            case TlaValueParser.ConjunctionContext conjunction -> {
                for (ParseTree child : conjunction.children) {
                    // conjunct: CONJ assignment
                    assign(vars, (TlaValueParser.AssignmentContext) ((ParserRuleContext) child).getChild(1));
                }
            }
            default -> throw new IllegalStateException("unknown state form " + formula.getClass());
        }
        return new TlaState(vars);
    }

    /** assignment: IDENT EQ value */
    private void assign(SequencedMap<String, TlaValue> vars, TlaValueParser.AssignmentContext a) {
        Token name = a.start;
        String text = name.getText();
        if (vars.putIfAbsent(text, value((TlaValueParser.ValueContext) a.getChild(2))) != null) {
            throw error(name, "variable " + text + " is assigned twice in one state");
        }
    }

    TlaValue value(TlaValueParser.ValueContext ctx) {
        return switch (ctx) {
            case TlaValueParser.IntValueContext c -> c.high == null ? new TlaInt(parseLong(c.low)) : interval(c);
            case TlaValueParser.StringValueContext c -> new TlaString(unquote(c.start.getText()));
            case TlaValueParser.BoolValueContext c -> c.start.getType() == TlaValueLexer.TRUE ? TRUE : FALSE;
            case TlaValueParser.ModelValueContext c -> new TlaModelValue(c.start.getText());
            case TlaValueParser.RecordValueContext c -> record(c);
            case TlaValueParser.SeqValueContext c -> new TlaSeq(values(c));
            case TlaValueParser.SetValueContext c -> new TlaSet(values(c));
            case TlaValueParser.FnValueContext c -> function(c);
            default -> throw new IllegalStateException("unknown value form " + ctx.getClass());
        };
    }

    /** TLC prints an interval it has not enumerated as {@code 1..3}; it is the set {1, 2, 3}. */
    private TlaValue interval(TlaValueParser.IntValueContext ctx) {
        TlaSet set = enumerate(parseLong(ctx.low), parseLong(ctx.high));
        if (set == null) {
            throw error(ctx.start, "interval " + ctx.getText() + " is too large to enumerate");
        }
        return set;
    }

    /** The set {@code low..high}, or null when it has more than a million and one elements. */
    static TlaSet enumerate(long low, long high) {
        long span = high - low;
        // the sign test catches a span that overflowed, e.g. -9000000000000000000..9000000000000000000
        if (span > 1_000_000 || (high >= low) != (span >= 0)) {
            return null;
        }
        TlaValue[] elements = new TlaValue[(int) Math.max(0, span + 1)];
        // counted, not "i <= high", which never ends for high = Long.MAX_VALUE
        for (int i = 0; i < elements.length; i++) {
            elements[i] = new TlaInt(low + i);
        }
        return new TlaSet(List.of(elements));
    }

    /** The value children of {@code <<v, ...>>} or {@code {v, ...}}, between the brackets. */
    private List<TlaValue> values(TlaValueParser.ValueContext ctx) {
        List<ParseTree> children = ctx.children;
        int n = children.size();
        if (n == 2) {
            return List.of();
        }
        TlaValue[] elements = new TlaValue[n / 2];
        for (int i = 1, e = 0; i < n; i += 2, e++) {
            elements[e] = value((TlaValueParser.ValueContext) children.get(i));
        }
        return List.of(elements);
    }

    /** [f1 |-> v1, f2 |-> v2]: field children at odd positions. */
    private TlaValue record(TlaValueParser.RecordValueContext ctx) {
        List<ParseTree> children = ctx.children;
        List<Field> fields = new ArrayList<>(children.size() / 2);
        for (int i = 1; i < children.size(); i += 2) {
            ParserRuleContext f = (ParserRuleContext) children.get(i);
            Token nameToken = f.start;
            String name = nameToken.getText();
            for (Field existing : fields) {
                if (existing.name().equals(name)) {
                    throw error(nameToken, "field " + name + " appears twice in one record");
                }
            }
            fields.add(new Field(name, value((TlaValueParser.ValueContext) f.getChild(2))));
        }
        return new TlaRecord(fields);
    }

    /** (k1 :> v1 @@ k2 :> v2): mapping children at odd positions. */
    private TlaValue function(TlaValueParser.FnValueContext ctx) {
        List<ParseTree> children = ctx.children;
        List<Pair> pairs = new ArrayList<>(children.size() / 2);
        for (int i = 1; i < children.size(); i += 2) {
            ParserRuleContext m = (ParserRuleContext) children.get(i);
            pairs.add(new Pair(value((TlaValueParser.ValueContext) m.getChild(0)),
                    value((TlaValueParser.ValueContext) m.getChild(2))));
        }
        return new TlaFunction(pairs);
    }

    private long parseLong(Token token) {
        try {
            return Long.parseLong(token.getText());
        } catch (NumberFormatException e) {
            throw error(token, "integer " + token.getText() + " is out of range");
        }
    }

    /** Undoes the escapes TLC writes in string literals: \" \\ \n \t \r \f (the lexer admits no others). */
    static String unquote(String literal) {
        if (literal.indexOf('\\') < 0) {
            return literal.substring(1, literal.length() - 1);
        }
        StringBuilder out = new StringBuilder(literal.length());
        for (int i = 1; i < literal.length() - 1; i++) {
            char c = literal.charAt(i);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char escaped = literal.charAt(++i);
            out.append(switch (escaped) {
                case 'n' -> '\n';
                case 't' -> '\t';
                case 'r' -> '\r';
                case 'f' -> '\f';
                default -> escaped; // \" and \\
            });
        }
        return out.toString();
    }

    private ParseException error(Token at, String detail) {
        return new ParseException(source, at.getLine() + lineOffset, at.getCharPositionInLine(), detail);
    }
}
