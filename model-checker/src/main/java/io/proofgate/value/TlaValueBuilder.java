package io.proofgate.value;

import io.proofgate.tlc.ParseException;
import io.proofgate.tlc.TlaValueBaseVisitor;
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
import org.antlr.v4.runtime.Token;

/** Maps a {@code TlaValue.g4} parse tree onto {@link TlaValue} records, one method per labelled alternative. */
final class TlaValueBuilder extends TlaValueBaseVisitor<TlaValue> {
    private final String source;
    private final int lineOffset;

    TlaValueBuilder(String source, int lineOffset) {
        this.source = source;
        this.lineOffset = lineOffset;
    }

    TlaState state(TlaValueParser.StateFormulaContext formula) {
        List<TlaValueParser.AssignmentContext> assignments = switch (formula) {
            case TlaValueParser.SingleVariableContext single -> List.of(single.assignment());
            case TlaValueParser.ConjunctionContext conjunction ->
                    conjunction.conjunct().stream().map(TlaValueParser.ConjunctContext::assignment).toList();
            default -> throw new IllegalStateException("unknown state form " + formula.getClass());
        };
        SequencedMap<String, TlaValue> vars = new LinkedHashMap<>();
        for (TlaValueParser.AssignmentContext a : assignments) {
            String name = a.IDENT().getText();
            if (vars.putIfAbsent(name, visit(a.value())) != null) {
                throw error(a.IDENT().getSymbol(), "variable " + name + " is assigned twice in one state");
            }
        }
        return new TlaState(vars);
    }

    @Override
    public TlaValue visitIntValue(TlaValueParser.IntValueContext ctx) {
        return new TlaInt(parseLong(ctx.INT().getSymbol()));
    }

    /** TLC prints an interval it has not enumerated as {@code 1..3}; it is the set {1, 2, 3}. */
    @Override
    public TlaValue visitIntervalValue(TlaValueParser.IntervalValueContext ctx) {
        long low = parseLong(ctx.INT(0).getSymbol());
        long high = parseLong(ctx.INT(1).getSymbol());
        if (high - low > 1_000_000) {
            throw error(ctx.start, "interval " + ctx.getText() + " is too large to enumerate");
        }
        List<TlaValue> elements = new ArrayList<>();
        for (long i = low; i <= high; i++) {
            elements.add(new TlaInt(i));
        }
        return new TlaSet(elements);
    }

    @Override
    public TlaValue visitStringValue(TlaValueParser.StringValueContext ctx) {
        return new TlaString(unquote(ctx.STRING().getText()));
    }

    @Override
    public TlaValue visitBoolValue(TlaValueParser.BoolValueContext ctx) {
        return new TlaBool(ctx.TRUE() != null);
    }

    @Override
    public TlaValue visitModelValue(TlaValueParser.ModelValueContext ctx) {
        return new TlaModelValue(ctx.IDENT().getText());
    }

    @Override
    public TlaValue visitRecordValue(TlaValueParser.RecordValueContext ctx) {
        List<Field> fields = new ArrayList<>();
        for (TlaValueParser.FieldContext f : ctx.field()) {
            String name = f.IDENT().getText();
            if (fields.stream().anyMatch(existing -> existing.name().equals(name))) {
                throw error(f.IDENT().getSymbol(), "field " + name + " appears twice in one record");
            }
            fields.add(new Field(name, visit(f.value())));
        }
        return new TlaRecord(fields);
    }

    @Override
    public TlaValue visitSeqValue(TlaValueParser.SeqValueContext ctx) {
        return new TlaSeq(ctx.value().stream().map(this::visit).toList());
    }

    @Override
    public TlaValue visitSetValue(TlaValueParser.SetValueContext ctx) {
        return new TlaSet(ctx.value().stream().map(this::visit).toList());
    }

    @Override
    public TlaValue visitFnValue(TlaValueParser.FnValueContext ctx) {
        return new TlaFunction(ctx.mapping().stream()
                .map(m -> new Pair(visit(m.value(0)), visit(m.value(1))))
                .toList());
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
