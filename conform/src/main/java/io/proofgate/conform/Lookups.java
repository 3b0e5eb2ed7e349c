package io.proofgate.conform;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.proofgate.protocol.Event.Lookup;
import io.proofgate.words.Capability;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The kit as vLLM taking an adapter's hit: a scenario's events as the adapter is sent them. vLLM takes as computed the
 * tokens the connector answered to a request's lookup, so the request's first step that follows is sent with {@code
 * external} set to the adapter's hit, {@code computed} to the tokens vLLM had plus the hit, and {@code scheduled} to
 * the rest of the prompt (a looked-up request's first step computes its prompt to the end: {@link ScenarioReader} holds
 * scenarios to that). A hit that leaves no prompt token to compute is cut to leave one, as vLLM computes the last token
 * for its logits; the kit judges such a hit unsafe ({@link RestoreSafety}). Scenarios without lookups are sent as they
 * are.
 */
final class Lookups {

    private Lookups() {}

    /** Whether event {@code k} (from 0) of the scenario is a lookup; null if it is not. */
    static Lookup lookupAt(Scenario scenario, int k) {
        if (!scenario.needs().contains(Capability.RESTORE)) {
            return null;
        }
        String line = scenario.events().get(k).line();
        if (!line.contains("\"lookup\"")) {
            return null;
        }
        try {
            JsonNode node = Json.tree(line);
            if (!"lookup".equals(node.path("kind").asText())) {
                return null;
            }
            return new Lookup(
                    node.path("id").asText(),
                    node.path("digest").asText(),
                    node.path("prompt_tokens").asLong(),
                    node.path("computed").asLong());
        } catch (JsonProcessingException e) {
            return null; // read before: a scenario's lines are JSON
        }
    }

    /**
     * The tokens the adapter's answer to a lookup gives: its hit line's for the request, 0 where it printed none (a
     * refusal), capped at what a count of tokens holds.
     */
    static long hitIn(Lookup lookup, List<Line> answer) {
        for (Line line : answer) {
            if (line instanceof Line.Hit hit && hit.id().equals(lookup.id())) {
                return hit.count(); // beyond 64 bits: judged unsafe, sent as the whole prompt less one token
            }
        }
        return 0;
    }

    /** The hits of a transcript's lookups, by request (the last lookup of a request counts). */
    static Map<String, Long> hits(Scenario scenario, Transcript said) {
        Map<String, Long> hits = new HashMap<>();
        for (int k = 0; k < said.events().size(); k++) {
            Lookup lookup = lookupAt(scenario, k);
            if (lookup != null) {
                hits.put(lookup.id(), hitIn(lookup, said.events().get(k)));
            }
        }
        return hits;
    }

    /**
     * Event {@code k} as the adapter is sent it, given the hits answered before it: a step's new request that was
     * looked up gets the adapter's hit.
     */
    static String sent(Scenario scenario, int k, Map<String, Lookup> lookedUp, Map<String, Long> hits) {
        String line = scenario.events().get(k).line();
        if (lookedUp.isEmpty() || !line.contains("\"new\"")) {
            return line;
        }
        try {
            JsonNode node = Json.tree(line);
            if (!"step".equals(node.path("kind").asText()) || !node.path("new").isArray()) {
                return line;
            }
            boolean changed = false;
            for (int i = 0; i < node.path("new").size(); i++) {
                JsonNode request = node.path("new").get(i);
                Lookup lookup = lookedUp.get(request.path("id").asText());
                if (lookup != null && request.isObject()) {
                    ((com.fasterxml.jackson.databind.node.ArrayNode) node.get("new"))
                            .set(i, taken((ObjectNode) request, lookup, hits.getOrDefault(lookup.id(), 0L)));
                    lookedUp.remove(lookup.id()); // its first step only
                    changed = true;
                }
            }
            return changed ? Json.write(node) : line;
        } catch (JsonProcessingException e) {
            return line;
        }
    }

    /** A new request as vLLM schedules it with the hit: external, computed and the rest of its prompt. */
    private static ObjectNode taken(ObjectNode request, Lookup lookup, long hit) {
        long end = lookup.promptTokens();
        long tokens = Math.max(0, Math.min(hit, end - 1 - lookup.computed()));
        ObjectNode taken = request.objectNode();
        request.fields()
                .forEachRemaining(
                        field -> {
                            switch (field.getKey()) {
                                case "computed" -> {
                                    taken.put("computed", lookup.computed() + tokens);
                                    if (tokens > 0) {
                                        taken.put("external", tokens);
                                    }
                                }
                                case "external" -> {}
                                case "scheduled" -> taken.put("scheduled", end - lookup.computed() - tokens);
                                default -> taken.set(field.getKey(), field.getValue());
                            }
                        });
        return taken;
    }

    /** Every event of the scenario's first {@code prefix} as the adapter was sent them, given its answers. */
    static List<String> sent(Scenario scenario, int prefix, Transcript said) {
        List<String> lines = new ArrayList<>(prefix);
        Map<String, Lookup> lookedUp = new HashMap<>();
        Map<String, Long> hits = new HashMap<>();
        for (int k = 0; k < prefix; k++) {
            lines.add(sent(scenario, k, lookedUp, hits));
            Lookup lookup = lookupAt(scenario, k);
            if (lookup != null) {
                lookedUp.put(lookup.id(), lookup);
                hits.put(lookup.id(), k < said.events().size() ? hitIn(lookup, said.events().get(k)) : 0);
            }
        }
        return lines;
    }
}
