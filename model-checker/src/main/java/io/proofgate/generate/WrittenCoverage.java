package io.proofgate.generate;

import io.proofgate.graph.Edge;
import io.proofgate.graph.StateGraph;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Counts the edges that written scenario files take, by reading the files back and walking each
 * scenario's event lines on the state graph from its initial state. It shares nothing with the
 * cover but the edge labels, so a cover that missed an edge, or a writer that dropped or garbled
 * a scenario, shows as an edge not covered or as an error.
 */
final class WrittenCoverage {

    private static final Pattern STEP_NUMBER = Pattern.compile("^\\{\"kind\":\"step\",\"step\":\\d+,");

    /** Edges taken and steps walked by the scenarios of the files. */
    record Count(int edges, int scenarios, long steps) {}

    private WrittenCoverage() {}

    static Count count(StateGraph graph, Map<String, String> files) {
        long initial = graph.initialStates().getFirst();
        Map<Long, Map<String, Edge>> byLabel = new HashMap<>();
        Set<Edge> taken = new HashSet<>();
        int scenarios = 0;
        long steps = 0;
        for (var file : files.entrySet()) {
            long at = 0;
            boolean inScenario = false;
            List<String> lines = file.getValue().lines().toList();
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.startsWith("scenario ")) {
                    at = initial;
                    inScenario = true;
                    scenarios++;
                } else if (line.startsWith("event ")) {
                    if (!inScenario) {
                        throw new GenerationException(file.getKey() + ":" + (i + 1) + ": an event before any scenario line");
                    }
                    String label = STEP_NUMBER.matcher(line.substring("event ".length())).replaceFirst("{\"kind\":\"step\",");
                    long from = at;
                    Edge edge = byLabel.computeIfAbsent(from, id -> labels(graph, id)).get(label);
                    if (edge == null) {
                        throw new GenerationException(file.getKey() + ":" + (i + 1)
                                + ": the event is not an edge of the state graph from the scenario's state before it");
                    }
                    taken.add(edge);
                    steps++;
                    at = edge.to();
                }
            }
        }
        return new Count(taken.size(), scenarios, steps);
    }

    private static Map<String, Edge> labels(StateGraph graph, long state) {
        Map<String, Edge> out = new HashMap<>();
        for (Edge e : graph.outgoing(state)) {
            out.putIfAbsent(Script.label(graph, e), e);
        }
        return out;
    }
}
