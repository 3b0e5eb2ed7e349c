package io.proofgate.mutate;

import com.fasterxml.jackson.databind.JsonNode;

import io.proofgate.check.StrictJson;
import io.proofgate.words.Sha256;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Named mistakes: plausible one-rule errors a reviewer wrote down as edits of the module ({@code spec/mistakes.json}),
 * run beside the generated mutants. Unlike a generated mutant, a named mistake must be killed: it is a mistake by its
 * author's word, so it is never judged equivalent.
 *
 * <pre>{"schema": "proofgate-mistakes/v1",
 *  "mistakes": [{"name": "conflict-ignored", "meaning": "...", "find": "...", "replace": "...",
 *                "model": "gen-two-recurrent"}]}</pre>
 */
public final class Mistakes {

    public static final String SCHEMA = "proofgate-mistakes/v1";
    private static final Set<String> TOP = Set.of("schema", "note", "mistakes");
    private static final Set<String> ENTRY = Set.of("name", "meaning", "find", "replace", "model");

    private Mistakes() {}

    /**
     * The mistakes of a file as mutations, and the model each names in its optional {@code "model"} (the one that
     * killed it when the whole run was last measured), by mutant id: {@link MutationRun} checks it there first. That is
     * only an order: a stale one costs time, never a verdict.
     */
    public record Named(List<Mutation> mutations, java.util.Map<String, String> firstModels) {
        public Named {
            mutations = List.copyOf(mutations);
            firstModels = java.util.Map.copyOf(firstModels);
        }
    }

    /** The mistakes of {@code file} as mutations of {@code text}; each find must occur exactly once. */
    public static Named read(Path file, String text, String source) throws MutationException {
        java.util.Map<String, String> firstModels = new java.util.HashMap<>();
        List<Mutation> mutations = parse(file, text, source, firstModels);
        return new Named(mutations, firstModels);
    }

    private static List<Mutation> parse(
            Path file, String text, String source, java.util.Map<String, String> firstModels) throws MutationException {
        StrictJson<MutationException> doc =
                StrictJson.read(file, SCHEMA, TOP, "\"schema\" and \"mistakes\"", MutationException::new);
        JsonNode list = doc.root().path("mistakes");
        if (!list.isArray()) {
            throw doc.error(doc.root(), "mistakes", "\"mistakes\" must be a list");
        }
        List<Mutation> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int index = 0; index < list.size(); index++) {
            JsonNode node = list.get(index);
            String where = "mistakes[" + index + "]";
            if (!node.isObject()) {
                throw doc.error(list, String.valueOf(index), where + " must be an object");
            }
            doc.keys(where, node, ENTRY);
            String name = string(doc, where, node, "name");
            if (!name.matches("[a-z0-9][a-z0-9-]*")) {
                throw doc.error(
                        node, "name", where + ": a name is lower-case letters, digits and '-', found \"" + name + "\"");
            }
            if (!names.add(name)) {
                throw doc.error(node, "name", where + ": the mistake \"" + name + "\" is listed twice");
            }
            string(doc, where, node, "meaning");
            String find = string(doc, where, node, "find");
            String replace = string(doc, where, node, "replace");
            int at = find.isEmpty() ? -1 : text.indexOf(find);
            if (at < 0) {
                throw doc.error(node, "find", "mistake \"" + name + "\": its find text is not in " + source);
            }
            if (text.indexOf(find, at + 1) >= 0) {
                throw doc.error(
                        node,
                        "find",
                        "mistake \""
                                + name
                                + "\": its find text occurs more than once in "
                                + source
                                + "; make it longer");
            }
            int line = 1;
            int lineStart = 0;
            for (int i = 0; i < at; i++) {
                if (text.charAt(i) == '\n') {
                    line++;
                    lineStart = i + 1;
                }
            }
            Mutation mutation =
                    new Mutation(
                            id(name, find, replace),
                            name,
                            Mutation.Kind.NAMED,
                            at,
                            at + find.length(),
                            find,
                            replace,
                            line,
                            at - lineStart + 1);
            out.add(mutation);
            if (node.has("model")) {
                firstModels.put(mutation.id(), string(doc, where, node, "model"));
            }
        }
        return out;
    }

    private static String id(String name, String find, String replace) {
        return Sha256.of("mistake\n" + name + "\n" + find + "\n" + replace).substring(0, 10);
    }

    private static String string(StrictJson<MutationException> doc, String where, JsonNode node, String key)
            throws MutationException {
        String v = doc.text(where, node, key);
        if (v.isBlank()) {
            throw doc.error(node, key, where + ": \"" + key + "\" must be a non-empty string");
        }
        return v;
    }
}
