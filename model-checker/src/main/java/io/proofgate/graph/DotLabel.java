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
        String body = quoted.substring(1, quoted.length() - 1);
        StringBuilder out = new StringBuilder(body.length());
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c != '\\' || i + 1 == body.length()) {
                out.append(c);
                continue;
            }
            char next = body.charAt(++i);
            switch (next) {
                case '\\' -> out.append('\\');
                case '"' -> out.append('"');
                case 'n', 'l', 'r' -> out.append('\n');
                default -> out.append('\\').append(next);
            }
        }
        return out.toString();
    }
}
