package io.proofgate.conform;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import io.proofgate.format.StateLine;
import io.proofgate.words.Capability;
import io.proofgate.words.ConnectorPolicy;
import io.proofgate.words.CopyTiming;
import io.proofgate.words.Counter;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads one line an adapter printed (or one line of a hand-written scenario's {@code .expected} file, which is {@code
 * replay}'s output) into a {@link Line}. Anything that is not a well-formed answer is an {@link AdapterException}
 * naming what is wrong; fields the protocol does not name are ignored, fields it names must have their types.
 */
final class AnswerReader {

    private AnswerReader() {}

    static Line read(String text) throws AdapterException {
        JsonNode node;
        try {
            node = Json.tree(text);
        } catch (JsonProcessingException e) {
            if (String.valueOf(e.getOriginalMessage()).startsWith("Duplicate field")) {
                throw new AdapterException("printed an object with a key twice: " + Json.excerpt(text));
            }
            // in the project's words: the parser's own quote the line raw and name its classes
            throw new AdapterException(
                    "printed a line that is not JSON ("
                            + io.proofgate.json.JsonWords.of(e)
                            + "): "
                            + Json.excerpt(text));
        }
        if (node == null || !node.isObject()) {
            throw new AdapterException("printed a line that is not a JSON object: " + Json.excerpt(text));
        }
        JsonNode kind = node.get("kind");
        if (kind == null || !kind.isTextual()) {
            throw new AdapterException("printed an object without a string \"kind\": " + Json.excerpt(text));
        }
        return switch (kind.asText()) {
            case "plan" -> plan(node, text);
            case "saved" ->
                    new Line.Saved(
                            string(node, "id", text),
                            integer(node, "step", text),
                            string(node, "digest", text),
                            integer(node, "span", text));
            case "rejected" -> rejected(node, text);
            case "hit" -> new Line.Hit(string(node, "id", text), integer(node, "step", text), tokens(node, text));
            case "load" ->
                    new Line.Load(
                            string(node, "id", text),
                            integer(node, "step", text),
                            string(node, "digest", text),
                            integer(node, "span", text),
                            integerLists(node, "blocks_by_group", -1, text));
            case "retired" ->
                    new Line.Retired(
                            string(node, "id", text),
                            integer(node, "step", text),
                            known(string(node, "cause", text), CAUSES, "a retirement whose cause", text));
            case "state" -> state(node, text);
            case "summary" -> summary(node, text);
            case "error" -> new Line.Refused(string(node, "message", text));
            case "not_applicable" -> new Line.NotApplicable(string(node, "reason", text));
            case "end" -> new Line.End();
            case "hello" -> hello(node, text);
            case "namespace" -> namespace(node, text);
            default ->
                    throw new AdapterException(
                            "printed a line of unknown kind "
                                    + io.proofgate.words.Outside.quoted(kind.asText())
                                    + " (an answer holds plan, saved, rejected, retired, hit, load, state, summary,"
                                    + " error and end lines): "
                                    + Json.excerpt(text));
        };
    }

    /** A hit's tokens: a count, never below 0. */
    private static String tokens(JsonNode node, String text) throws AdapterException {
        String tokens = integer(node, "tokens", text);
        if (tokens.startsWith("-")) {
            throw new AdapterException("printed a hit of fewer than 0 tokens: " + Json.excerpt(text));
        }
        return tokens;
    }

    private static Line.Plan plan(JsonNode node, String text) throws AdapterException {
        CopyTiming copy = CopyTiming.IN_STEP;
        if (node.has("copy")) {
            String named = string(node, "copy", text);
            copy =
                    CopyTiming.of(named)
                            .orElseThrow(
                                    () ->
                                            new AdapterException(
                                                    "printed a plan whose \"copy\" is neither in_step"
                                                            + " nor async: "
                                                            + Json.excerpt(text)));
        }
        boolean pinned = false;
        if (node.has("pinned")) {
            if (!node.get("pinned").isBoolean()) {
                throw new AdapterException(
                        "printed a plan whose \"pinned\" is not true or false: " + Json.excerpt(text));
            }
            pinned = node.get("pinned").booleanValue();
            if (pinned && copy != CopyTiming.ASYNC) {
                // a copy in the step needs no pin; one claimed there says the adapter means another copy
                throw new AdapterException(
                        "printed a plan pinned for a copy in its step (a pin holds blocks for an async"
                                + " copy only): "
                                + Json.excerpt(text));
            }
        }
        return new Line.Plan(
                string(node, "id", text),
                integer(node, "step", text),
                string(node, "digest", text),
                integer(node, "span", text),
                integerLists(node, "blocks_by_group", -1, text),
                integerLists(node, "recurrent", 2, text),
                copy,
                pinned);
    }

