package io.proofgate.replay;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Passes bytes through while checking that they are UTF-8 as RFC 3629 defines it: no overlong forms, no surrogates,
 * nothing beyond U+10FFFF, no truncated sequence. The JSON parser decodes an overlong {@code "r\xc0\xb1"} as {@code
 * "r1"}, so without this check a digest spelt that way counted toward another digest's quorum.
 */
final class Utf8Check extends FilterInputStream {

    /** Bytes that are not UTF-8, at a line and column (both from 1; the column counts bytes). */
    static final class Malformed extends IOException {
        final long line;
        final long column;

        Malformed(long line, long column, String problem) {
            super(problem);
            this.line = line;
            this.column = column;
        }
    }

    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long LOW_BITS = 0x7F7F7F7F7F7F7F7FL;
    private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;

    /**
     * Positions are kept as offsets and turned into a column only for an error: the line count, the offset of the last
     * newline, and the offset of the next byte, all from the stream's start.
     */
    private long line;

    private long lastNewline = -1;
    private long offset;

    /** Continuation bytes still expected, and the range the next one must be in. */
    private int need;

    private int low = 0x80;
    private int high = 0xBF;

    /** Found in a read that handed over the bytes before it; thrown on the next read. */
    private Malformed pending;

    private long sequenceLine;
    private long sequenceColumn;

    Utf8Check(InputStream in) {
        this(in, 1);
    }

    /** Checks a stream whose first byte is on line {@code firstLine} of the log (a reader from that line). */
    Utf8Check(InputStream in, long firstLine) {
        super(in);
        this.line = firstLine;
    }

    @Override
    public int read() throws IOException {
        int b = in.read();
        if (b < 0) {
            atEnd();
        } else {
            check((byte) b, offset++);
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int from, int length) throws IOException {
        if (pending != null) {
            throw pending;
        }
        int n = in.read(buffer, from, length);
        if (n < 0) {
            atEnd();
            return n;
        }
        long base = offset - from; // the stream offset of buffer[i] is base + i
        int end = from + n;
        int i = from;
        while (i < end) {
            if (need == 0) {
                // ASCII, the common case, eight bytes at a time: only the newlines are counted
                for (; i + Long.BYTES <= end; i += Long.BYTES) {
                    long word = (long) WORDS.get(buffer, i);
                    if ((word & HIGH_BITS) != 0) {
                        break;
                    }
                    // exactly the bytes equal to '\n' get their high bit (no carry crosses a byte)
                    long x = word ^ NEWLINES;
                    long newlines = ~(((x & LOW_BITS) + LOW_BITS) | x) & HIGH_BITS;
                    if (newlines != 0) {
                        line += Long.bitCount(newlines);
                        lastNewline = base + i + ((63 - Long.numberOfLeadingZeros(newlines)) >>> 3);
                    }
                }
                if (i == end) {
                    break;
                }
            }
            try {
                check(buffer[i], base + i);
            } catch (Malformed e) {
                if (i == from) {
                    throw e;
                }
                // the bytes before it first: the parser then meets the error where it stands in
                // the log, after any error in those bytes, however the reads fall
                pending = e;
                offset += i - from;
                return i - from;
            }
            i++;
        }
        offset += n;
        return n;
    }

    /** The line of the next byte: past the last line end read. */
    long line() {
        return line;
    }

    /** Checks the byte at stream offset {@code at}. */
    private void check(byte value, long at) throws Malformed {
        int b = value & 0xFF;
        long column = at - lastNewline;
        if (need > 0) {
            if (b < low || b > high) {
                throw new Malformed(
                        sequenceLine,
                        sequenceColumn,
                        "invalid UTF-8: a multi-byte sequence is broken at byte "
                                + String.format("0x%02x", b)
                                + " (line "
                                + line
                                + ", column "
                                + column
                                + ")");
            }
            need--;
            low = 0x80;
            high = 0xBF;
            return;
        }
        if (b < 0x80) {
            if (b == '\n') {
                line++;
                lastNewline = at;
            }
            return;
        }
        sequenceLine = line;
        sequenceColumn = column;
        if (b >= 0xC2 && b <= 0xDF) {
            need = 1;
        } else if (b >= 0xE0 && b <= 0xEF) {
            need = 2;
            low = b == 0xE0 ? 0xA0 : 0x80; // E0 80..9F would be overlong
            high = b == 0xED ? 0x9F : 0xBF; // ED A0..BF would be a surrogate
        } else if (b >= 0xF0 && b <= 0xF4) {
            need = 3;
            low = b == 0xF0 ? 0x90 : 0x80; // F0 80..8F would be overlong
            high = b == 0xF4 ? 0x8F : 0xBF; // F4 90.. would be beyond U+10FFFF
        } else {
            throw new Malformed(
                    line,
                    column,
                    "invalid UTF-8: byte "
                            + String.format("0x%02x", b)
                            + (b == 0xC0 || b == 0xC1
                                    ? " starts an overlong form"
                                    : b >= 0xF5 ? " is never UTF-8" : " is a continuation byte without a start"));
        }
    }

    private void atEnd() throws Malformed {
        if (need > 0) {
            throw new Malformed(
                    sequenceLine, sequenceColumn, "invalid UTF-8: the input ends inside a multi-byte sequence");
        }
    }
}
