package io.proofgate.mutate;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The mutants reviewers judged equivalent to the spec (no behaviour of the models tells them
 * apart, and none could), each with the reason, read strictly from a file such as
 * {@code spec/mutants-equivalent.json}:
 * <pre>{"schema": "proofgate-mutants-equivalent/v1",
 *  "equivalent": [{"id": "3f2a…", "operator": "Validate", "change": "&lt; → &lt;=", "reason": "…"}]}</pre>
 * {@code operator} and {@code change} are for the reader; the id alone identifies the mutant.
 */
public record Equivalents(Map<String, Entry> byId) {

    public static final String SCHEMA = "proofgate-mutants-equivalent/v1";
    private static final Set<String> TOP = Set.of("schema", "note", "equivalent");
    private static final Set<String> ENTRY = Set.of("id", "operator", "change", "reason");

    public record Entry(String id, String operator, String change, String reason) {}

    public static Equivalents none() {
        return new Equivalents(Map.of());
    }

    public static Equivalents read(Path file) throws MutationException {
        String text;
        try {
            text = Files.readString(file);
        } catch (CharacterCodingException e) {
            throw new MutationException(file + ": not UTF-8 text");
        } catch (IOException e) {
            throw new MutationException(file + ": cannot read it: "
                    + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage()));
        }
        JsonNode root;
        try {
            ObjectMapper mapper = new ObjectMapper();
            mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            root = mapper.readTree(text);
        } catch (JsonProcessingException e) {
            var at = e.getLocation();
            throw new MutationException(file + (at == null ? "" : ":" + at.getLineNr() + ":" + at.getColumnNr())
                    + ": not valid JSON");
        }
        if (root == null || !root.isObject()) {
            throw new MutationException(file + ": expected an object with \"schema\" and \"equivalent\"");
        }
        keys(file, "the top level", root, TOP);
        if (!SCHEMA.equals(root.path("schema").asText(null))) {
            throw new MutationException(file + ": \"schema\" must be \"" + SCHEMA + "\"");
        }
        JsonNode list = root.path("equivalent");
        if (!list.isArray()) {
            throw new MutationException(file + ": \"equivalent\" must be a list");
        }
        Map<String, Entry> out = new LinkedHashMap<>();
        int index = 0;
        for (JsonNode node : list) {
            String where = "equivalent[" + index++ + "]";
            if (!node.isObject()) {
                throw new MutationException(file + ": " + where + " must be an object");
            }
            keys(file, where, node, ENTRY);
            String id = text(file, where, node, "id");
            if (!id.matches("[0-9a-f]{10}")) {
                throw new MutationException(file + ": " + where + ": \"id\" must be 10 lower-case hex digits, found \""
                        + id + "\"");
            }
            String reason = text(file, where, node, "reason");
            if (reason.isBlank()) {
                throw new MutationException(file + ": " + where + ": \"reason\" must say why the mutant is equivalent");
            }
            if (out.put(id, new Entry(id, node.path("operator").asText(""), node.path("change").asText(""), reason)) != null) {
                throw new MutationException(file + ": " + where + ": mutant " + id + " is listed twice");
            }
        }
        return new Equivalents(Map.copyOf(out));
    }

    private static void keys(Path file, String where, JsonNode node, Set<String> allowed) throws MutationException {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!allowed.contains(k)) {
                throw new MutationException(file + ": " + where + ": unknown key \"" + k + "\" (known: "
                        + String.join(", ", allowed.stream().sorted().toList()) + ")");
            }
        }
    }

    private static String text(Path file, String where, JsonNode node, String key) throws MutationException {
        JsonNode v = node.get(key);
        if (v == null || !v.isTextual()) {
            throw new MutationException(file + ": " + where + ": \"" + key + "\" must be a string");
        }
        return v.asText();
    }
}
