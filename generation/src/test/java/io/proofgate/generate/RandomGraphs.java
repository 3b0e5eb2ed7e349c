package io.proofgate.generate;

import io.proofgate.graph.Edge;
import io.proofgate.graph.StateGraph;
import io.proofgate.value.TlaState;
import io.proofgate.value.TlaValue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.SequencedMap;

/**
 * Random state graphs for the cover's properties: states 0..n-1 with state 0 initial, every state reachable, edges from
 * lower to higher states (acyclic, like the spec's graphs) and, where asked, back edges too; fingerprints are random,
 * and edge labels differ among a state's edges.
 */
record RandomGraphs(StateGraph graph, Map<Edge, String> labels, List<Long> ids) {

    static RandomGraphs of(long seed, int maxStates, boolean cycles) {
        Random random = new Random(seed);
        int n = 2 + random.nextInt(maxStates - 1);
        List<Long> ids = new ArrayList<>();
        LinkedHashSet<Long> used = new LinkedHashSet<>();
        while (ids.size() < n) {
            long id = random.nextLong();
            if (used.add(id)) {
                ids.add(id);
            }
        }
        List<int[]> pairs = new ArrayList<>();
        for (int v = 1; v < n; v++) {
            pairs.add(new int[] {random.nextInt(v), v}); // reachable
            for (int u = 0; u < n; u++) {
                boolean forward = u < v;
                if (u != pairs.getLast()[0] && (forward || cycles) && u != v && random.nextInt(3) == 0) {
                    pairs.add(new int[] {u, v});
                }
            }
        }
        Collections.shuffle(pairs, random);
        return build(ids, pairs, random);
    }

    private static RandomGraphs build(List<Long> ids, List<int[]> pairs, Random random) {
        SequencedMap<Long, TlaState> states = new LinkedHashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            SequencedMap<String, TlaValue> vars = new LinkedHashMap<>();
            vars.put("s", new TlaValue.TlaInt(i));
            states.put(ids.get(i), new TlaState(vars));
        }
        List<Edge> edges = new ArrayList<>();
        Map<Edge, String> labels = new HashMap<>();
        Map<Integer, List<String>> free = new HashMap<>();
        for (int[] pair : pairs) {
            Edge edge = new Edge(ids.get(pair[0]), ids.get(pair[1]), Optional.of("Next"));
            if (labels.containsKey(edge)) {
                continue;
            }
            List<String> left =
                    free.computeIfAbsent(
                            pair[0],
                            u -> {
                                List<String> words =
                                        new ArrayList<>(
                                                List.of("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"));
                                Collections.shuffle(words, random);
                                return words;
                            });
            edges.add(edge);
            labels.put(edge, left.removeFirst());
        }
        StateGraph graph = new StateGraph(states, new LinkedHashSet<>(List.of(ids.getFirst())), edges);
        return new RandomGraphs(graph, labels, ids);
    }

    /** The same graph with other fingerprints and its edges in another order. */
    RandomGraphs renumbered(long seed) {
        Random random = new Random(seed);
        Map<Long, Long> to = new HashMap<>();
        List<Long> fresh = new ArrayList<>();
        for (long id : ids) {
            long other;
            do {
                other = random.nextLong();
            } while (to.containsValue(other));
            to.put(id, other);
            fresh.add(other);
        }
        SequencedMap<Long, TlaState> states = new LinkedHashMap<>();
        graph.states().forEach((id, state) -> states.put(to.get(id), state));
        List<Edge> edges = new ArrayList<>();
        Map<Edge, String> newLabels = new HashMap<>();
        for (Edge e : graph.edges()) {
            Edge moved = new Edge(to.get(e.from()), to.get(e.to()), e.action());
            edges.add(moved);
            newLabels.put(moved, labels.get(e));
        }
        Collections.shuffle(edges, random);
        return new RandomGraphs(
                new StateGraph(states, new LinkedHashSet<>(List.of(to.get(ids.getFirst()))), edges), newLabels, fresh);
    }

    /** The graph with one more edge, from state {@code from} (an index) to a new state without successors. */
    RandomGraphs withSinkEdge(int from, String label) {
        SequencedMap<Long, TlaState> states = new LinkedHashMap<>(graph.states());
        long sink = ids.stream().mapToLong(Long::longValue).max().orElseThrow() + 1;
        SequencedMap<String, TlaValue> vars = new LinkedHashMap<>();
        vars.put("s", new TlaValue.TlaInt(ids.size()));
        states.put(sink, new TlaState(vars));
        List<Edge> edges = new ArrayList<>(graph.edges());
        Edge edge = new Edge(ids.get(from), sink, Optional.of("Next"));
        edges.add(edge);
        Map<Edge, String> newLabels = new HashMap<>(labels);
        newLabels.put(edge, label);
        List<Long> newIds = new ArrayList<>(ids);
        newIds.add(sink);
        return new RandomGraphs(new StateGraph(states, graph.initialStates(), edges), newLabels, newIds);
    }

    /** The graph with one edge's label replaced. */
    RandomGraphs relabelled(Edge edge, String label) {
        Map<Edge, String> newLabels = new HashMap<>(labels);
        newLabels.put(edge, label);
        return new RandomGraphs(graph, newLabels, ids);
    }

    /** A path as its labels, which is how a scenario names it. */
    List<String> words(List<Edge> path) {
        return path.stream().map(labels::get).toList();
    }
}