    private static Line.Rejected rejected(JsonNode node, String text) throws AdapterException {
        String reason = node.has("reason") ? string(node, "reason", text) : "";
        Map<String, String> integers = new TreeMap<>();
        for (String field : FIELDS_OF_REASON) {
            if (node.has(field)) {
                integers.put(field, integer(node, field, text));
            }
        }
        return rejected(
                string(node, "id", text),
                integer(node, "step", text),
                code(string(node, "code", text), text),
                reason,
                integers);
    }

    /**
     * A connector's reason of its own (for example no boundary mapping from vLLM) is its behaviour, judged like any
     * verdict; it must be one word, so that a line's words cannot read it as a code and its facts.
     */
    private static final java.util.regex.Pattern OWN_CODE = java.util.regex.Pattern.compile("[a-z][a-z0-9_]{0,63}");

    private static String code(String value, String text) throws AdapterException {
        if (!CODES.contains(value) && !OWN_CODE.matcher(value).matches()) {
            throw new AdapterException(
                    "printed a rejection whose code is neither one of "
                            + String.join(", ", new java.util.TreeSet<>(CODES))
                            + " nor a word of its own (lower-case letters, digits and underscores,"
                            + " at most 64): "
                            + Json.excerpt(text));
        }
        return value;
    }

    /**
     * The codes of protocol section 3 and the causes of a retirement: a line's words join its fields, so a code that is
     * not one (a code with its facts written into it, say) could read as a code and its facts, and must be refused,
     * never compared.
     */
    static final Set<String> CODES =
            java.util.Arrays.stream(io.proofgate.words.PoisonCode.values())
                    .map(io.proofgate.words.PoisonCode::wireName)
                    .collect(java.util.stream.Collectors.toUnmodifiableSet());

    static final Set<String> CAUSES =
            java.util.Arrays.stream(io.proofgate.words.RetireCause.values())
                    .map(io.proofgate.words.RetireCause::wireName)
                    .collect(java.util.stream.Collectors.toUnmodifiableSet());

    private static String known(String value, Set<String> allowed, String what, String text) throws AdapterException {
        if (!allowed.contains(value)) {
            throw new AdapterException(
                    "printed "
                            + what
                            + " is none of "
                            + String.join(", ", new java.util.TreeSet<>(allowed))
                            + ": "
                            + Json.excerpt(text));
        }
        return value;
    }

    /** The fields of a rejected line that its reason states too. */
    private static final List<String> FIELDS_OF_REASON = List.of("observed", "target", "group", "block");

    /** A rejected line from its fields: {@code integers} holds those of {@link #FIELDS_OF_REASON} it has, as text. */
    static Line.Rejected rejected(String id, String step, String code, String reason, Map<String, String> integers) {
        List<String> facts = io.proofgate.words.ReasonFacts.of(reason);
        StringBuilder disagreement = new StringBuilder();
        for (String field : FIELDS_OF_REASON) {
            String value = integers.get(field);
            String fact = null;
            for (String word : facts) {
                if (word.startsWith(field + "=")) {
                    fact = word.substring(field.length() + 1);
                }
            }
            if (!java.util.Objects.equals(value, fact)) {
                disagreement.append(" field-").append(field).append('=').append(value);
            }
        }
        return new Line.Rejected(id, step, code, facts, disagreement.toString(), reason);
    }

    private static Line.State state(JsonNode node, String text) throws AdapterException {
        List<StateLine> lines = new ArrayList<>();
        JsonNode pending = array(node, "pending", text);
        Map<String, StateLine> stores = new TreeMap<>();
        for (JsonNode store : pending) {
            if (!store.isObject()) {
                throw new AdapterException(
                        "printed a state whose \"pending\" holds a non-object: " + Json.excerpt(text));
            }
            String id = string(store, "id", text);
            if (stores.containsKey(id)) {
                throw new AdapterException(
                        "printed a state with two pending stores of request "
                                + io.proofgate.words.Outside.quoted(id)
                                + ": "
                                + Json.excerpt(text));
            }
            stores.put(
                    id,
                    new StateLine.Pending(
                            id,
                            integer(store, "done", text),
                            integerLists(store, "table", -1, text),
                            sortedPairs(store, "latch", text)));
        }
        if (stores.isEmpty()) {
            lines.add(new StateLine.NoPending());
        }
        lines.addAll(stores.values());
        JsonNode held = node.get("held");
        if (held == null || !held.isObject()) {
            throw new AdapterException("printed a state without a \"held\" object: " + Json.excerpt(text));
        }
        Map<String, StateLine> digests = new TreeMap<>();
        for (var entry : held.properties()) {
            List<java.math.BigInteger> ranks = new ArrayList<>();
            if (!entry.getValue().isArray()) {
                throw new AdapterException(
                        "printed a state whose held digest is not a list of ranks: " + Json.excerpt(text));
            }
            for (JsonNode rank : entry.getValue()) {
                if (!rank.isIntegralNumber()) {
                    throw new AdapterException(
                            "printed a state with a rank that is not an integer: " + Json.excerpt(text));
                }
                ranks.add(rank.bigIntegerValue());
            }
            ranks.sort(null);
            if (!ranks.isEmpty()) {
                digests.put(entry.getKey(), new StateLine.Held(entry.getKey(), ranks.toString().replace(" ", "")));
            }
        }
        lines.addAll(digests.values());
        JsonNode counters = node.get("counters");
        if (counters == null || !counters.isObject()) {
            throw new AdapterException("printed a state without a \"counters\" object: " + Json.excerpt(text));
        }
        lines.add(counters(counters, text));
        return new Line.State(lines);
    }

