package io.proofgate.conform;

import java.util.HashMap;
import java.util.Map;

/**
 * Answer lines read once for two adapters: an audit's two revisions mostly print the same lines,
 * and a line's reading ({@link AnswerReader}) depends on its text alone, so the second adapter's
 * copy of a line takes the first's reading instead of parsing it again. Used by one thread; the
 * caller clears it between scenarios, which bounds what it holds.
 */
public final class SharedLines {

    /** More distinct lines than one scenario's answers hold are read, not kept. */
    private static final int MAX = 4096;

    private final Map<String, Line> read = new HashMap<>();

    Line read(String text) throws AdapterException {
        Line line = read.get(text);
        if (line == null) {
            line = AnswerReader.read(text);
            if (read.size() < MAX) {
                read.put(text, line);
            }
        }
        return line;
    }

    public void clear() {
        read.clear();
    }
}
