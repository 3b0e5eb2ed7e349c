package io.proofgate.parse;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Telling ASCII from other bytes, and reading a range of ASCII bytes without making a string of it: the state-graph
 * reader does this for a whole dump, and for hundreds of thousands of ids and attribute names.
 */
public final class AsciiRanges {
    /** Returned by {@link #parseLong} for text it leaves to {@code Long.parseLong} (Long.MIN_VALUE too). */
    public static final long NOT_A_LONG = Long.MIN_VALUE;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private AsciiRanges() {}

    /** Whether {@code bytes[0..length)} are all ASCII. */
    public static boolean isAscii(byte[] bytes, int length) {
        // eight bytes a step, no early exit: a byte-at-a-time loop took 4% of reading a dump
        long all = 0;
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES) {
            all |= (long) LONGS.get(bytes, i);
        }
        for (; i < length; i++) {
            all |= bytes[i]; // sign-extended: a byte above 0x7f sets bit 7 too
        }
        return (all & 0x8080808080808080L) == 0;
    }

    /**
     * {@code Long.parseLong} of {@code ascii[from..to)}: an optional minus and decimal digits; {@link #NOT_A_LONG} for
     * anything else (no digits, another character, out of range), which the caller then hands to {@code Long.parseLong}
     * for its answer or its error.
     */
    public static long parseLong(byte[] ascii, int from, int to) {
        int i = from;
        boolean negative = i < to && ascii[i] == '-';
        if (negative) {
            i++;
        }
        if (i == to) {
            return NOT_A_LONG;
        }
        if (to - i <= 19) {
            return parseShort(ascii, i, to, negative);
        }
        // accumulate negatively, as Long.parseLong does, so that Long.MIN_VALUE fits
        long limit = negative ? Long.MIN_VALUE : -Long.MAX_VALUE;
        long multiplyMin = limit / 10;
        long result = 0;
        for (; i < to; i++) {
            int digit = ascii[i] - '0';
            if (digit < 0 || digit > 9 || result < multiplyMin) {
                return NOT_A_LONG;
            }
            result *= 10;
            if (result < limit + digit) {
                return NOT_A_LONG;
            }
            result -= digit;
        }
        return negative ? result : -result;
    }

    /**
     * {@link #parseLong} of at most 19 digits, as a state fingerprint has: the first 18 cannot overflow, so only the
     * 19th is checked, and there is no division by the limit (a dump has 600,000 fingerprints to read).
     */
    private static long parseShort(byte[] ascii, int from, int to, boolean negative) {
        int unchecked = Math.min(to, from + 18);
        long result = 0;
        int i = from;
        for (; i < unchecked; i++) {
            int digit = ascii[i] - '0';
            if (digit < 0 || digit > 9) {
                return NOT_A_LONG;
            }
            result = 10 * result + digit;
        }
        if (i < to) {
            int digit = ascii[i] - '0';
            // at most Long.MAX_VALUE in magnitude; -Long.MAX_VALUE - 1 is NOT_A_LONG anyway
            if (digit < 0
                    || digit > 9
                    || result > Long.MAX_VALUE / 10
                    || (result == Long.MAX_VALUE / 10 && digit > 7)) {
                return NOT_A_LONG;
            }
            result = 10 * result + digit;
        }
        return negative ? -result : result;
    }

    /** Whether {@code ascii[start..start + text.length())} reads {@code text}; the range must be in bounds. */
    public static boolean regionEquals(byte[] ascii, int start, String text) {
        for (int i = 0; i < text.length(); i++) {
            if (ascii[start + i] != text.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
