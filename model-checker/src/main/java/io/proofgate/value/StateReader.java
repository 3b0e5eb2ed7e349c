package io.proofgate.value;

import io.proofgate.parse.AsciiRanges;
import io.proofgate.parse.AsciiStream;
import io.proofgate.parse.ParseEvents;
import io.proofgate.parse.TokenPool;
import io.proofgate.parse.WindowTokenStream;

import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.atn.PredictionMode;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SequencedMap;

/**
 * Reads many states, one after another, with one lexer and one parser: a state graph has a state per node, and building
 * a lexer, parser and error listener for each costs as much as parsing a small state. Same results and errors as {@link
 * TlaValueReader#state(String, String)}.
 *
 * <p>Two passes, as ANTLR recommends: the first predicts with SLL, stops at the first error without trying to recover,
 * builds no tree and makes the values as the parser goes ({@link TlaValueBuilder} on {@link ParseEvents}). Only if it
 * fails is the state read again by {@link TlaValueReader} (a tree walked by the same builder, full LL where SLL fails),
 * to report the error exactly.
 *
 * <p>A state of {@code /\ var = value} lines is read a line at a time, and a line whose text was read before is not
 * parsed again ({@link ConjunctCache}): states in a graph repeat most of their variables' values. Every distinct text
 * still goes through the grammar.
 */
public final class StateReader {
    private final String source;
    private final TlaValueLexer lexer = new TlaValueLexer(null);
    private final WindowTokenStream tokens = new WindowTokenStream(lexer);
    private final TlaValueParser parser;
    private final AsciiStream chars;
    private final TlaValueBuilder values;
    private final ParseEvents events;
    private final TokenPool pool = new TokenPool();
    private final ConjunctCache cache = new ConjunctCache();
    private byte[] conjunct = new byte[256];

    /**
     * @param source the file name errors carry; lines and columns count within each state's text
     */
    public StateReader(String source) {
        this.source = source;
        this.chars = new AsciiStream(source);
        this.values = new TlaValueBuilder(source, 0);
        this.events = new ParseEvents(values);
        this.parser = new TlaValueEventParser(tokens, events);
        // the fast pass only: no tree, no recovery, values built as the parser goes
        lexer.removeErrorListeners();
        lexer.addErrorListener(TlaValueReader.errors(source, 0));
        lexer.setTokenFactory(pool);
        parser.removeErrorListeners();
        parser.setErrorHandler(new BailErrorStrategy());
        parser.setBuildParseTree(false);
        parser.getInterpreter().setPredictionMode(PredictionMode.SLL);
    }

    /**
     * The state in the ASCII text {@code text[0..length)}, e.g. {@code /\ x = 1 /\ y = "a"}; use {@link #state(String)}
     * for any other text.
     *
     * @throws IllegalArgumentException if the text is not ASCII
     */
    public TlaState state(byte[] text, int length) {
        if (!AsciiRanges.isAscii(text, length)) {
            throw new IllegalArgumentException("not ASCII; read it with state(String)");
        }
        TlaState read = byConjuncts(text, length);
        if (read == null) {
            read = fastState(text, length);
        }
        return read != null
                ? read
                : TlaValueReader.state(source, new String(text, 0, length, StandardCharsets.US_ASCII));
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

    /**
     * The state in {@code text[0..length)} read a line at a time, or null if it does not start with {@code /\}, or a
     * line does not read on its own, or a variable comes twice, or a line is new and the cache full: the whole text is
     * then read as before, which words any error.
     *
     * <p>Cutting the text before each line that starts with {@code /\} cuts it between two of the grammar's conjuncts:
     * in a state that parses, a line break followed by {@code /\} can only come before a {@code CONJ} token, since no
     * string holds a line break and {@code /\} is part of no other token. So each part is a conjunction of its own (TLC
     * prints one conjunct a line; a part may hold more), parsed by the {@code state} rule, and the parts in order read
     * the same variables and values as the whole.
     */
    private TlaState byConjuncts(byte[] text, int length) {
        if (length < 2 || text[0] != '/' || text[1] != '\\') {
            return null;
        }
        SequencedMap<String, TlaValue> vars = new LinkedHashMap<>();
        int start = 0;
        while (start < length) {
            int end = start + 2;
            while (end < length
                    && !(text[end] == '\n' && end + 2 < length && text[end + 1] == '/' && text[end + 2] == '\\')) {
                end++;
            }
            int slot = cache.find(text, start, end);
            SequencedMap<String, TlaValue> read;
            if (slot >= 0) {
                read = cache.vars(slot);
            } else if (cache.full()) {
                // a model whose lines rarely recur: parsing lines one by one would cost more
                // than parsing the whole state once
                return null;
            } else {
                read = conjuncts(text, start, end);
                if (read == null) {
                    return null;
                }
                cache.put(text, start, end, read);
            }
            for (Map.Entry<String, TlaValue> variable : read.entrySet()) {
                if (vars.putIfAbsent(variable.getKey(), variable.getValue()) != null) {
                    return null;
                }
            }
            start = end + 1;
        }
        return new TlaState(vars);
    }

    /** The variables and values of the conjuncts in {@code text[from..to)}, or null if they do not read. */
    private SequencedMap<String, TlaValue> conjuncts(byte[] text, int from, int to) {
        if (conjunct.length < to - from) {
            conjunct = new byte[Math.max(to - from, 2 * conjunct.length)];
        }
        System.arraycopy(text, from, conjunct, 0, to - from);
        TlaState read = fastState(conjunct, to - from);
        return read == null ? null : read.vars();
    }

    /** The state in {@code text[0..length)} by the fast pass alone, or null if it rejects the text. */
    private TlaState fastState(byte[] text, int length) {
        try {
            values.reset(text);
            fastPass(chars.reset(text, length));
            return values.state();
        } catch (RuntimeException rejected) {
            return null;
        }
    }

    /** Failing here only means "read it again the exact way", which words the error. */
    private void fastPass(CharStream text) {
        pool.reset();
        events.reset();
        lexer.setInputStream(text);
        tokens.reset();
        parser.setTokenStream(tokens);
        parser.state();
        events.throwFailure();
    }
}
