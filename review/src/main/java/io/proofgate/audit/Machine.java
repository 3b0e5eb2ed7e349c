package io.proofgate.audit;

import io.proofgate.generate.GraphPaths;
import io.proofgate.graph.Edge;
import io.proofgate.graph.StateGraph;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A state graph read as a machine over input events: from each state, at most one successor per event label ({@link
 * GraphPaths#label}); a spec whose graph has two is not a function of its input and cannot be audited.
 */
final class Machine {

    private final StateGraph graph;
    private final long start;
    private final Map<Long, Map<String, Long>> byState = new java.util.concurrent.ConcurrentHashMap<>();

    /** Each state's label: the event that leads to it, written once (the audit reads each many times over). */
    private final Map<Long, String> labelOf = new java.util.concurrent.ConcurrentHashMap<>();

    /** Each state's part of a replay's outcome, likewise. */
    private final Map<Long, GraphPaths.StateOutcome> outcomeOf = new java.util.concurrent.ConcurrentHashMap<>();

    private String topology;

    Machine(StateGraph graph, String side) {
        if (graph.initialStates().size() != 1) {
            throw new AuditException(
                    "the "
                            + side
                            + " state graph has "
                            + graph.initialStates().size()
                            + " initial states; the audit compares specs with one (the topology line)");
        }
        this.graph = graph;
        this.start = graph.initialStates().getFirst();
    }

    StateGraph graph() {
        return graph;
    }

    long start() {
        return start;
    }

    /** The successors of {@code state} by event label, in label order. */
    Map<String, Long> successors(long state) {
        return byState.computeIfAbsent(
                state,
                id -> {
                    Map<String, Long> out = new TreeMap<>();
                    for (Edge edge : graph.outgoing(id)) {
                        Long other = out.put(label(edge), edge.to());
                        if (other != null && other != edge.to()) {
                            throw new AuditException(
                                    "two edges leave one state with the same event, so the spec is not a"
                                            + " function of its input: "
                                            + label(edge));
                        }
                    }
                    return out;
                });
    }

    /** The path that takes these events from the start, if the machine takes every one of them. */
    Optional<List<Edge>> walk(List<String> labels) {
        List<Edge> path = new ArrayList<>();
        long at = start;
        for (String label : labels) {
            Long next = successors(at).get(label);
            if (next == null) {
                return Optional.empty();
            }
            long from = at;
            Edge edge = null;
            for (Edge out : graph.outgoing(from)) {
                if (out.to() == next) {
                    edge = out;
                    break;
                }
            }
            path.add(java.util.Objects.requireNonNull(edge));
            at = next;
        }
        return Optional.of(path);
    }

    /** The labels of a path. */
    List<String> labels(List<Edge> path) {
        List<String> labels = new ArrayList<>(path.size());
        for (Edge edge : path) {
            labels.add(label(edge));
        }
        return labels;
    }

    /** An edge's label ({@link GraphPaths#label}): it depends on the state the edge leads to only. */
    String label(Edge edge) {
        String label = labelOf.get(edge.to());
        if (label == null) {
            label = GraphPaths.label(graph, edge);
            labelOf.put(edge.to(), label);
        }
        return label;
    }

    /** {@link GraphPaths#replayOutcome} of a path from the start, each state's part made once. */
    List<String> replayOutcome(List<Edge> path) {
        return GraphPaths.replayOutcome(graph, path, this::outcome);
    }

    private GraphPaths.StateOutcome outcome(long state) {
        GraphPaths.StateOutcome outcome = outcomeOf.get(state);
        if (outcome == null) {
            outcome = GraphPaths.stateOutcome(graph, state);
            outcomeOf.put(state, outcome);
        }
        return outcome;
    }

    /** {@link GraphPaths#replayLines} of a path from the start whose {@link #labels} are {@code labels}. */
    List<String> replayLines(List<Edge> path, List<String> labels) {
        if (topology == null) {
            topology = GraphPaths.topology(graph, start);
        }
        return GraphPaths.replayLines(graph, path, topology, labels);
    }
}
