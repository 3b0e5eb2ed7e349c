package io.proofgate.check;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * {@code spec/models.json}, read strictly: every key must be one of the known ones (no aliases), so a misspelt {@code
 * "invariant"} is an error instead of an expectation silently dropped.
 *
 * <p>Each model has a {@code name}, its {@code cfg} and {@code module} (relative to spec/), a {@code mode}, and an
 * {@code expected} result: {@code "ok"}, or {@code "violation"} with the {@code invariant} or {@code property} TLC must
 * name, or {@code "each-violated"} with the list of {@code invariants} each of which must be violated in a run of its
 * own (the non-vacuity checks). Optional: the pinned {@code distinctStates}, {@code generate} (the generated scenarios
 * cover the model's edges), {@code inCi} (false for a model too large for CI), {@code audit} (audit checks the model's
 * invariants and properties at both revisions), {@code shortRun} (TLC's child compiles with C1 alone: measured faster
 * on this model with benchmarks/tlc-short-run), a {@code description}, and figures kept for readers ({@code
 * statesGenerated}, {@code dotEdges}, {@code workers}, {@code seconds}, {@code override}, {@code status}).
 */
record ModelsFile(List<Entry> entries) {

    private static final Set<String> TOP_KEYS = Set.of("tlc", "note", "models");
    private static final Set<String> ENTRY_KEYS =
            Set.of(
                    "name",
                    "cfg",
                    "module",
                    "mode",
                    "expected",
                    "invariant",
                    "property",
                    "invariants",
                    "distinctStates",
                    "generate",
                    "inCi",
                    "description",
                    "statesGenerated",
                    "dotEdges",
                    "workers",
                    "seconds",
                    "override",
                    "status",
                    "audit",
                    "shortRun");

    /** One model's entry; {@code cfg} and {@code module} are relative to spec/. */
    record Entry(
            String name,
            String cfg,
            String module,
            Model.Expected expected,
            OptionalLong distinctStates,
            String description,
            boolean generate,
            boolean inCi,
            boolean audit,
            boolean shortRun) {}

    static ModelsFile read(Path file) throws IOException {
        if (!Files.exists(file)) {
            throw new IOException(file + ": missing (it lists the models and what checking each must show)");
        }
        StrictJson<IOException> doc = StrictJson.read(file, null, TOP_KEYS, "\"models\"", IOException::new);
        JsonNode root = doc.root();
        JsonNode list = root.path("models");
        if (!list.isArray()) {
            throw doc.error(root, "models", "\"models\" must be a list");
        }
        List<Entry> entries = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode node = list.get(i);
            if (!node.isObject()) {
                throw doc.error(list, String.valueOf(i), "every model is an object, found " + node);
            }
            String name = required(doc, "a model", node, "name");
            if (!name.matches("[a-z0-9][a-z0-9-]*")) {
                throw doc.error(node, "name", "model \"" + name + "\": a name is lower-case letters, digits and '-'");
            }
            if (!names.add(name)) {
                throw doc.error(node, "name", "two models are named \"" + name + "\"");
            }
            String where = "model \"" + name + "\"";
            doc.keys(where, node, ENTRY_KEYS);
            String cfg = required(doc, where, node, "cfg");
            String module = required(doc, where, node, "module");
            String mode = required(doc, where, node, "mode");
            if (!mode.equals("safety") && !mode.equals("liveness")) {
                throw doc.error(
                        node,
                        "mode",
                        where
                                + ": \"mode\" is \"safety\" or \"liveness\", not "
                                + io.proofgate.words.Outside.excerpt(mode));
            }
            entries.add(
                    new Entry(
                            name,
                            cfg,
                            module,
                            expected(doc, where, node),
                            distinct(doc, where, node),
                            node.has("description") ? text(doc, where, node, "description") : "",
                            bool(doc, where, node, "generate", false),
                            bool(doc, where, node, "inCi", true),
                            bool(doc, where, node, "audit", false),
                            bool(doc, where, node, "shortRun", false)));
        }
        return new ModelsFile(List.copyOf(entries));
    }

    private static Model.Expected expected(StrictJson<IOException> doc, String where, JsonNode node)
            throws IOException {
        String result = required(doc, where, node, "expected");
        return switch (result) {
            case "ok" -> {
                if (node.has("invariant") || node.has("invariants")) {
                    throw doc.error(node, "expected", where + ": expected \"ok\" names no invariant to violate");
                }
                yield new Model.Expected.Ok();
            }
            case "violation" -> {
                if (node.has("invariant") == node.has("property")) {
                    throw doc.error(
                            node,
                            "expected",
                            where
                                    + ": an expected violation names its \"invariant\" or its \"property\" (one of"
                                    + " them)");
                }
                yield new Model.Expected.Violation(
                        text(doc, where, node, node.has("invariant") ? "invariant" : "property"));
            }
            case "each-violated" -> {
                JsonNode list = node.get("invariants");
                if (list == null || !list.isArray() || list.isEmpty()) {
                    throw doc.error(
                            node, "expected", where + ": \"each-violated\" needs a non-empty list \"invariants\"");
                }
                List<String> invariants = new ArrayList<>();
                for (JsonNode invariant : list) {
                    if (!invariant.isTextual() || !invariant.asText().matches("[A-Za-z_][A-Za-z0-9_]*")) {
                        throw doc.error(node, "invariants", where + ": \"invariants\" holds names, found " + invariant);
                    }
                    invariants.add(invariant.asText());
                }
                yield new Model.Expected.EachViolated(List.copyOf(invariants));
            }
            default ->
                    throw doc.error(
                            node,
                            "expected",
                            where
                                    + ": \"expected\" is \"ok\", \"violation\" or"
                                    + " \"each-violated\", not \""
                                    + result
                                    + "\"");
        };
    }

    private static OptionalLong distinct(StrictJson<IOException> doc, String where, JsonNode node) throws IOException {
        JsonNode value = node.get("distinctStates");
        if (value == null || value.isNull()) {
            return OptionalLong.empty();
        }
        if (!value.canConvertToLong() || !value.isIntegralNumber() || value.asLong() < 1) {
            throw doc.error(
                    node,
                    "distinctStates",
                    where + ": \"distinctStates\" is a positive integer or null, found " + value);
        }
        return OptionalLong.of(value.asLong());
    }

    private static String required(StrictJson<IOException> doc, String where, JsonNode node, String key)
            throws IOException {
        if (!node.has(key)) {
            throw doc.error(node, where + ": \"" + key + "\" is missing");
        }
        return text(doc, where, node, key);
    }

    private static String text(StrictJson<IOException> doc, String where, JsonNode node, String key)
            throws IOException {
        JsonNode value = node.get(key);
        if (!value.isTextual()) {
            throw doc.error(node, key, where + ": \"" + key + "\" must be a string, found " + value);
        }
        return value.asText();
    }

    private static boolean bool(StrictJson<IOException> doc, String where, JsonNode node, String key, boolean otherwise)
            throws IOException {
        JsonNode value = node.get(key);
        if (value == null) {
            return otherwise;
        }
        if (!value.isBoolean()) {
            throw doc.error(node, key, where + ": \"" + key + "\" must be true or false, found " + value);
        }
        return value.asBoolean();
    }
}
