package io.proofgate.tlc;

import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.IntStream;
import org.antlr.v4.runtime.misc.Interval;

/**
 * A {@link CharStream} over the first {@code length} chars of an array, without copying, that
 * can be pointed at new contents. ANTLR's own streams copy their input into a code point buffer
 * first; a state graph reader that lexes one label per state would copy every label twice.
 *
 * <p>ANTLR counts code points, this stream counts chars: the two agree only while no char is a
 * surrogate, so callers use it only for text where {@link #isBmpOnly} holds and fall back to
 * {@code CharStreams.fromString} otherwise (columns in errors would differ).
 */
public final class CharArrayStream implements CharStream {
    private final String name;
    private char[] data;
    private int length;
    private int position;

    public CharArrayStream(String name) {
        this.name = name == null || name.isEmpty() ? IntStream.UNKNOWN_SOURCE_NAME : name;
    }

    /** Makes the stream read {@code data[0..length)} from its start. */
    public CharArrayStream reset(char[] data, int length) {
        this.data = data;
        this.length = length;
        this.position = 0;
        return this;
    }

    /**
     * Whether every char of {@code s} is a code point of its own: no surrogate pair (ANTLR, like
     * Java, reads a lone surrogate as one code point). O(1) for Latin-1 strings, which is what
     * TLC writes.
     */
    public static boolean isBmpOnly(String s) {
        return s.codePointCount(0, s.length()) == s.length();
    }

    @Override
    public void consume() {
        if (position >= length) {
            throw new IllegalStateException("cannot consume EOF");
        }
        position++;
    }

    @Override
    public int LA(int i) {
        if (i > 0) {
            int at = position + i - 1;
            return at < length ? data[at] : IntStream.EOF;
        }
        if (i < 0) {
            int at = position + i;
            return at < 0 ? IntStream.EOF : data[at];
        }
        return 0;
    }

    @Override
    public int mark() {
        return -1;
    }

    @Override
    public void release(int marker) {
    }

    @Override
    public int index() {
        return position;
    }

    @Override
    public void seek(int index) {
        position = Math.min(index, length);
    }

    @Override
    public int size() {
        return length;
    }

    @Override
    public String getSourceName() {
        return name;
    }

    @Override
    public String getText(Interval interval) {
        int start = Math.min(interval.a, length);
        int count = Math.min(interval.b - interval.a + 1, length - start);
        return count <= 0 ? "" : new String(data, start, count);
    }

    @Override
    public String toString() {
        return new String(data, 0, length);
    }
}
