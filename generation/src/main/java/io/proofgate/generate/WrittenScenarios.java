package io.proofgate.generate;

import io.proofgate.format.ScenarioBlock;
import io.proofgate.format.ScenarioFormatException;
import io.proofgate.format.ScenarioStep;
import io.proofgate.graph.Edge;
import io.proofgate.graph.StateGraph;
import io.proofgate.words.EventObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Scenario files read back: each scenario's file, name, id, text and event labels, and walks of its events on a state
 * graph. Used to count what the written files cover, and to compare the scenarios of two revisions of a spec ({@link
 * Locality}).
 */
final class WrittenScenarios {

    /** One written scenario; {@code labels} are its events without step numbers, as edges are labelled. */
    record Written(String file, String name, String id, String text, List<String> labels, List<Integer> eventLines) {}

    private WrittenScenarios() {}

    static List<Written> read(Map<String, String> files) {
        List<Written> all = new ArrayList<>();
        for (var file : files.entrySet()) {
            List<ScenarioBlock> scenarios;
            try {
                scenarios = ScenarioBlock.split(file.getKey(), file.getValue().lines().toList());
            } catch (ScenarioFormatException e) {
                throw new GenerationException(e.getMessage());
            }
            for (ScenarioBlock scenario : scenarios) {
                List<String> labels = new ArrayList<>();
                List<Integer> at = new ArrayList<>();
                for (ScenarioStep step : scenario.steps()) {
                    String event = EventObject.withoutStep(step.event());
                    boolean contents =
                            step.expected().size() == 1 && step.expected().getFirst().startsWith("contents ");
                    labels.add(contents ? Script.label(event, step.expected().getFirst()) : event);
                    at.add(step.line());
                }
                String name = scenario.name();
                all.add(
                        new Written(
                                file.getKey(),
                                name,
                                name.substring(name.lastIndexOf("__") + 2),
                                scenario.text(),
                                List.copyOf(labels),
                                List.copyOf(at)));
            }
        }
        return all;
    }

    /** Labels of the edges leaving each state, computed once per state. */
    static final class Walker {
        private final StateGraph graph;
        private final Map<Long, Map<String, Edge>> byLabel = new HashMap<>();

        Walker(StateGraph graph) {
            this.graph = graph;
        }

        /** The edges the labels take from the initial state, or empty where one is not an edge. */
        Optional<List<Edge>> walk(List<String> labels) {
            long at = graph.initialStates().getFirst();
            List<Edge> path = new ArrayList<>();
            for (String label : labels) {
                Edge edge = byLabel.computeIfAbsent(at, this::labels).get(label);
                if (edge == null) {
                    return Optional.empty();
                }
                path.add(edge);
                at = edge.to();
            }
            return Optional.of(path);
        }

        /** What the model says after each event of the labels, or empty where they are not a path. */
        Optional<List<List<String>>> expectations(List<String> labels) {
            return walk(labels)
                    .map(
                            path ->
                                    path.stream()
                                            .map(edge -> new ModelState(graph.state(edge.to())).expectedLines())
                                            .toList());
        }

        private Map<String, Edge> labels(long state) {
            Map<String, Edge> out = new HashMap<>();
            for (Edge e : graph.outgoing(state)) {
                out.putIfAbsent(Script.label(graph, e), e);
            }
            return out;
        }
    }
}
