package io.proofgate.mutate;

import com.fasterxml.jackson.databind.JsonNode;

import io.proofgate.check.StrictJson;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The mutants reviewers judged equivalent to the spec (no behaviour of the models tells them apart, and none could),
 * each with the reason, read strictly from a file such as {@code spec/mutants-equivalent.json}:
 *
 * <pre>{"schema": "proofgate-mutants-equivalent/v1",
 *  "equivalent": [{"id": "3f2a…", "operator": "Validate", "change": "&lt; → &lt;=", "reason": "…"}]}</pre>
 *
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
        StrictJson<MutationException> doc =
                StrictJson.read(file, SCHEMA, TOP, "\"schema\" and \"equivalent\"", MutationException::new);
        JsonNode list = doc.root().path("equivalent");
        if (!list.isArray()) {
            throw doc.error(doc.root(), "equivalent", "\"equivalent\" must be a list");
        }
        Map<String, Entry> out = new LinkedHashMap<>();
        for (int index = 0; index < list.size(); index++) {
            JsonNode node = list.get(index);
            String where = "equivalent[" + index + "]";
            if (!node.isObject()) {
                throw doc.error(list, String.valueOf(index), where + " must be an object");
            }
            doc.keys(where, node, ENTRY);
            String id = doc.text(where, node, "id");
            if (!id.matches("[0-9a-f]{10}")) {
                throw doc.error(node, "id", where + ": \"id\" must be 10 lower-case hex digits, found \"" + id + "\"");
            }
            String reason = doc.text(where, node, "reason");
            if (reason.isBlank()) {
                throw doc.error(node, "reason", where + ": \"reason\" must say why the mutant is equivalent");
            }
            if (out.put(id, new Entry(id, node.path("operator").asText(""), node.path("change").asText(""), reason))
                    != null) {
                throw doc.error(node, "id", where + ": mutant " + id + " is listed twice");
            }
        }
        return new Equivalents(Map.copyOf(out));
    }
}
