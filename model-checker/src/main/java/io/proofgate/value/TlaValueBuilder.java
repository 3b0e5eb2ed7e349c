package io.proofgate.value;

import io.proofgate.parse.AsciiRanges;
import io.proofgate.parse.ParseEvents;
import io.proofgate.parse.ParseException;
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

import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;

/**
 * Builds TLA+ values and states from {@code TlaValue.g4}'s rule exits, one case per labelled alternative of {@code
 * value}: from a tree walk, or while the parser runs without a tree ({@link ParseEvents}), as {@link StateReader} reads
 * a state graph's millions of values.
 *
 * <p>A stack machine: a value is pushed when its rule ends, and a collection takes the values pushed since its own
 * {@code value} rule began. It needs no enter event of an alternative, which a parse without a tree does not deliver.
 * Errors (an integer out of range, a field or variable twice, an interval too large to enumerate) are {@link
 * ParseException}s at the token.
 */
final class TlaValueBuilder extends TlaValueBaseListener {
    static final TlaBool TRUE = new TlaBool(true);
    static final TlaBool FALSE = new TlaBool(false);

    private final String source;
    private final int lineOffset;
    private Object[] stack = new Object[64];
    private int size;

    /** Where each open value's elements start on the stack, innermost last. */
    private int[] marks = new int[16];

    private int depth;
    private SequencedMap<String, TlaValue> vars = new LinkedHashMap<>();

    /** The text tokens index into when it is ASCII bytes; null to ask tokens for their text. */
    private byte[] text;

    /** Identifiers recur in every state (variables, field names, model values): one string each. */
    private final String[] names = new String[512];

    /**
     * The values that recur from state to state (counters, block ids, status strings, model values) are immutable, so
     * the last one made in each slot is handed out again instead of a new one: a state graph holds millions of them,
     * and the collector copies every one it keeps.
     */
    private final TlaInt[] ints = new TlaInt[1024];

    private final TlaString[] strings = new TlaString[512];
    private final TlaModelValue[] modelValues = new TlaModelValue[64];

    /**
     * @param lineOffset added to the line of every error, for text cut out of a larger file
     */
    TlaValueBuilder(String source, int lineOffset) {
        this.source = source;
        this.lineOffset = lineOffset;
    }

    /**
     * Forgets what was built, to build the next state.
     *
     * @param text the ASCII text the tokens index into, or null to take each token's own text
     */
    void reset(byte[] text) {
        this.text = text;
        size = 0;
        depth = 0;
        vars = new LinkedHashMap<>();
    }

    /** The variables assigned so far, as a state. */
    TlaState state() {
        return new TlaState(vars);
    }

    /** The value of a {@code valueOnly} parse. */
    TlaValue value() {
        return (TlaValue) stack[0];
    }

    @Override
    public void enterEveryRule(ParserRuleContext ctx) {
        if (ctx.getRuleIndex() == TlaValueParser.RULE_value) {
            if (depth == marks.length) {
                marks = Arrays.copyOf(marks, 2 * depth);
            }
            marks[depth++] = size;
        }
    }

    @Override
    public void exitEveryRule(ParserRuleContext ctx) {
        if (ctx.getRuleIndex() == TlaValueParser.RULE_value) {
            depth--;
        }
    }

    @Override
    public void exitIntValue(TlaValueParser.IntValueContext ctx) {
        if (ctx.high == null) {
            push(integer(parseLong(ctx.low)));
            return;
        }
        // TLC prints an interval it has not enumerated as 1..3; it is the set {1, 2, 3}
        TlaSet set = enumerate(parseLong(ctx.low), parseLong(ctx.high));
        if (set == null) {
            throw error(
                    ctx.low,
                    "interval " + ctx.low.getText() + ".." + ctx.high.getText() + " is too large to enumerate");
        }
        push(set);
    }

    @Override
    public void exitStringValue(TlaValueParser.StringValueContext ctx) {
        Token t = ctx.start;
        if (text == null) {
            push(new TlaString(unquote(t.getText())));
            return;
        }
        String value = unquote(t.getStartIndex(), t.getStopIndex());
        int slot = value.hashCode() & (strings.length - 1);
        TlaString known = strings[slot];
        if (known == null || !known.value().equals(value)) {
            known = strings[slot] = new TlaString(value);
        }
        push(known);
    }

    @Override
    public void exitBoolValue(TlaValueParser.BoolValueContext ctx) {
        push(ctx.start.getType() == TlaValueLexer.TRUE ? TRUE : FALSE);
    }

    @Override
    public void exitModelValue(TlaValueParser.ModelValueContext ctx) {
        String name = name(ctx.start);
        int slot = name.hashCode() & (modelValues.length - 1);
        TlaModelValue known = modelValues[slot];
        if (known == null || !known.name().equals(name)) {
            known = modelValues[slot] = new TlaModelValue(name);
        }
        push(known);
    }

