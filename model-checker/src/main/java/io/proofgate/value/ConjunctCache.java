package io.proofgate.value;

import java.util.Arrays;
import java.util.SequencedMap;

/**
 * The variables and values of each conjunct text read before ({@code /\ var = value}, a line of a state), so that a
 * text that recurs is parsed once. States in a graph repeat most of their variables: the interleaved model's 28,787
 * states hold 431,805 conjuncts, but only 601 distinct texts. Values are immutable, so states may share them.
 *
 * <p>An open-addressing table keyed by the text itself (never by a hash alone). It stops taking new texts once it holds
 * {@link #CAPACITY} of them or {@link #MAX_BYTES} bytes in all, and is then {@link #full}: the limits bound memory, not
 * correctness, since a text it does not hold is simply parsed again.
 */
final class ConjunctCache {
    /** The most texts kept; the table has twice as many slots, so probes stay short. */
    static final int CAPACITY = 1 << 14;

    /** The most bytes kept in all texts together. */
    static final int MAX_BYTES = 1 << 22;

    private final byte[][] texts = new byte[2 * CAPACITY][];
    private final int[] hashes = new int[2 * CAPACITY];
    private final SequencedMap<String, TlaValue>[] vars = newVars(2 * CAPACITY);
    private int size;
    private boolean full;
    private int bytes;

    /** The slot the last {@link #find} ended on: the text's, or the empty one it would take. */
    private int slot;

    private int hash;

    /** The slot holding {@code text[from..to)}, or -1 (then {@link #put} may add it). */
    int find(byte[] text, int from, int to) {
        // String.hashCode's polynomial, four bytes a step so that the multiplications overlap
        int h = 0;
        int i = from;
        for (; i + 3 < to; i += 4) {
            h = 923521 * h + 29791 * text[i] + 961 * text[i + 1] + 31 * text[i + 2] + text[i + 3];
        }
        for (; i < to; i++) {
            h = 31 * h + text[i];
        }
        h ^= h >>> 16;
        int mask = texts.length - 1;
        int s = h & mask;
        for (byte[] known; (known = texts[s]) != null; s = (s + 1) & mask) {
            if (hashes[s] == h && Arrays.equals(known, 0, known.length, text, from, to)) {
                return s;
            }
        }
        slot = s;
        hash = h;
        return -1;
    }

    /** Whether it has refused a text for want of room; it takes none after that. */
    boolean full() {
        return full;
    }

    /** What the text in {@code slot} reads, which no one may change. */
    SequencedMap<String, TlaValue> vars(int slot) {
        return vars[slot];
    }

    /** Keeps the text the last {@link #find} did not find, unless the cache is full. */
    void put(byte[] text, int from, int to, SequencedMap<String, TlaValue> read) {
        if (full || size == CAPACITY || bytes + (to - from) > MAX_BYTES) {
            full = true;
            return;
        }
        texts[slot] = Arrays.copyOfRange(text, from, to);
        hashes[slot] = hash;
        vars[slot] = read;
        size++;
        bytes += to - from;
    }

    @SuppressWarnings("unchecked")
    private static SequencedMap<String, TlaValue>[] newVars(int length) {
        return (SequencedMap<String, TlaValue>[]) new SequencedMap<?, ?>[length];
    }
}
