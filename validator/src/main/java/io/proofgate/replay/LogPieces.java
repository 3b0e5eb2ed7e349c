package io.proofgate.replay;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Cuts a log's bytes into pieces that end at a line end, so that each can be parsed on its own ({@link EventPipeline}).
 * A piece holds at least {@code size} bytes up to the last line end in them, unless the input ends first; a line longer
 * than that makes the piece grow to its end, up to {@code max} bytes. What follows a piece's last line end is carried
 * to the next piece.
 */
final class LogPieces {

    /**
     * A piece of the log: {@code bytes[0, length)}. {@code lines} when it ends at a line end (or the input's end after
     * its last line end); {@code last} when the input ends with it. A piece that is not {@code lines} holds {@code max}
     * bytes and no line end.
     */
    record Piece(byte[] bytes, int length, boolean lines, boolean last) {
        InputStream stream() {
            return new ByteArrayInputStream(bytes, 0, length);
        }
    }

    private final InputStream in;
    private final int size;
    private final int max;

    /**
     * Buffers of {@code size} bytes whose pieces are done with, for the next pieces: a log's bytes would otherwise be
     * allocated a second time as pieces, and the collector's extra work cost a replay more than the pieces' parsing
     * side by side saved (docs/performance.md).
     */
    private final Queue<byte[]> free = new ConcurrentLinkedQueue<>();

    private byte[] carry = new byte[0];
    private int carryFrom;
    private int carryLength;
    private boolean ended;
    private int allocated;
    private static final int FIRST_BUFFER = 1 << 10;

    LogPieces(InputStream in, int size, int max) {
        if (size < 1 || max < size) {
            throw new IllegalArgumentException("piece size " + size + ", at most " + max);
        }
        this.in = in;
        this.size = size;
        this.max = max;
    }

    /** The next piece, or null when nothing is left. */
    Piece next() throws IOException {
        if (ended && carryLength == 0) {
            return null;
        }
        byte[] buffer = carryLength <= size ? buffer() : new byte[carryLength];
        System.arraycopy(carry, carryFrom, buffer, 0, carryLength);
        int length = carryLength;
        carryLength = 0;
        int end = -1; // the last line end, looked for once the buffer is full
        while (!ended) {
            if (length == buffer.length
                    && buffer.length < size) { // the first buffer, grown as the log turns out longer
                buffer = Arrays.copyOf(buffer, Math.min(size, 2 * buffer.length));
            }
            if (length == buffer.length) {
                end = lastLineEnd(buffer, length);
                if (end >= 0 || buffer.length >= max) {
                    break;
                }
                buffer = Arrays.copyOf(buffer, (int) Math.min(max, 2L * buffer.length)); // a line longer than a piece
            }
            int n = in.read(buffer, length, buffer.length - length);
            if (n < 0) {
                ended = true;
            } else {
                length += n;
            }
        }
        if (ended) {
            return new Piece(buffer, length, true, true);
        }
        if (end < 0) {
            return new Piece(buffer, length, false, false); // max bytes and no line end
        }
        carry = buffer;
        carryFrom = end + 1;
        carryLength = length - carryFrom;
        return new Piece(buffer, end + 1, true, false);
    }

    /**
     * Gives back a piece's buffer once nothing reads it any more: its parse has ended and its lines were taken, and no
     * reader will read it again. Any thread; a buffer grown for a long line is left to the collector.
     */
    void done(Piece piece) {
        if (piece.bytes().length == size) {
            free.add(piece.bytes());
        }
    }

    /**
     * A buffer of {@code size} bytes, or a smaller one for the first piece: most logs an audit replays are a few
     * hundred bytes to a few KiB, and a buffer of a whole piece for each cost it more than their parse
     * (docs/performance.md).
     */
    private byte[] buffer() {
        byte[] buffer = free.poll();
        if (buffer != null) {
            return buffer;
        }
        return new byte[allocated++ == 0 ? Math.min(size, FIRST_BUFFER) : size];
    }

    /** The bytes not yet handed out as pieces: what was carried, then the rest of the input. */
    InputStream rest() {
        InputStream carried = new ByteArrayInputStream(carry, carryFrom, carryLength);
        carryLength = 0;
        return ended ? carried : new SequenceInputStream(carried, in);
    }

    private static int lastLineEnd(byte[] bytes, int length) {
        for (int i = length - 1; i >= 0; i--) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
