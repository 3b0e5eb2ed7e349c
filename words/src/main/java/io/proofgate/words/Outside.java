package io.proofgate.words;

/**
 * The one escape for text from outside (a log's bytes, a file name, an adapter's words, a name read from a shard or
 * result file) on its way to a terminal or a report: every control or non-printing character is written as {@code
 * \\uXXXX}, so that such text can never move the cursor, clear the screen, set the window title or forge a line of
 * output (protocol §6: a log cannot write to the terminal through an error). Every module that prints outside text
 * calls this class; it lives in words, the module every other one uses.
 */
public final class Outside {

    /** How much of a long text an excerpt keeps: a message stays one readable line. */
    public static final int EXCERPT_LENGTH = 200;

    private Outside() {}

    /** The text in double quotes, with quotes and backslashes escaped too, so that where it ends is unambiguous. */
    public static String quoted(String text) {
        StringBuilder quoted = new StringBuilder(text.length() + 2).append('"');
        escape(text, quoted, true);
        return quoted.append('"').toString();
    }

    /** At most {@link #EXCERPT_LENGTH} characters of the text, quoted as {@link #quoted} does. */
    public static String excerpt(String text) {
        if (text.length() <= EXCERPT_LENGTH) {
            return quoted(text);
        }
        int end = Character.isHighSurrogate(text.charAt(EXCERPT_LENGTH - 1)) ? EXCERPT_LENGTH - 1 : EXCERPT_LENGTH;
        return quoted(text.substring(0, end) + "...");
    }

    /**
     * {@code FILE:LINE:COLUMN: }, the start of every message about bad input (protocol §6: line and column counted from
     * 1), the file's name escaped as {@link #bare} escapes it: the one place that writes it.
     */
    public static String at(Object file, long line, long column) {
        return bare(String.valueOf(file)) + ":" + line + ":" + column + ": ";
    }

    /**
     * The text as it is, but with every non-printing character escaped: for a file name at the start of a message
     * ({@code FILE:LINE:COLUMN: ...}), which reads as the user typed it unless it holds such a character.
     */
    public static String bare(String text) {
        if (isPlain(text)) {
            return text; // the common case allocates nothing
        }
        StringBuilder bare = new StringBuilder(text.length() + 16);
        escape(text, bare, false);
        return bare.toString();
    }

    /**
     * A report for a terminal, each of its lines as {@link #bare} writes it, the line breaks kept: the last step of
     * every text report, so that no name, event or answer it quotes can reach the terminal raw, however it got into the
     * report.
     */
    public static String lines(String report) {
        if (isPlain(report.replace("\n", ""))) {
            return report;
        }
        StringBuilder out = new StringBuilder(report.length() + 16);
        String[] lines = report.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            out.append(i == 0 ? "" : "\n");
            escape(lines[i], out, false);
        }
        return out.toString();
    }

    /** Whether the text holds no character that {@link #bare} escapes. */
    public static boolean isPlain(String text) {
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            if (escaped(c)) {
                return false;
            }
            i += Character.charCount(c);
        }
        return true;
    }

    /**
     * Whether the text holds no control, format, unassigned or separator character: what a name that proofgate itself
     * wrote may hold. A space of another width may be in a file name; it is escaped where it is shown, not refused
     * where it is read.
     */
    public static boolean holdsNoControl(String text) {
        return text.codePoints().noneMatch(c -> escaped(c) && Character.getType(c) != Character.SPACE_SEPARATOR);
    }

    private static void escape(String text, StringBuilder out, boolean quoting) {
        text.codePoints()
                .forEach(
                        c -> {
                            if (quoting && (c == '"' || c == '\\')) {
                                out.append('\\').appendCodePoint(c);
                            } else if (c == '\n') {
                                out.append("\\n");
                            } else if (c == '\t') {
                                out.append("\\t");
                            } else if (c == '\r') {
                                out.append("\\r");
                            } else if (escaped(c)) {
                                out.append(c > 0xffff ? String.format("\\u{%x}", c) : String.format("\\u%04x", c));
                            } else {
                                out.appendCodePoint(c);
                            }
                        });
    }

    /**
     * C0 and C1 controls (a terminal reads U+009B as CSI), DEL, format characters (bidirectional overrides reorder what
     * the reader sees), unassigned code points, lone surrogates and the line and paragraph separators, and every space
     * but U+0020 (a no-break or ideographic space in a message reads as a plain one: `found " "` named no character the
     * reader could find).
     */
    private static boolean escaped(int c) {
        if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == 0x2028 || c == 0x2029) {
            return true;
        }
        int type = Character.getType(c);
        return type == Character.FORMAT
                || type == Character.UNASSIGNED
                || type == Character.SURROGATE
                || type == Character.SPACE_SEPARATOR && c != ' ';
    }
}
