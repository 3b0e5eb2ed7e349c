package io.proofgate.check;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * {@code spec/models.json}, read strictly: every key must be one of the known ones (no aliases), so
 * a misspelt {@code "invariant"} is an error instead of an expectation silently dropped.
 *
 * <p>Each model has a {@code name}, its {@code cfg} and {@code module} (relative to spec/), a
 * {@code mode}, and an {@code expected} result: {@code "ok"}, or {@code "violation"} with the
 * {@code invariant} or {@code property} TLC must name, or {@code "each-violated"} with the list of
 * {@code invariants} each of which must be violated in a run of its own (the non-vacuity checks).
 * Optional: the pinned {@code distinctStates}, {@code generate} (the generated scenarios cover the
 * model's edges), {@code inCi} (false for a model too large for CI), {@code audit} (audit checks
 * the model's invariants and properties at both revisions), {@code shortRun} (TLC's child
 * compiles with C1 alone: measured faster on this model with benchmarks/tlc-short-run), a {@code description}, and
 * figures kept for readers ({@code statesGenerated}, {@code dotEdges}, {@code workers},
 * {@code seconds}, {@code override}, {@code status}).
 */
record ModelsFile(List<Entry> entries) {

    private static final Set<String> TOP_KEYS = Set.of("tlc", "note", "models");
    private static final Set<String> ENTRY_KEYS = Set.of("name", "cfg", "module", "mode", "expected", "invariant",
            "property", "invariants", "distinctStates", "generate", "inCi", "description", "statesGenerated",
            "dotEdges", "workers", "seconds", "override", "status", "audit", "shortRun");

    /** One model's entry; {@code cfg} and {@code module} are relative to spec/. */
    record Entry(String name, String cfg, String module, Model.Expected expected, OptionalLong distinctStates,
                 String description, boolean generate, boolean inCi, boolean audit, boolean shortRun) {}

    static ModelsFile read(Path file) throws IOException {
        if (!Files.exists(file)) {
            throw new IOException(file + ": missing (it lists the models and what checking each must show)");
        }
        String text;
        try {
            text = Files.readString(file); // UTF-8, strictly: the parser would guess UTF-16 and UTF-32 from the bytes
        } catch (CharacterCodingException e) {
            throw new IOException(file + ": not UTF-8 text", e);
        }
        JsonNode root;
        try {
            ObjectMapper mapper = new ObjectMapper();
            mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            root = mapper.readTree(text);
        } catch (JsonProcessingException e) {
            var at = e.getLocation();
            String where = at == null ? "" : ":" + at.getLineNr() + ":" + at.getColumnNr();
            throw new IOException(file + where + ": not valid JSON: " + io.proofgate.text.JsonWords.of(e), e);
        }
        if (root == null || !root.isObject()) {
            throw new IOException(file + ": expected an object with \"models\"");
        }
        unknownKeys(file, "the top level", root, TOP_KEYS);
        JsonNode list = root.path("models");
        if (!list.isArray()) {
            throw new IOException(file + ": \"models\" must be a list");
        }
        List<Entry> entries = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (JsonNode node : list) {
            if (!node.isObject()) {
                throw new IOException(file + ": every model is an object, found " + node);
            }
            String name = required(file, "a model", node, "name");
            if (!name.matches("[a-z0-9][a-z0-9-]*")) {
                throw new IOException(file + ": model \"" + name + "\": a name is lower-case letters, digits and '-'");
            }
            if (!names.add(name)) {
                throw new IOException(file + ": two models are named \"" + name + "\"");
            }
            String where = "model \"" + name + "\"";
            unknownKeys(file, where, node, ENTRY_KEYS);
            String cfg = required(file, where, node, "cfg");
            String module = required(file, where, node, "module");
            String mode = required(file, where, node, "mode");
            if (!mode.equals("safety") && !mode.equals("liveness")) {
                throw new IOException(file + ": " + where + ": \"mode\" is \"safety\" or \"liveness\", not " + io.proofgate.text.Outside.excerpt(mode));
            }
            entries.add(new Entry(name, cfg, module, expected(file, where, node), distinct(file, where, node),
                    node.has("description") ? text(file, where, node, "description") : "",
                    bool(file, where, node, "generate", false), bool(file, where, node, "inCi", true),
                    bool(file, where, node, "audit", false), bool(file, where, node, "shortRun", false)));
        }
        return new ModelsFile(List.copyOf(entries));
    }

