package io.proofgate.format;

/** A state line's words, for reading their {@code name=value}s; errors point at the line. */
record LineWords(String source, int line, String[] words) {

    String value(int index, String name) {
        if (index >= words.length || !words[index].startsWith(name + "=")) {
            throw error("expected " + name + "=... as word " + (index + 1));
        }
        return words[index].substring(name.length() + 1);
    }

    ScenarioFormatException error(String detail) {
        return new ScenarioFormatException(source, line, 1, detail);
    }
}
