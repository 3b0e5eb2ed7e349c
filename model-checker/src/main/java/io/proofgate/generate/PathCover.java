package io.proofgate.generate;

import io.proofgate.graph.Edge;
import io.proofgate.graph.StateGraph;
import io.proofgate.value.TlaValuePrinter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Paths from initial states that together take every edge of a state graph at least once.
 *
 * <p>Greedy, deterministic, and independent of TLC's fingerprints: states are ordered by their
 * printed content and edges by (target content, action). For the first edge not yet taken, in
 * breadth-first order, a path goes there along a shortest path from an initial state, takes the
 * edge, and then keeps taking untaken edges for as long as its last state has one.
 *
 * <p>Lower bounds it is measured against: every edge is a step of some path, so steps &gt;=
 * edges; every edge into a state without successors ends a path, and every edge out of an
 * initial state starts one (nothing enters an initial state of this spec), so paths &gt;= the
 * larger of the two sums.
 */
public final class PathCover {

    /** The paths, and the bounds they are compared with. */
    public record Result(List<List<Edge>> paths, int states, int edges, long steps, long pathLowerBound) {}

    private PathCover() {}

    public static Result cover(StateGraph graph) {
        Map<Long, String> key = new HashMap<>();
        graph.states().forEach((id, state) -> key.put(id, TlaValuePrinter.print(state)));
        Comparator<Edge> byTarget = Comparator.<Edge, String>comparing(e -> key.get(e.to()))
                .thenComparing(e -> e.action().orElse(""));
        Map<Long, List<Edge>> out = new HashMap<>();
        Map<Long, Integer> in = new HashMap<>();
        Set<Edge> all = new HashSet<>();
        for (Edge edge : graph.edges()) {
            if (all.add(edge)) {
                out.computeIfAbsent(edge.from(), id -> new ArrayList<>()).add(edge);
                in.merge(edge.to(), 1, Integer::sum);
            }
        }
        out.values().forEach(list -> list.sort(byTarget));

        // Breadth-first from the initial states in content order: the shortest way to each state.
        Map<Long, Edge> parent = new HashMap<>();
        List<Long> order = new ArrayList<>();
        Deque<Long> queue = new ArrayDeque<>();
        graph.initialStates().stream().sorted(Comparator.comparing(key::get)).forEach(id -> {
            parent.put(id, null);
            queue.add(id);
        });
        while (!queue.isEmpty()) {
            long id = queue.poll();
            order.add(id);
            for (Edge edge : out.getOrDefault(id, List.of())) {
                if (!parent.containsKey(edge.to())) {
                    parent.put(edge.to(), edge);
                    queue.add(edge.to());
                }
            }
        }

        Set<Edge> taken = new HashSet<>();
        List<List<Edge>> paths = new ArrayList<>();
        long steps = 0;
        for (long id : order) {
            for (Edge seed : out.getOrDefault(id, List.of())) {
                if (taken.contains(seed)) {
                    continue;
                }
                List<Edge> path = new ArrayList<>(prefix(parent, seed.from()));
                path.add(seed);
                long at = seed.to();
                Edge next;
                while ((next = firstUntaken(out.getOrDefault(at, List.of()), taken, path)) != null) {
                    path.add(next);
                    at = next.to();
                }
                taken.addAll(path);
                paths.add(List.copyOf(path));
                steps += path.size();
            }
        }
        if (taken.size() != all.size()) {
            throw new IllegalStateException((all.size() - taken.size()) + " edges are not reachable from an initial state");
        }
        long intoSinks = 0;
        for (Edge edge : all) {
            if (out.getOrDefault(edge.to(), List.of()).isEmpty()) {
                intoSinks++;
            }
        }
        long outOfInitial = graph.initialStates().stream().mapToLong(id -> out.getOrDefault(id, List.of()).size()).sum();
        return new Result(paths, graph.states().size(), all.size(), steps, Math.max(1, Math.max(intoSinks, outOfInitial)));
    }

    private static List<Edge> prefix(Map<Long, Edge> parent, long to) {
        List<Edge> path = new ArrayList<>();
        Edge edge;
        long at = to;
        while ((edge = parent.get(at)) != null) {
            path.add(0, edge);
            at = edge.from();
        }
        return path;
    }

    /** The first edge not taken by any path yet nor by this one (a self-loop is taken once). */
    private static Edge firstUntaken(List<Edge> edges, Set<Edge> taken, List<Edge> path) {
        for (Edge edge : edges) {
            if (!taken.contains(edge) && !path.contains(edge)) {
                return edge;
            }
        }
        return null;
    }
}
