package io.proofgate.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@code spec/models.json}: per config, what checking it must show. Each entry has {@code config}
 * (relative to spec/), {@code expected} ({@code "ok"} or {@code "violation"}), for a violation
 * the {@code invariant} (or {@code property}) TLC must name, and optionally the pinned
 * {@code distinct_states}, a {@code description}, and {@code generate: true} for the models whose
 * edges the generated tests cover.
 */
record ModelsFile(List<Entry> entries) {

    /** {@code generate}: {@code proofgate generate} covers this model's edges with tests. */
    record Entry(String config, Model.Expected expected, OptionalLong distinctStates, String description,
                 boolean generate) {}

    static ModelsFile read(Path file) throws IOException {
        if (!Files.exists(file)) {
            return new ModelsFile(List.of());
        }
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new IOException(file + ": not valid JSON: " + e.getMessage(), e);
        }
        JsonNode list = root.isArray() ? root : root.path("models");
        if (!list.isArray()) {
            throw new IOException(file + ": expected a list of models (or {\"models\": [...]})");
        }
        List<Entry> entries = new ArrayList<>();
        for (JsonNode node : list) {
            String config = text(node, "config", "cfg", "file");
            if (config == null) {
                throw new IOException(file + ": a model entry has no \"config\": " + node);
            }
            String result = Optional.ofNullable(text(node, "expected", "result", "expect")).orElse("ok");
            Model.Expected expected = switch (result) {
                case "ok", "pass", "no error" -> new Model.Expected.Ok();
                case "violation", "safety failure", "liveness failure", "error" ->
                        new Model.Expected.Violation(Optional.ofNullable(text(node, "invariant", "property", "violated")));
                default -> throw new IOException(file + ": model " + config + ": unknown expected result \"" + result + "\"");
            };
            JsonNode distinct = first(node, "distinct_states", "distinctStates");
            entries.add(new Entry(config, expected,
                    distinct != null && distinct.canConvertToLong() ? OptionalLong.of(distinct.asLong()) : OptionalLong.empty(),
                    Optional.ofNullable(text(node, "description", "comment", "purpose")).orElse(""),
                    node.path("generate").asBoolean(false)));
        }
        return new ModelsFile(List.copyOf(entries));
    }

    Optional<Entry> entryFor(Path specDir, Path config) throws IOException {
        Path wanted = config.toAbsolutePath().normalize();
        for (Entry entry : entries) {
            if (specDir.resolve(entry.config()).toAbsolutePath().normalize().equals(wanted)) {
                return Optional.of(entry);
            }
        }
        return Optional.empty();
    }

    private static JsonNode first(JsonNode node, String... names) {
        for (String name : names) {
            if (node.hasNonNull(name)) {
                return node.get(name);
            }
        }
        return null;
    }

    private static String text(JsonNode node, String... names) {
        JsonNode value = first(node, names);
        return value == null ? null : value.asText();
    }
}
