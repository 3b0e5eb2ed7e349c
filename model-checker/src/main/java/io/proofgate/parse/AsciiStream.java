package io.proofgate.parse;

import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.IntStream;
import org.antlr.v4.runtime.misc.Interval;

import java.nio.charset.StandardCharsets;

/**
 * A {@link CharStream} over the first {@code length} bytes of an array of ASCII text, without copying, that can be
 * pointed at new contents. A state graph is ASCII as TLC writes it, and read from its file's bytes as they are:
 * decoding 56 MB to a string and copying that to chars cost a tenth of the reading time, and ANTLR's own byte stream
 * lexes slower than this one.
 *
 * <p>ANTLR counts code points, this stream counts bytes: the two agree only for ASCII, so callers use it only for ASCII
 * and fall back to {@code CharStreams.fromString} otherwise.
 */
public final class AsciiStream implements CharStream {
    private final String name;
    private byte[] data;
    private int length;
    private int position;

    public AsciiStream(String name) {
        this.name = name == null || name.isEmpty() ? IntStream.UNKNOWN_SOURCE_NAME : name;
    }

    /** Makes the stream read {@code data[0..length)} from its start. */
    public AsciiStream reset(byte[] data, int length) {
        this.data = data;
        this.length = length;
        this.position = 0;
        return this;
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
            return at < length ? data[at] & 0xFF : IntStream.EOF;
        }
        if (i < 0) {
            int at = position + i;
            return at < 0 ? IntStream.EOF : data[at] & 0xFF;
        }
        return 0;
    }

    @Override
    public int mark() {
        return -1;
    }

    @Override
    public void release(int marker) {}

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
        return count <= 0 ? "" : new String(data, start, count, StandardCharsets.ISO_8859_1);
    }

    @Override
    public String toString() {
        return new String(data, 0, length, StandardCharsets.ISO_8859_1);
    }
}
