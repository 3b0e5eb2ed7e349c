package io.proofgate.mutate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A module's text cut into its top-level definitions, and the parts its marker comments name. A part is the definitions
 * between {@code \* mutate-begin: NAME} and {@code \* mutate-end: NAME}, so that a spec says in its own text which
 * operators are the implementation under test (the connector) and which are the environment and the properties (never
 * mutated).
 */
public final class TlaModule {

    private static final Pattern MARKER = Pattern.compile("mutate-(begin|end):\\s*([A-Za-z0-9_-]+)");

    private final String text;
    private final List<Definition> definitions;
    private final Map<String, int[]> parts; // name -> [begin offset, end offset]

    private TlaModule(String text, List<Definition> definitions, Map<String, int[]> parts) {
        this.text = text;
        this.definitions = List.copyOf(definitions);
        this.parts = parts;
    }

    /**
     * @throws MutationException when a marker is unpaired or a part is marked twice
     */
    public static TlaModule parse(String text, String source) throws MutationException {
        List<TlaToken> all = TlaLexer.tokens(text);
        Map<String, int[]> parts = new LinkedHashMap<>();
        Map<String, TlaToken> open = new LinkedHashMap<>();
        for (TlaToken t : all) {
            if (t.kind() != TlaToken.Kind.COMMENT) {
                continue;
            }
            Matcher m = MARKER.matcher(t.text());
            while (m.find()) {
                String name = m.group(2);
                if (m.group(1).equals("begin")) {
                    if (open.containsKey(name) || parts.containsKey(name)) {
                        throw new MutationException(
                                source
                                        + ":"
                                        + t.line()
                                        + ":"
                                        + t.column()
                                        + ": the part \""
                                        + name
                                        + "\" is marked twice");
                    }
                    open.put(name, t);
                } else {
                    TlaToken begin = open.remove(name);
                    if (begin == null) {
                        throw new MutationException(
                                source
                                        + ":"
                                        + t.line()
                                        + ":"
                                        + t.column()
                                        + ": mutate-end: "
                                        + name
                                        + " has no mutate-begin before it");
                    }
                    parts.put(name, new int[] {begin.end(), t.start()});
                }
            }
        }
        if (!open.isEmpty()) {
            TlaToken t = open.values().iterator().next();
            throw new MutationException(
                    source
                            + ":"
                            + t.line()
                            + ":"
                            + t.column()
                            + ": mutate-begin: "
                            + open.keySet().iterator().next()
                            + " has no mutate-end after it");
        }
        return new TlaModule(text, definitions(all), parts);
    }

    /**
     * Top-level definitions: a name in the first column followed by {@code ==} or by a parameter list and {@code ==}; a
     * {@code RECURSIVE} declaration or a rule ends the one before.
     */
    private static List<Definition> definitions(List<TlaToken> all) {
        List<TlaToken> code = all.stream().filter(t -> t.kind() != TlaToken.Kind.COMMENT).toList();
        List<Definition> out = new ArrayList<>();
        int i = 0;
        while (i < code.size()) {
            TlaToken t = code.get(i);
            int body = t.column() == 1 && t.kind() == TlaToken.Kind.WORD ? headerEnd(code, i) : -1;
            if (body < 0) {
                i++;
                continue;
            }
            int j = body;
            while (j < code.size() && code.get(j).column() != 1) {
                j++;
            }
            out.add(new Definition(t.text(), code.subList(i, j)));
            i = j;
        }
        return out;
    }

    /** The index after {@code ==} when the tokens at {@code i} start a definition, else -1. */
    private static int headerEnd(List<TlaToken> code, int i) {
        int j = i + 1;
        if (j < code.size() && code.get(j).is("(")) {
            int depth = 0;
            for (; j < code.size(); j++) {
                if (code.get(j).is("(")) {
                    depth++;
                } else if (code.get(j).is(")") && --depth == 0) {
                    j++;
                    break;
                }
            }
        }
        return j < code.size() && code.get(j).is("==") ? j + 1 : -1;
    }

    public String text() {
        return text;
    }

    public List<Definition> definitions() {
        return definitions;
    }

    public List<String> parts() {
        return List.copyOf(parts.keySet());
    }

    /** The definitions that start inside the part {@code name}, or null when no part has that name. */
    public List<Definition> part(String name) {
        int[] range = parts.get(name);
        if (range == null) {
            return null;
        }
        return definitions.stream().filter(d -> d.start() >= range[0] && d.start() < range[1]).toList();
    }
}