    /** The four counters, named as the wire names them, in a state's {@code counters} object or a summary. */
    private static StateLine.Counters counters(JsonNode node, String text) throws AdapterException {
        return new StateLine.Counters(
                integer(node, Counter.PLANS.wireName(), text),
                integer(node, Counter.REJECTED.wireName(), text),
                integer(node, Counter.STORE_SKIPPED_QUORUM.wireName(), text),
                integer(node, Counter.RETIRED_FINISHED.wireName(), text));
    }

    private static Line.Summary summary(JsonNode node, String text) throws AdapterException {
        List<String> pending = new ArrayList<>();
        for (JsonNode id : array(node, "pending", text)) {
            if (!id.isTextual()) {
                throw new AdapterException(
                        "printed a summary whose \"pending\" holds a non-string: " + Json.excerpt(text));
            }
            pending.add(id.asText());
        }
        JsonNode latched = node.get("latched");
        if (latched == null || !latched.isObject()) {
            throw new AdapterException("printed a summary without a \"latched\" object: " + Json.excerpt(text));
        }
        TreeMap<String, String> latches = new TreeMap<>();
        for (var entry : latched.properties()) {
            latches.put(entry.getKey(), sortedPairs(latched, entry.getKey(), text));
        }
        return new Line.Summary(
                counters(node, text),
                node.has(Counter.IGNORED_HELD.wireName()) ? integer(node, Counter.IGNORED_HELD.wireName(), text) : "0",
                List.copyOf(pending),
                latches);
    }

    /** The most names one probe's answer may give, and the most hex digits of one value (docs/conformance.md). */
    static final int MAX_NAMES = 32;

    static final int MAX_HEX_DIGITS = 8192;

    private static Line.Namespace namespace(JsonNode node, String text) throws AdapterException {
        JsonNode values = node.get("values");
        if (values == null || !values.isObject()) {
            throw new AdapterException("printed a namespace line without a \"values\" object: " + Json.excerpt(text));
        }
        if (values.size() > MAX_NAMES) {
            throw new AdapterException(
                    "printed a namespace line with "
                            + values.size()
                            + " names (at most "
                            + MAX_NAMES
                            + "): "
                            + Json.excerpt(text));
        }
        TreeMap<String, String> named = new TreeMap<>();
        for (var entry : values.properties()) {
            if (!entry.getKey().matches("[a-z][a-z0-9_.-]{0,63}")) {
                throw new AdapterException(
                        "printed a namespace value named "
                                + io.proofgate.words.Outside.quoted(entry.getKey())
                                + " (a name is 1 to 64 of a-z, 0-9, _, ., -, starting with a letter)");
            }
            JsonNode value = entry.getValue();
            if (!value.isTextual()
                    || value.asText().length() > MAX_HEX_DIGITS
                    || !value.asText().matches("([0-9a-f]{2})*")) {
                throw new AdapterException(
                        "printed namespace value "
                                + io.proofgate.words.Outside.quoted(entry.getKey())
                                + " that is not lowercase"
                                + " hex of even length, at most "
                                + MAX_HEX_DIGITS
                                + " digits: "
                                + Json.excerpt(text));
            }
            named.put(entry.getKey(), value.asText());
        }
        return new Line.Namespace(named);
    }

