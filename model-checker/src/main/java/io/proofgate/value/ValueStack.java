package io.proofgate.value;

import io.proofgate.tlc.AsciiRanges;
import io.proofgate.tlc.TlaValueLexer;
import io.proofgate.tlc.TlaValueParser;
import io.proofgate.value.TlaValue.Field;
import io.proofgate.value.TlaValue.Pair;
import io.proofgate.value.TlaValue.TlaFunction;
import io.proofgate.value.TlaValue.TlaInt;
import io.proofgate.value.TlaValue.TlaModelValue;
import io.proofgate.value.TlaValue.TlaRecord;
import io.proofgate.value.TlaValue.TlaSeq;
import io.proofgate.value.TlaValue.TlaSet;
import io.proofgate.value.TlaValue.TlaString;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import org.antlr.v4.runtime.Token;

/**
 * Builds a state from the parser's actions as it parses ({@link TlaValueParser.Values}), without
 * a parse tree. It gives up on the first value {@link TlaValueBuilder} would reject (an integer
 * out of range, a field or variable twice, a huge interval) by throwing {@link #CANCEL}: the
 * tree walk then reads the state again and words the error, in its order.
 */
final class ValueStack implements TlaValueParser.Values {
    /** Thrown to abandon the state; carries nothing, so it is made once. */
    static final RuntimeException CANCEL = new RuntimeException("rejected; read again for the error", null, false, false) {
    };

    private Object[] stack = new Object[64];
    private int size;
    /** Where each open collection's elements start on the stack. */
    private int[] marks = new int[16];
    private int depth;
    private SequencedMap<String, TlaValue> vars;
    /** The state's text when tokens index into it; null to ask tokens for their text. */
    private byte[] text;
    /** Identifiers recur in every state (variables, field names, model values): one string each. */
    private final String[] names = new String[512];
    /**
     * The values that recur from state to state (counters, block ids, status strings, model
     * values) are immutable, so the last one made in each slot is handed out again instead of a
     * new one: a state graph holds millions of them, and the collector copies every one it keeps.
     */
    private final TlaInt[] ints = new TlaInt[1024];
    private final TlaString[] strings = new TlaString[512];
    private final TlaModelValue[] modelValues = new TlaModelValue[64];

    void reset(byte[] text) {
        this.text = text;
        size = 0;
        depth = 0;
        vars = new LinkedHashMap<>();
    }

    TlaState state() {
        return new TlaState(vars);
    }

    @Override
    public void integer(Token t) {
        long n = parseLong(t);
        int slot = Long.hashCode(n * 0x9E3779B97F4A7C15L) & (ints.length - 1);
        TlaInt known = ints[slot];
        if (known == null || known.value() != n) {
            known = ints[slot] = new TlaInt(n);
        }
        push(known);
    }

    @Override
    public void interval(Token low, Token high) {
        TlaSet set = TlaValueBuilder.enumerate(parseLong(low), parseLong(high));
        if (set == null) {
            throw CANCEL;
        }
        push(set);
    }

    @Override
    public void string(Token t) {
        if (text == null) {
            push(new TlaString(TlaValueBuilder.unquote(t.getText())));
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
    public void bool(Token t) {
        push(t.getType() == TlaValueLexer.TRUE ? TlaValueBuilder.TRUE : TlaValueBuilder.FALSE);
    }

    @Override
    public void modelValue(Token t) {
        String name = name(t);
        int slot = name.hashCode() & (modelValues.length - 1);
        TlaModelValue known = modelValues[slot];
        // name() hands out one string per identifier, so the same name is the same object
        if (known == null || known.name() != name) {
            known = modelValues[slot] = new TlaModelValue(name);
        }
        push(known);
    }

    @Override
    public void open() {
        if (depth == marks.length) {
            marks = Arrays.copyOf(marks, 2 * depth);
        }
        marks[depth++] = size;
    }

    @Override
    public void record() {
        int from = marks[--depth];
        Field[] fields = new Field[size - from];
        System.arraycopy(stack, from, fields, 0, fields.length);
        size = from;
        push(new TlaRecord(List.of(fields)));
    }

    @Override
    public void sequence() {
        push(new TlaSeq(elements()));
    }

    @Override
    public void set() {
        push(new TlaSet(elements()));
    }

    private List<TlaValue> elements() {
        int from = marks[--depth];
        if (from == size) {
            return List.of();
        }
        TlaValue[] elements = new TlaValue[size - from];
        System.arraycopy(stack, from, elements, 0, elements.length);
        size = from;
        return List.of(elements);
    }

    @Override
    public void function() {
        int from = marks[--depth];
        Pair[] pairs = new Pair[size - from];
        System.arraycopy(stack, from, pairs, 0, pairs.length);
        size = from;
        push(new TlaFunction(List.of(pairs)));
    }

    @Override
    public void field(Token nameToken) {
        String name = name(nameToken);
        for (int i = marks[depth - 1]; i < size - 1; i++) {
            if (((Field) stack[i]).name().equals(name)) {
                throw CANCEL;
            }
        }
        stack[size - 1] = new Field(name, (TlaValue) stack[size - 1]);
    }

    @Override
    public void pair() {
        TlaValue value = (TlaValue) stack[--size];
        stack[size - 1] = new Pair((TlaValue) stack[size - 1], value);
    }

    @Override
    public void assignment(Token variable) {
        if (vars.putIfAbsent(name(variable), (TlaValue) stack[--size]) != null) {
            throw CANCEL;
        }
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
            throw CANCEL;
        }
    }

    /** {@link TlaValueBuilder#unquote} of {@code text[start..stop]}, quotes included. */
    private String unquote(int start, int stop) {
        for (int i = start + 1; i < stop; i++) {
            if (text[i] == '\\') {
                return TlaValueBuilder.unquote(new String(text, start, stop - start + 1, StandardCharsets.US_ASCII));
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
}
