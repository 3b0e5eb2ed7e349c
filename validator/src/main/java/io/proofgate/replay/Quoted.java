package io.proofgate.replay;

/**
 * Text from the input as an error message quotes it: in double quotes, with quotes, backslashes
 * and every control or non-printing character escaped, so that a log can never write raw control
 * sequences to a terminal (or forge a line of output) through an error message.
 */
final class Quoted {

    private Quoted() {}

    static String of(String text) {
        StringBuilder quoted = new StringBuilder(text.length() + 2).append('"');
        text.codePoints().forEach(c -> {
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\t' -> quoted.append("\\t");
                case '\r' -> quoted.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || Character.getType(c) == Character.FORMAT
                            || Character.getType(c) == Character.UNASSIGNED || Character.getType(c) == Character.SURROGATE
                            || c == 0x2028 || c == 0x2029) {
                        if (c > 0xffff) {
                            quoted.append(String.format("\\u{%x}", c));
                        } else {
                            quoted.append(String.format("\\u%04x", c));
                        }
                    } else {
                        quoted.appendCodePoint(c);
                    }
                }
            }
        });
        return quoted.append('"').toString();
    }
}
