package io.proofgate.conform;

/**
 * How much one answer may hold before its end marker: an adapter that floods lines without ending its answer would
 * otherwise fill the kit's heap (1 GB of RSS before this limit). Every answer of the generated and hand-written
 * scenarios is far below the defaults (a step's verdicts and one state line).
 */
public record AnswerLimits(int lines, long bytes) {

    public static final AnswerLimits DEFAULT = new AnswerLimits(10_000, 4L << 20);

    public AnswerLimits {
        if (lines < 1 || bytes < 1) {
            throw new IllegalArgumentException("limits are positive");
        }
    }

    /** The UTF-8 length of a line, without encoding it. */
    static long utf8Length(String text) {
        long length = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                length++;
            } else if (c < 0x800) {
                length += 2;
            } else if (Character.isHighSurrogate(c)) {
                length += 4;
                i++;
            } else {
                length += 3;
            }
        }
        return length;
    }
}