    @Override
    public void exitRecordValue(TlaValueParser.RecordValueContext ctx) {
        int from = marks[depth - 1];
        Field[] fields = new Field[size - from];
        System.arraycopy(stack, from, fields, 0, fields.length);
        size = from;
        push(new TlaRecord(List.of(fields)));
    }

    @Override
    public void exitSeqValue(TlaValueParser.SeqValueContext ctx) {
        push(new TlaSeq(elements()));
    }

    @Override
    public void exitSetValue(TlaValueParser.SetValueContext ctx) {
        push(new TlaSet(elements()));
    }

    @Override
    public void exitFnValue(TlaValueParser.FnValueContext ctx) {
        int from = marks[depth - 1];
        Pair[] pairs = new Pair[size - from];
        System.arraycopy(stack, from, pairs, 0, pairs.length);
        size = from;
        push(new TlaFunction(List.of(pairs)));
    }

    /** The field's value is on top of the stack, the record's earlier fields below it. */
    @Override
    public void exitField(TlaValueParser.FieldContext ctx) {
        String name = name(ctx.name);
        for (int i = marks[depth - 1]; i < size - 1; i++) {
            if (((Field) stack[i]).name().equals(name)) {
                throw error(ctx.name, "field " + name + " appears twice in one record");
            }
        }
        stack[size - 1] = new Field(name, (TlaValue) stack[size - 1]);
    }

    @Override
    public void exitMapping(TlaValueParser.MappingContext ctx) {
        TlaValue value = (TlaValue) stack[--size];
        stack[size - 1] = new Pair((TlaValue) stack[size - 1], value);
    }

    @Override
    public void exitAssignment(TlaValueParser.AssignmentContext ctx) {
        String name = name(ctx.name);
        if (vars.putIfAbsent(name, (TlaValue) stack[--size]) != null) {
            throw error(ctx.name, "variable " + name + " is assigned twice in one state");
        }
    }

    /** The elements of {@code <<v, ...>>} or {@code {v, ...}}. */
    private List<TlaValue> elements() {
        int from = marks[depth - 1];
        if (from == size) {
            return List.of();
        }
        TlaValue[] elements = new TlaValue[size - from];
        System.arraycopy(stack, from, elements, 0, elements.length);
        size = from;
        return List.of(elements);
    }

    private TlaInt integer(long n) {
        int slot = Long.hashCode(n * 0x9E3779B97F4A7C15L) & (ints.length - 1);
        TlaInt known = ints[slot];
        if (known == null || known.value() != n) {
            known = ints[slot] = new TlaInt(n);
        }
        return known;
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

    private void push(Object value) {
        if (size == stack.length) {
            stack = Arrays.copyOf(stack, 2 * size);
        }
        stack[size++] = value;
    }

    private long parseLong(Token t) {
        if (text != null) {
            long n = AsciiRanges.parseLong(text, t.getStartIndex(), t.getStopIndex() + 1);
            if (n != AsciiRanges.NOT_A_LONG) {
                return n;
            }
        }
        // out of range, or Long.MIN_VALUE itself
        try {
            return Long.parseLong(t.getText());
        } catch (NumberFormatException e) {
            throw error(t, "integer " + t.getText() + " is out of range");
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
            out.append(
                    switch (escaped) {
                        case 'n' -> '\n';
                        case 't' -> '\t';
                        case 'r' -> '\r';
                        case 'f' -> '\f';
                        default -> escaped; // \" and \\
                    });
        }
        return out.toString();
    }

    /** {@link #unquote(String)} of {@code text[start..stop]}, quotes included. */
    private String unquote(int start, int stop) {
        for (int i = start + 1; i < stop; i++) {
            if (text[i] == '\\') {
                return unquote(new String(text, start, stop - start + 1, StandardCharsets.US_ASCII));
            }
        }
        return new String(text, start + 1, stop - start - 1, StandardCharsets.US_ASCII);
    }

    /** The identifier's text, the same string each time it recurs. */
    private String name(Token t) {
        if (text == null) {
            return t.getText();
        }
        int start = t.getStartIndex();
        int length = t.getStopIndex() + 1 - start;
        int hash = 0;
        for (int i = 0; i < length; i++) {
            hash = 31 * hash + text[start + i];
        }
        int slot = (hash ^ (hash >>> 16)) & (names.length - 1);
        String known = names[slot];
        if (known != null && known.length() == length && AsciiRanges.regionEquals(text, start, known)) {
            return known;
        }
        String name = new String(text, start, length, StandardCharsets.US_ASCII);
        names[slot] = name;
        return name;
    }

    private ParseException error(Token at, String detail) {
        return new ParseException(source, at.getLine() + lineOffset, at.getCharPositionInLine(), detail);
    }
}
