package io.proofgate.tlc;

/**
 * Reading a range of a {@code char[]} without making a string of it: the state-graph reader
 * does this for millions of ids, integers and names.
 */
public final class CharRanges {
    /** Returned by {@link #parseLong} for text it leaves to {@code Long.parseLong} (Long.MIN_VALUE too). */
    public static final long NOT_A_LONG = Long.MIN_VALUE;

    private CharRanges() {
    }

    /**
     * {@code Long.parseLong} of {@code chars[from..to)}: an optional minus and decimal digits;
     * {@link #NOT_A_LONG} for anything else (no digits, another character, out of range), which
     * the caller then hands to {@code Long.parseLong} for its answer or its error.
     */
    public static long parseLong(char[] chars, int from, int to) {
        int i = from;
        boolean negative = i < to && chars[i] == '-';
        if (negative) {
            i++;
        }
        if (i == to) {
            return NOT_A_LONG;
        }
        if (to - i <= 19) {
            return parseShort(chars, i, to, negative);
        }
        // accumulate negatively, as Long.parseLong does, so that Long.MIN_VALUE fits
        long limit = negative ? Long.MIN_VALUE : -Long.MAX_VALUE;
        long multiplyMin = limit / 10;
        long result = 0;
        for (; i < to; i++) {
            int digit = chars[i] - '0';
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
     * {@link #parseLong} of at most 19 digits, as a state fingerprint has: the first 18 cannot
     * overflow, so only the 19th is checked, and there is no division by the limit (a dump has
     * 600,000 fingerprints to read).
     */
    private static long parseShort(char[] chars, int from, int to, boolean negative) {
        int unchecked = Math.min(to, from + 18);
        long result = 0;
        int i = from;
        for (; i < unchecked; i++) {
            int digit = chars[i] - '0';
            if (digit < 0 || digit > 9) {
                return NOT_A_LONG;
            }
            result = 10 * result + digit;
        }
        if (i < to) {
            int digit = chars[i] - '0';
            // at most Long.MAX_VALUE in magnitude; -Long.MAX_VALUE - 1 is NOT_A_LONG anyway
            if (digit < 0 || digit > 9 || result > Long.MAX_VALUE / 10 || (result == Long.MAX_VALUE / 10 && digit > 7)) {
                return NOT_A_LONG;
            }
            result = 10 * result + digit;
        }
        return negative ? -result : result;
    }

    /** Whether {@code chars[start..start + text.length())} reads {@code text}; the range must be in bounds. */
    public static boolean regionEquals(char[] chars, int start, String text) {
        for (int i = 0; i < text.length(); i++) {
            if (chars[start + i] != text.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
