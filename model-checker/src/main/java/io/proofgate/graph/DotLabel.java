package io.proofgate.graph;

/**
 * Undoes the escaping of a quoted DOT id. TLC writes a state label by doubling backslashes,
 * escaping quotes and turning line breaks into {@code \n}; Graphviz's {@code \l} and {@code \r}
 * are line breaks too. Any other backslash pair is kept as written.
 */
final class DotLabel {
    private DotLabel() {
    }

    /** @param quoted the token text, quotes included */
    static String unescape(String quoted) {
        char[] chars = quoted.toCharArray();
        char[] out = new char[chars.length];
        return new String(out, 0, unescape(chars, 0, chars.length, out));
    }

    /**
     * Unescapes {@code in[from + 1 .. to)}, the body of a quoted id whose quotes are at
     * {@code from} and {@code to - 1}, into {@code out} (at least {@code to - from} long).
     *
     * @return the number of chars written
     */
    static int unescape(char[] in, int from, int to, char[] out) {
        int end = to - 1;
        int n = 0;
        for (int i = from + 1; i < end; i++) {
            char c = in[i];
            if (c != '\\' || i + 1 == end) {
                out[n++] = c;
                continue;
            }
            char next = in[++i];
            switch (next) {
                case '\\' -> out[n++] = '\\';
                case '"' -> out[n++] = '"';
                case 'n', 'l', 'r' -> out[n++] = '\n';
                default -> {
                    out[n++] = '\\';
                    out[n++] = next;
                }
            }
        }
        return n;
    }
}