    private static Model.Expected expected(Path file, String where, JsonNode node) throws IOException {
        String result = required(file, where, node, "expected");
        return switch (result) {
            case "ok" -> {
                if (node.has("invariant") || node.has("invariants")) {
                    throw new IOException(file + ": " + where + ": expected \"ok\" names no invariant to violate");
                }
                yield new Model.Expected.Ok();
            }
            case "violation" -> {
                if (node.has("invariant") == node.has("property")) {
                    throw new IOException(file + ": " + where
                            + ": an expected violation names its \"invariant\" or its \"property\" (one of them)");
                }
                yield new Model.Expected.Violation(text(file, where, node, node.has("invariant") ? "invariant" : "property"));
            }
            case "each-violated" -> {
                JsonNode list = node.get("invariants");
                if (list == null || !list.isArray() || list.isEmpty()) {
                    throw new IOException(file + ": " + where + ": \"each-violated\" needs a non-empty list \"invariants\"");
                }
                List<String> invariants = new ArrayList<>();
                for (JsonNode invariant : list) {
                    if (!invariant.isTextual() || !invariant.asText().matches("[A-Za-z_][A-Za-z0-9_]*")) {
                        throw new IOException(file + ": " + where + ": \"invariants\" holds names, found " + invariant);
                    }
                    invariants.add(invariant.asText());
                }
                yield new Model.Expected.EachViolated(List.copyOf(invariants));
            }
            default -> throw new IOException(file + ": " + where + ": \"expected\" is \"ok\", \"violation\" or"
                    + " \"each-violated\", not \"" + result + "\"");
        };
    }

    private static OptionalLong distinct(Path file, String where, JsonNode node) throws IOException {
        JsonNode value = node.get("distinctStates");
        if (value == null || value.isNull()) {
            return OptionalLong.empty();
        }
        if (!value.canConvertToLong() || !value.isIntegralNumber() || value.asLong() < 1) {
            throw new IOException(file + ": " + where + ": \"distinctStates\" is a positive integer or null, found " + value);
        }
        return OptionalLong.of(value.asLong());
    }

    private static void unknownKeys(Path file, String where, JsonNode node, Set<String> known) throws IOException {
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String key = names.next();
            if (!known.contains(key)) {
                throw new IOException(file + ": " + where + ": unknown key " + io.proofgate.text.Outside.excerpt(key) + " (known: "
                        + String.join(", ", known.stream().sorted().toList()) + ")");
            }
        }
    }

    private static String required(Path file, String where, JsonNode node, String key) throws IOException {
        if (!node.has(key)) {
            throw new IOException(file + ": " + where + ": \"" + key + "\" is missing");
        }
        return text(file, where, node, key);
    }

    private static String text(Path file, String where, JsonNode node, String key) throws IOException {
        JsonNode value = node.get(key);
        if (!value.isTextual()) {
            throw new IOException(file + ": " + where + ": \"" + key + "\" must be a string, found " + value);
        }
        return value.asText();
    }

    private static boolean bool(Path file, String where, JsonNode node, String key, boolean otherwise) throws IOException {
        JsonNode value = node.get(key);
        if (value == null) {
            return otherwise;
        }
        if (!value.isBoolean()) {
            throw new IOException(file + ": " + where + ": \"" + key + "\" must be true or false, found " + value);
        }
        return value.asBoolean();
    }
}
