package io.proofgate.mutate;

import io.proofgate.check.StrictJson;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one shard of a mutation run found ({@code proofgate mutate --shard K/N --out FILE}), as a
 * file {@code proofgate merge} reads: the module's hash and the selection (so that a merge of
 * shards of different specs or selections is refused), and the outcome of each mutant checked.
 * Schema {@code proofgate-mutate-shard/v1}.
 */
public record MutationShard(String module, String moduleSha256, String part, String operators, String mistakes,
                            List<String> only, List<String> models, int index, int count, Map<String, Outcome> outcomes) {

    public static final String SCHEMA = "proofgate-mutate-shard/v1";
    private static final ObjectMapper JSON = new ObjectMapper();

    public static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    public static MutationShard of(MutationPlan plan, MutationPlan.Selection selection, List<String> models,
                                   List<MutantResult> results) {
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        results.forEach(r -> outcomes.put(r.mutation().id(), r.outcome()));
        MutationPlan.Shard shard = selection.shard() == null ? new MutationPlan.Shard(0, 1) : selection.shard();
        return new MutationShard(plan.source(), sha256(plan.text()), selection.part(), selection.operators(),
                selection.mistakes() == null ? null : selection.mistakes().toString(), selection.only(), List.copyOf(models),
                shard.index(), shard.count(), outcomes);
    }

    public String toJson() {
        ObjectNode root = JSON.createObjectNode();
        root.put("schema", SCHEMA);
        root.put("module", module);
        root.put("module_sha256", moduleSha256);
        root.put("part", part);
        root.put("operators", operators);
        root.put("mistakes", mistakes);
        if (only == null) {
            root.putNull("only");
        } else {
            ArrayNode list = root.putArray("only");
            only.forEach(list::add);
        }
        ArrayNode modelList = root.putArray("models");
        models.forEach(modelList::add);
        root.put("shard", index);
        root.put("of", count);
        ArrayNode results = root.putArray("results");
        outcomes.forEach((id, outcome) -> {
            ObjectNode r = results.addObject();
            r.put("id", id);
            r.put("outcome", outcome.word());
            switch (outcome) {
                case Outcome.Killed k -> {
                    r.put("model", k.model());
                    r.put("by", k.by());
                }
                case Outcome.TimedOut t -> r.put("model", t.model());
                case Outcome.NotCompilable n -> r.put("problem", n.problem());
                case Outcome.Survived s -> { }
            }
        });
        try {
            return JSON.writer().with(SerializationFeature.INDENT_OUTPUT).writeValueAsString(root) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException("a tree of strings always serialises", e);
        }
    }

    private static final Set<String> TOP = Set.of("schema", "module", "module_sha256", "part", "operators", "mistakes", "only",
            "models", "shard", "of", "results");
    private static final Set<String> RESULT = Set.of("id", "outcome", "model", "by", "problem");

    /** Reads a shard file strictly ({@link StrictJson}); a file that is not one is a {@link MutationException} naming it. */
    public static MutationShard read(Path file) throws MutationException {
        JsonNode root = StrictJson.read(file, SCHEMA, TOP, "the keys of a mutation shard file", MutationException::new);
        List<String> models = strings(file, root, "models");
        int index = integer(file, root, "shard");
        int count = integer(file, root, "of");
        if (count < 1 || index < 0 || index >= count) {
            throw new MutationException(file + ": shard " + index + " of " + count + " is not a shard");
        }
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        JsonNode results = root.path("results");
        if (!results.isArray()) {
            throw new MutationException(file + ": \"results\" is not a list");
        }
        for (JsonNode r : results) {
            StrictJson.keys(file, "a result", r, RESULT, MutationException::new);
            String id = text(file, "a result", r, "id");
            Outcome outcome = switch (text(file, "a result", r, "outcome")) {
                case "killed" -> new Outcome.Killed(text(file, "a result", r, "model"), text(file, "a result", r, "by"));
                case "survived" -> new Outcome.Survived();
                case "timed-out" -> new Outcome.TimedOut(text(file, "a result", r, "model"));
                case "not-compilable" -> new Outcome.NotCompilable(text(file, "a result", r, "problem"));
                default -> throw new MutationException(file + ": mutant " + id + " has an unknown outcome");
            };
            if (outcomes.put(id, outcome) != null) {
                throw new MutationException(file + ": mutant " + id + " appears twice");
            }
        }
        return new MutationShard(text(file, "the top level", root, "module"), text(file, "the top level", root, "module_sha256"),
                nullable(file, root, "part"),
                nullable(file, root, "operators"), nullable(file, root, "mistakes"),
                root.path("only").isNull() ? null : strings(file, root, "only"), models, index, count, outcomes);
    }

    /** The selection this shard was run with, without its shard. */
    public MutationPlan.Selection selection() {
        return new MutationPlan.Selection(part, operators, mistakes == null ? null : Path.of(mistakes), only, null);
    }

    private static String text(Path file, String where, JsonNode node, String field) throws MutationException {
        return StrictJson.text(file, where, node, field, MutationException::new);
    }

    private static String nullable(Path file, JsonNode node, String field) throws MutationException {
        return node.path(field).isNull() || node.path(field).isMissingNode() ? null : text(file, "the top level", node, field);
    }

    private static int integer(Path file, JsonNode node, String field) throws MutationException {
        JsonNode value = node.get(field);
        if (value == null || !value.isInt()) {
            throw new MutationException(file + ": \"" + field + "\" is missing or not an integer");
        }
        return value.asInt();
    }

    private static List<String> strings(Path file, JsonNode node, String field) throws MutationException {
        JsonNode value = node.get(field);
        if (value == null || !value.isArray()) {
            throw new MutationException(file + ": \"" + field + "\" is not a list");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode item : value) {
            if (!item.isTextual()) {
                throw new MutationException(file + ": \"" + field + "\" holds a non-string");
            }
            out.add(item.asText());
        }
        return List.copyOf(out);
    }
}
