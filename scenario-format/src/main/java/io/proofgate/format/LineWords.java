package io.proofgate.format;

/** A state line's words, for reading their {@code name=value}s; errors point at the line. */
record LineWords(String source, int line, String[] words) {

    String value(int index, String name) {
        if (index >= words.length || !words[index].startsWith(name + "=")) {
            throw error("expected " + name + "=... as word " + (index + 1));
        }
        return words[index].substring(name.length() + 1);
    }

    /**
     * A count of tokens or of verdicts, as the lines write it: decimal digits without a leading zero. Another form
     * ({@code done=06912}, {@code span=+6912}) is a file that no generation writes, not an answer that differs.
     */
    String number(int index, String name) {
        String value = value(index, name);
        if (!value.matches("0|[1-9][0-9]*")) {
            int column = 1 + name.length() + 1; // the value's, after "name="
            for (int i = 0; i < index; i++) {
                column += words[i].length() + 1;
            }
            throw new ScenarioFormatException(
                    source,
                    line,
                    column,
                    io.proofgate.words.Outside.quoted(words[index])
                            + ": a count is written in decimal digits, without a leading zero");
        }
        return value;
    }

    ScenarioFormatException error(String detail) {
        return new ScenarioFormatException(source, line, 1, detail);
    }
}