    private static Line.Hello hello(JsonNode node, String text) throws AdapterException {
        Set<Capability> capabilities = EnumSet.noneOf(Capability.class);
        for (JsonNode capability : array(node, "capabilities", text)) {
            if (!capability.isTextual()) {
                throw new AdapterException("declared a capability that is not a string: " + Json.excerpt(text));
            }
            capabilities.add(
                    Capability.of(capability.asText())
                            .orElseThrow(
                                    () ->
                                            new AdapterException(
                                                    "declared an unknown capability "
                                                            + io.proofgate.words.Outside.quoted(capability.asText())
                                                            + " (known: "
                                                            + String.join(
                                                                    ", ",
                                                                    java.util.Arrays.stream(Capability.values())
                                                                            .map(Capability::wireName)
                                                                            .toList())
                                                            + ")")));
        }
        String implementation = node.has("implementation") ? string(node, "implementation", text) : "unnamed";
        ConnectorPolicy policy = ConnectorPolicy.LATCH_AT_TARGET;
        if (node.has("connector_policy")) {
            String named = string(node, "connector_policy", text);
            policy =
                    ConnectorPolicy.of(named)
                            .orElseThrow(
                                    () ->
                                            new AdapterException(
                                                    "declared an unknown connector policy "
                                                            + io.proofgate.words.Outside.quoted(named)
                                                            + " (known: "
                                                            + String.join(
                                                                    ", ",
                                                                    java.util.Arrays.stream(ConnectorPolicy.values())
                                                                            .map(ConnectorPolicy::wireName)
                                                                            .toList())
                                                            + ")"));
        }
        return new Line.Hello(string(node, "protocol", text), implementation, capabilities, policy);
    }

    /** What a message calls the object a field is missing from: a line by its kind, or a part of a state line. */
    private static final Set<String> KINDS =
            Set.of(
                    "plan",
                    "saved",
                    "rejected",
                    "retired",
                    "hit",
                    "load",
                    "state",
                    "summary",
                    "error",
                    "end",
                    "hello",
                    "namespace",
                    "not_applicable");

    private static String where(JsonNode node) {
        if (node.has("kind")) {
            String kind = node.path("kind").asText();
            // an object nested in a line may carry any "kind": only a kind of the protocol is named bare
            return KINDS.contains(kind) ? "a " + kind + " line" : "an object of kind " + Json.excerpt(kind);
        }
        return node.has("id") ? "a state line with a pending store" : "a state or summary line with an object";
    }

    private static String string(JsonNode node, String field, String text) throws AdapterException {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new AdapterException(
                    "printed " + where(node) + " without a string " + Json.excerpt(field) + ": " + Json.excerpt(text));
        }
        return value.asText();
    }

    private static String integer(JsonNode node, String field, String text) throws AdapterException {
        JsonNode value = node.get(field);
        if (value == null || !value.isIntegralNumber()) {
            throw new AdapterException(
                    "printed "
                            + where(node)
                            + " without an integer "
                            + Json.excerpt(field)
                            + ": "
                            + Json.excerpt(text));
        }
        return value.asText();
    }

    private static JsonNode array(JsonNode node, String field, String text) throws AdapterException {
        JsonNode value = node.get(field);
        if (value == null || !value.isArray()) {
            throw new AdapterException(
                    "printed " + where(node) + " without a list " + Json.excerpt(field) + ": " + Json.excerpt(text));
        }
        return value;
    }

    /** A list of lists of integers, each {@code width} long unless it is -1, as compact JSON. */
    private static String integerLists(JsonNode node, String field, int width, String text) throws AdapterException {
        JsonNode lists = array(node, field, text);
        for (JsonNode list : lists) {
            boolean ok = list.isArray() && (width < 0 || list.size() == width);
            for (JsonNode element : list) {
                ok &= element.isIntegralNumber();
            }
            if (!ok) {
                throw new AdapterException(
                        "printed "
                                + where(node)
                                + " whose \""
                                + field
                                + "\" is not a list of "
                                + (width < 0 ? "lists of integers" : "[group, block] pairs")
                                + ": "
                                + Json.excerpt(text));
            }
        }
        return lists.toString();
    }

    /** [group, block] pairs in order of group then block: a latch is a set. */
    private static String sortedPairs(JsonNode node, String field, String text) throws AdapterException {
        integerLists(node, field, 2, text);
        List<JsonNode> pairs = new ArrayList<>();
        node.get(field).forEach(pairs::add);
        pairs.sort(
                (a, b) -> {
                    int byGroup = a.get(0).bigIntegerValue().compareTo(b.get(0).bigIntegerValue());
                    return byGroup != 0 ? byGroup : a.get(1).bigIntegerValue().compareTo(b.get(1).bigIntegerValue());
                });
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < pairs.size(); i++) {
            out.append(i == 0 ? "" : ",").append(pairs.get(i).toString());
        }
        return out.append(']').toString();
    }
}
