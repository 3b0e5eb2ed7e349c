package io.proofgate.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.proofgate.words.Counter;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A validator's replay output (protocol §5) in the words the model's outcome is stated in ({@code
 * GraphPaths.replayOutcome}): each verdict as "step=N" and its script line, then the summary. A rejection's facts are
 * the {@code name=value} words that end its reason, as the generated scenarios read them; the sentence before them is
 * the validator's prose and not compared.
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
            words.add(
                    switch (kind) {
                        case "plan" ->
                                "step="
                                        + node.path("step").asLong()
                                        + " plan "
                                        + node.path("id").asText()
                                        + " digest="
                                        + node.path("digest").asText()
                                        + " span="
                                        + node.path("span").asText()
                                        + " blocks="
                                        + node.path("blocks_by_group")
                                        + " recurrent="
                                        + pairs(node.path("recurrent"));
                        case "rejected" ->
                                "step="
                                        + node.path("step").asLong()
                                        + " rejected "
                                        + node.path("id").asText()
                                        + " code="
                                        + node.path("code").asText()
                                        + io.proofgate.words.ReasonFacts.words(node.path("reason").asText());
                        case "retired" ->
                                "step="
                                        + node.path("step").asLong()
                                        + " retired "
                                        + node.path("id").asText()
                                        + " cause="
                                        + node.path("cause").asText();
                        case "summary" -> summary(node);
                        default -> throw new AuditException("a validator printed a line of unknown kind: " + line);
                    });
        }
        return words;
    }

    private static String summary(JsonNode node) {
        List<String> pending = new ArrayList<>();
        node.path("pending").forEach(id -> pending.add(id.asText()));
        StringBuilder latched = new StringBuilder("{");
        node.path("latched")
                .properties()
                .forEach(
                        entry ->
                                latched.append(latched.length() > 1 ? "," : "")
                                        .append(entry.getKey())
                                        .append(':')
                                        .append(pairs(entry.getValue())));
        return "summary "
                + Counter.PLANS.wireName()
                + "="
                + node.path(Counter.PLANS.wireName()).asText()
                + " "
                + Counter.REJECTED.wireName()
                + "="
                + node.path(Counter.REJECTED.wireName()).asText()
                + " "
                + Counter.STORE_SKIPPED_QUORUM.wireName()
                + "="
                + node.path(Counter.STORE_SKIPPED_QUORUM.wireName()).asText()
                + " "
                + Counter.RETIRED_FINISHED.wireName()
                + "="
                + node.path(Counter.RETIRED_FINISHED.wireName()).asText()
                + " pending="
                + String.join(",", pending)
                + " latched="
                + latched.append('}')
                + (node.has(Counter.IGNORED_HELD.wireName())
                        ? " "
                                + Counter.IGNORED_HELD.wireName()
                                + "="
                                + node.path(Counter.IGNORED_HELD.wireName()).asText()
                        : "");
    }

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
