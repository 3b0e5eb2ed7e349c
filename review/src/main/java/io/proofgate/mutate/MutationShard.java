package io.proofgate.mutate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.proofgate.check.ConfigChecks;
import io.proofgate.check.StrictJson;
import io.proofgate.shard.ShardKey;
import io.proofgate.words.Outside;
import io.proofgate.words.Sha256;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * What one shard of a mutation run found ({@code proofgate mutate --shard K/N --out FILE}), as a file {@code proofgate
 * merge-mutate} reads: the selection, every input the run read by its SHA-256 with what each model checks ({@link
 * RunInputs}), so that a merge of shards of different inputs is refused, the outcome of each mutant checked, and, when
 * {@code PROOFGATE_SHARD_KEY} was set, an HMAC of all of it. Schema {@code proofgate-mutate-shard/v3} (v1 recorded the
 * module's hash only, and a merge took any cfg behind a model's name; v2 had no state bound per model).
 *
 * @param hmac the HMAC-SHA256 of {@link #canonical()} under the shard key, or null when unsigned
 */
public record MutationShard(
        String module,
        String part,
        String operators,
        String mistakes,
        List<String> only,
        RunInputs inputs,
        int index,
        int count,
        Map<String, Outcome> outcomes,
        String hmac) {

    public static final String SCHEMA = "proofgate-mutate-shard/v3";
    private static final ObjectMapper JSON = new ObjectMapper();

    public static MutationShard of(
            MutationPlan plan, MutationPlan.Selection selection, RunInputs inputs, List<MutantResult> results) {
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        results.forEach(r -> outcomes.put(r.mutation().id(), r.outcome()));
        MutationPlan.Shard shard = selection.shard() == null ? new MutationPlan.Shard(0, 1) : selection.shard();
        return new MutationShard(
                plan.source(),
                selection.part(),
                selection.operators(),
                selection.mistakes() == null
                        ? null
                        : selection.mistakes().toString().replace(java.io.File.separatorChar, '/'),
                selection.only(),
                inputs,
                shard.index(),
                shard.count(),
                outcomes,
                null);
    }

    /** The models' names, in the run's order. */
    public List<String> models() {
        return inputs.modelNames();
    }

    /** The module's SHA-256 as the run read it. */
    public String moduleSha256() {
        return inputs.files().get(module);
    }

    /** This shard signed with {@code key}. */
    public MutationShard signed(ShardKey key) {
        return new MutationShard(
                module, part, operators, mistakes, only, inputs, index, count, outcomes, key.sign(canonical()));
    }

    /** The file's text: {@link #canonical()}'s content and, when signed, its HMAC. */
    public String toJson() {
        return write(tree(hmac));
    }

    /** The content without the HMAC, as it is signed: a shard read back gives the same text. */
    public String canonical() {
        return write(tree(null));
    }

    private ObjectNode tree(String signature) {
        ObjectNode root = JSON.createObjectNode();
        root.put("schema", SCHEMA);
        root.put("module", module);
        root.put("part", part);
        root.put("operators", operators);
        root.put("mistakes", mistakes);
        if (only == null) {
            root.putNull("only");
        } else {
            ArrayNode list = root.putArray("only");
            only.forEach(list::add);
        }
        root.put("timeout_seconds", inputs.timeoutSeconds());
        ArrayNode modelList = root.putArray("models");
        for (RunInputs.CheckedModel model : inputs.models()) {
            ObjectNode m = modelList.addObject();
            m.put("name", model.name());
            m.put("cfg", model.config());
            m.put("module", model.module());
            ArrayNode invariants = m.putArray("invariants");
            model.checks().invariants().forEach(invariants::add);
            ArrayNode properties = m.putArray("properties");
            model.checks().properties().forEach(properties::add);
            m.put("deadlock", model.checks().deadlock());
            m.put("max_states", model.maxStates());
        }
        ArrayNode files = root.putArray("inputs");
        inputs.files().forEach((path, sha) -> files.addObject().put("path", path).put("sha256", sha));
        root.put("shard", index);
        root.put("of", count);
        ArrayNode results = root.putArray("results");
        outcomes.forEach(
                (id, outcome) -> {
                    ObjectNode r = results.addObject();
                    r.put("id", id);
                    r.put("outcome", outcome.wireName());
                    switch (outcome) {
                        case Outcome.Killed k -> {
                            r.put("model", k.model());
                            r.put("by", k.by());
                        }
                        case Outcome.OverStateBound o -> r.put("model", o.model()).put("max_states", o.maxStates());
                        case Outcome.TimedOut t -> r.put("model", t.model());
                        case Outcome.NotCompilable n -> r.put("problem", n.problem());
                        case Outcome.Survived s -> {}
                    }
                });
        if (signature != null) {
            root.put("hmac", signature);
        }
        return root;
    }

    private static String write(ObjectNode root) {
        try {
            return JSON.writer().with(SerializationFeature.INDENT_OUTPUT).writeValueAsString(root) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException("a tree of strings always serialises", e);
        }
    }

    private static final Set<String> TOP =
            Set.of(
                    "schema",
                    "module",
                    "part",
                    "operators",
                    "mistakes",
                    "only",
                    "timeout_seconds",
                    "models",
                    "inputs",
                    "shard",
                    "of",
                    "results",
                    "hmac");
    private static final Set<String> MODEL =
            Set.of("name", "cfg", "module", "invariants", "properties", "deadlock", "max_states");
    private static final Set<String> INPUT = Set.of("path", "sha256");
    private static final Set<String> RESULT = Set.of("id", "outcome", "model", "by", "problem", "max_states");

    /**
     * Reads a shard file strictly ({@link StrictJson}); a file that is not one is a {@link MutationException} naming
     * it.
     */
    public static MutationShard read(Path file) throws MutationException {
        StrictJson<MutationException> doc =
                StrictJson.read(file, SCHEMA, TOP, "the keys of a mutation shard file", MutationException::new);
        JsonNode root = doc.root();
        int index = integer(doc, root, "shard");
        int count = integer(doc, root, "of");
        if (count < 1 || index < 0 || index >= count) {
            throw doc.error(root, "shard", "shard " + index + " of " + count + " is not a shard");
        }
        TreeMap<String, String> files = new TreeMap<>();
        for (JsonNode input : list(doc, root, "inputs")) {
            doc.keys("an input", input, INPUT);
            String path = text(doc, "an input", input, "path");
            String sha = text(doc, "an input", input, "sha256");
            if (!Sha256.isHash(sha)) {
                throw doc.error(
                        input,
                        "sha256",
                        "input " + Outside.quoted(path) + ": \"sha256\" is not 64 lower-case hex digits");
            }
            if (files.put(path, sha) != null) {
                throw doc.error(input, "path", "input " + Outside.quoted(path) + " is listed twice");
            }
        }
        List<RunInputs.CheckedModel> models = new ArrayList<>();
        for (JsonNode m : list(doc, root, "models")) {
            doc.keys("a model", m, MODEL);
            String name = text(doc, "a model", m, "name");
            String cfg = text(doc, "model " + Outside.quoted(name), m, "cfg");
            String module = text(doc, "model " + Outside.quoted(name), m, "module");
            for (String path : List.of(cfg, module)) {
                if (!files.containsKey(path)) {
                    throw doc.error(
                            m,
                            path.equals(cfg) ? "cfg" : "module",
                            "model " + Outside.quoted(name) + ": " + Outside.quoted(path) + " is not among the inputs");
                }
            }
            JsonNode deadlock = m.get("deadlock");
            if (deadlock == null || !deadlock.isBoolean()) {
                throw doc.error(
                        m, "deadlock", "model " + Outside.quoted(name) + ": \"deadlock\" must be true or false");
            }
            models.add(
                    new RunInputs.CheckedModel(
                            name,
                            cfg,
                            module,
                            new ConfigChecks(
                                    strings(doc, m, "invariants"), strings(doc, m, "properties"), deadlock.asBoolean()),
                            positive(doc, m, "max_states")));
        }
        if (models.stream().map(RunInputs.CheckedModel::name).distinct().count() != models.size()) {
            throw doc.error(root, "models", "a model is listed twice");
        }
        long timeout = positive(doc, root, "timeout_seconds");
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        for (JsonNode r : list(doc, root, "results")) {
            doc.keys("a result", r, RESULT);
            String id = text(doc, "a result", r, "id");
            Outcome outcome =
                    switch (text(doc, "a result", r, "outcome")) {
                        case "killed" ->
                                new Outcome.Killed(text(doc, "a result", r, "model"), text(doc, "a result", r, "by"));
                        case "survived" -> new Outcome.Survived();
                        case "over-state-bound" ->
                                new Outcome.OverStateBound(
                                        text(doc, "a result", r, "model"), positive(doc, r, "max_states"));
                        case "timed-out" -> new Outcome.TimedOut(text(doc, "a result", r, "model"));
                        case "not-compilable" -> new Outcome.NotCompilable(text(doc, "a result", r, "problem"));
                        default ->
                                throw doc.error(
                                        r, "outcome", "mutant " + Outside.quoted(id) + " has an unknown outcome");
                    };
            if (outcomes.put(id, outcome) != null) {
                throw doc.error(r, "id", "mutant " + Outside.quoted(id) + " appears twice");
            }
        }
        String module = text(doc, "the top level", root, "module");
        if (!files.containsKey(module)) {
            throw doc.error(root, "module", "the module " + Outside.quoted(module) + " is not among the inputs");
        }
        String mistakes = nullable(doc, root, "mistakes");
        if (mistakes != null && !files.containsKey(mistakes)) {
            throw doc.error(
                    root, "mistakes", "the mistakes file " + Outside.quoted(mistakes) + " is not among the inputs");
        }
        String hmac = nullable(doc, root, "hmac");
        return new MutationShard(
                module,
                nullable(doc, root, "part"),
                nullable(doc, root, "operators"),
                mistakes,
                root.path("only").isNull() ? null : strings(doc, root, "only"),
                new RunInputs(files, models, timeout),
                index,
                count,
                outcomes,
                hmac);
    }

    /**
     * Checks the shard's signature against the key of this merge: with a key, the shard must be signed with it; without
     * one, a signed shard cannot be verified, so it is refused too.
     */
    public void verify(Path file, Optional<ShardKey> key) throws MutationException {
        String refusal = ShardKey.refusal(key, hmac, "\"hmac\"", k -> k.verifies(canonical(), hmac));
        if (refusal != null) {
            throw new MutationException(shown(file) + ": " + refusal);
        }
    }

    /** The selection this shard was run with, without its shard. */
    public MutationPlan.Selection selection() {
        return new MutationPlan.Selection(part, operators, mistakes == null ? null : Path.of(mistakes), only, null);
    }

    /**
     * A string of the file. Names, paths, ids and verdicts end up in messages and in the merged report, so one that
     * holds a control or invisible character is refused (fail closed; shown escaped): only the not-compilable mutant's
     * problem, TLC's text, may hold one, and it is escaped where it is shown.
     */
    // names in messages are quoted (Outside): a name is any text, and where it ends must be clear
    private static String text(StrictJson<MutationException> doc, String where, JsonNode node, String field)
            throws MutationException {
        String value = doc.text(where, node, field);
        if (!field.equals("problem") && !Outside.holdsNoControl(value)) {
            throw doc.error(
                    node,
                    field,
                    where + ": \"" + field + "\" holds a control or invisible character: " + Outside.excerpt(value));
        }
        return value;
    }

    /** The file's name as messages show it: escaped, since it comes from the command line. */
    private static String shown(Path file) {
        return Outside.bare(file.toString());
    }

    private static String nullable(StrictJson<MutationException> doc, JsonNode node, String field)
            throws MutationException {
        return node.path(field).isNull() || node.path(field).isMissingNode()
                ? null
                : text(doc, "the top level", node, field);
    }

    private static long positive(StrictJson<MutationException> doc, JsonNode node, String field)
            throws MutationException {
        JsonNode value = node.get(field);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() < 1) {
            throw doc.error(node, field, "\"" + field + "\" is missing or not a positive integer");
        }
        return value.asLong();
    }

    private static int integer(StrictJson<MutationException> doc, JsonNode node, String field)
            throws MutationException {
        JsonNode value = node.get(field);
        if (value == null || !value.isInt()) {
            throw doc.error(node, field, "\"" + field + "\" is missing or not an integer");
        }
        return value.asInt();
    }

    private static JsonNode list(StrictJson<MutationException> doc, JsonNode node, String field)
            throws MutationException {
        JsonNode value = node.get(field);
        if (value == null || !value.isArray()) {
            throw doc.error(node, field, "\"" + field + "\" is not a list");
        }
        for (JsonNode item : value) {
            if (!item.isObject()) {
                throw doc.error(node, field, "\"" + field + "\" holds something that is not an object");
            }
        }
        return value;
    }

    private static List<String> strings(StrictJson<MutationException> doc, JsonNode node, String field)
            throws MutationException {
        JsonNode value = node.get(field);
        if (value == null || !value.isArray()) {
            throw doc.error(node, field, "\"" + field + "\" is not a list");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode item : value) {
            if (!item.isTextual()) {
                throw doc.error(node, field, "\"" + field + "\" holds a non-string");
            }
            if (!Outside.holdsNoControl(item.asText())) {
                throw doc.error(
                        node,
                        field,
                        "\""
                                + field
                                + "\" holds a name with a control or invisible character: "
                                + Outside.excerpt(item.asText()));
            }
            out.add(item.asText());
        }
        return List.copyOf(out);
    }
}
