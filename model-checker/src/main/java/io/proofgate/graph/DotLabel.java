package io.proofgate.graph;

/**
 * Undoes the escaping of a quoted DOT id. TLC writes a state label by doubling backslashes, escaping quotes and turning
 * line breaks into {@code \n}; Graphviz's {@code \l} and {@code \r} are line breaks too. Any other backslash pair is
 * kept as written.
 */
final class DotLabel {
    private static final int NOT_AN_ESCAPE = -1;

    private DotLabel() {}

    /**
     * @param quoted the token text, quotes included
     */
    static String unescape(String quoted) {
        int end = quoted.length() - 1;
        StringBuilder out = new StringBuilder(end);
        for (int i = 1; i < end; i++) {
            char c = quoted.charAt(i);
            int escaped = c == '\\' && i + 1 < end ? escape(quoted.charAt(i + 1)) : NOT_AN_ESCAPE;
            if (escaped == NOT_AN_ESCAPE) {
                out.append(c);
            } else {
                out.append((char) escaped);
                i++;
            }
        }
        return out.toString();
    }

    /**
     * Unescapes {@code in[from + 1 .. to)}, the ASCII body of a quoted id whose quotes are at {@code from} and {@code
     * to - 1}, into {@code out} (at least {@code to - from} long).
     *
     * @return the number of bytes written
     */
    static int unescape(byte[] in, int from, int to, byte[] out) {
        int end = to - 1;
        int n = 0;
        for (int i = from + 1; i < end; i++) {
            byte b = in[i];
            int escaped = b == '\\' && i + 1 < end ? escape(in[i + 1]) : NOT_AN_ESCAPE;
            if (escaped == NOT_AN_ESCAPE) {
                out[n++] = b;
            } else {
                out[n++] = (byte) escaped;
                i++;
            }
        }
        return n;
    }

    /** What a backslash followed by {@code next} stands for, or {@link #NOT_AN_ESCAPE}: then both are kept. */
    private static int escape(int next) {
        return switch (next) {
            case '\\' -> '\\';
            case '"' -> '"';
            case 'n', 'l', 'r' -> '\n';
            default -> NOT_AN_ESCAPE;
        };
    }
}
