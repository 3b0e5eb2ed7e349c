package io.proofgate.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.proofgate.format.StateLine;
import io.proofgate.generate.ReplaySummary;
import io.proofgate.words.Counter;
import io.proofgate.words.ReasonFacts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A validator's replay output (protocol §5) in the words the model's outcome is stated in ({@code
 * GraphPaths.replayOutcome}): each verdict as "step=N" and its state line ({@link StateLine#text}, as the generated
 * scenarios state it), then the summary ({@link ReplaySummary#words}). A rejection's facts are the {@code name=value}
 * words that end its reason; the sentence before them is the validator's prose and not compared.
 */
final class ReplayWords {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ReplayWords() {}

    static List<String> of(String output) {
        List<String> words = new ArrayList<>();
        for (String line : output.lines().toList()) {
            if (line.isBlank()) {
                continue;
            }
            if (line.startsWith("error: ")) {
                words.add(line);
                continue;
            }
            JsonNode node;
            try {
                node = JSON.readTree(line);
            } catch (java.io.IOException e) {
                throw new AuditException("a validator printed a line that is not JSON: " + line);
            }
            String kind = node.path("kind").asText();
            if (kind.equals("summary")) {
                words.add(summary(node).words());
                continue;
            }
            String id = node.path("id").asText();
            StateLine.VerdictLine verdict =
                    switch (kind) {
                        case "plan" ->
                                new StateLine.Plan(
                                        id,
                                        node.path("digest").asText(),
                                        node.path("span").asText(),
                                        node.path("blocks_by_group").toString(),
                                        pairs(node.path("recurrent")));
                        case "rejected" ->
                                new StateLine.Rejected(
                                        id, node.path("code").asText(), ReasonFacts.of(node.path("reason").asText()));
                        case "retired" -> new StateLine.Retired(id, node.path("cause").asText());
                        case "hit" -> new StateLine.Hit(id, node.path("tokens").asText());
                        case "load" ->
                                new StateLine.Load(
                                        id,
                                        node.path("digest").asText(),
                                        node.path("span").asText(),
                                        node.path("blocks_by_group").toString());
                        default -> throw new AuditException("a validator printed a line of unknown kind: " + line);
                    };
            words.add("step=" + node.path("step").asLong() + " " + verdict.text());
        }
        return words;
    }

    private static ReplaySummary summary(JsonNode node) {
        List<String> pending = new ArrayList<>();
        node.path("pending").forEach(id -> pending.add(id.asText()));
        Map<String, String> latched = new LinkedHashMap<>();
        node.path("latched").properties().forEach(entry -> latched.put(entry.getKey(), pairs(entry.getValue())));
        JsonNode ignored = node.get(Counter.IGNORED_HELD.wireName());
        return new ReplaySummary(
                new StateLine.Counters(
                        node.path(Counter.PLANS.wireName()).asText(),
                        node.path(Counter.REJECTED.wireName()).asText(),
                        node.path(Counter.STORE_SKIPPED_QUORUM.wireName()).asText(),
                        node.path(Counter.RETIRED_FINISHED.wireName()).asText()),
                pending,
                latched,
                ignored == null ? null : ignored.asText());
    }

    /** Recurrent (group, block) pairs in order, as the model states them. */
    private static String pairs(JsonNode node) {
        List<long[]> pairs = new ArrayList<>();
        node.forEach(pair -> pairs.add(new long[] {pair.path(0).asLong(), pair.path(1).asLong()}));
        pairs.sort(Comparator.<long[]>comparingLong(p -> p[0]).thenComparingLong(p -> p[1]));
        StringBuilder text = new StringBuilder("[");
        for (int i = 0; i < pairs.size(); i++) {
            text.append(i == 0 ? "" : ",")
                    .append('[')
                    .append(pairs.get(i)[0])
                    .append(',')
                    .append(pairs.get(i)[1])
                    .append(']');
        }
        return text.append(']').toString();
    }
}
