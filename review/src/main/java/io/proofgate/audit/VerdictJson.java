package io.proofgate.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.proofgate.format.StateLine;

/**
 * A spec verdict's script line ("rejected r1 code=empty", "plan r1 digest=d1 span=6912 blocks=[[1001]]
 * recurrent=[[1,1015]]") in replay's JSON shape: kind, step, id, then the line's fields in its order, numbers and lists
 * as JSON. The line is read by {@link StateLine}, whose syntax it is.
 */
final class VerdictJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private VerdictJson() {}

    static ObjectNode of(String line, long step) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        switch (StateLine.read("a spec verdict", 1, line)) {
            case StateLine.Plan plan -> {
                start(node, "plan", step, plan.id());
                put(node, "digest", plan.digest(), line);
                put(node, "span", plan.span(), line);
                put(node, "blocks_by_group", plan.blocks(), line);
                put(node, "recurrent", plan.recurrent(), line);
            }
            case StateLine.Rejected rejected -> {
                start(node, "rejected", step, rejected.id());
                put(node, "code", rejected.code(), line);
                for (String fact : rejected.facts()) {
                    int equals = fact.indexOf('=');
                    put(node, fact.substring(0, Math.max(0, equals)), fact.substring(equals + 1), line);
                }
            }
            case StateLine.Retired retired -> {
                start(node, "retired", step, retired.id());
                put(node, "cause", retired.cause(), line);
            }
            case StateLine.Hit hit -> {
                start(node, "hit", step, hit.id());
                put(node, "tokens", hit.tokens(), line);
            }
            case StateLine.Load load -> {
                start(node, "load", step, load.id());
                put(node, "digest", load.digest(), line);
                put(node, "span", load.span(), line);
                put(node, "blocks_by_group", load.blocks(), line);
            }
            default -> throw new IllegalStateException("not a verdict line: " + line);
        }
        return node;
    }

    private static void start(ObjectNode node, String kind, long step, String id) {
        node.put("kind", kind);
        node.put("step", step);
        node.put("id", id);
    }

    /** A field's text as JSON: a list as itself, an integer as a number, anything else as a string. */
    private static void put(ObjectNode node, String field, String value, String line) {
        if (value.startsWith("[")) {
            try {
                node.set(field, JSON.readTree(value));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("a list in a verdict line is not JSON: " + line, e);
            }
        } else if (value.matches("-?\\d{1,18}")) {
            node.put(field, Long.parseLong(value));
        } else {
            node.put(field, value);
        }
    }
}
