package io.proofgate.generate;

import io.proofgate.graph.Edge;
import io.proofgate.graph.StateGraph;
import io.proofgate.value.TlaValuePrinter;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The fewest paths from initial states that together take every edge of an acyclic state graph.
 *
 * <p>This is a minimum flow with a lower bound of one on every edge: a source feeds the initial states, every state may
 * drain into a sink, and each unit of flow is one test. Start from the feasible flow of one shortest path per edge,
 * then cancel as much flow as possible by pushing flow back from the sink to the source through the residual graph
 * (Dinic's algorithm). The remaining flow is minimal, and decomposing it gives the paths; an edge used by several paths
 * is the price of fewer tests.
 *
 * <p>Deterministic and independent of TLC's fingerprints: states are numbered in order of their printed content, edges
 * by (source, target content, action).
 *
 * <p>Lower bound reported beside the result: every edge into a state without successors ends a path and every edge out
 * of an initial state starts one (nothing enters an initial state of this spec), so paths &gt;= the larger of the two
 * sums; and steps &gt;= edges.
 */
public final class PathCover {

    /** The paths, and the bounds they are compared with. */
    public record Result(List<List<Edge>> paths, int states, int edges, long steps, long pathLowerBound) {}

    private PathCover() {}

    public static Result cover(StateGraph graph) {
        // Number states by content.
        List<Long> ids = new ArrayList<>(graph.states().keySet());
        Map<Long, String> key = new HashMap<>();
        graph.states().forEach((id, state) -> key.put(id, TlaValuePrinter.print(state)));
        ids.sort(Comparator.comparing(key::get));
        Map<Long, Integer> index = new HashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            index.put(ids.get(i), i);
        }
        int n = ids.size();
        List<Edge> edges = new ArrayList<>(new LinkedHashSet<>(graph.edges()));
        edges.sort(
                Comparator.<Edge>comparingInt(e -> index.get(e.from()))
                        .thenComparingInt(e -> index.get(e.to()))
                        .thenComparing(e -> e.action().orElse("")));
        int m = edges.size();
        int[] from = new int[m];
        int[] to = new int[m];
        for (int e = 0; e < m; e++) {
            from[e] = index.get(edges.get(e).from());
            to[e] = index.get(edges.get(e).to());
        }
        boolean[] initial = new boolean[n];
        graph.initialStates().forEach(id -> initial[index.get(id)] = true);
        List<List<Integer>> out = adjacency(n, m, from);

        // A feasible flow: for every edge, one shortest path from an initial state through it.
        int[] parentEdge = shortestPathTree(n, initial, out, to);
        long[] flow = new long[m];
        long[] starts = new long[n];
        long[] ends = new long[n];
        for (int e = 0; e < m; e++) {
            if (parentEdge[from[e]] == -2) {
                throw new IllegalStateException("an edge leaves a state no initial state reaches");
            }
            flow[e]++;
            int at = from[e];
            while (parentEdge[at] >= 0) {
                flow[parentEdge[at]]++;
                at = from[parentEdge[at]];
            }
            starts[at]++;
            ends[to[e]]++;
        }

        cancelFlow(n, m, from, to, initial, flow, starts, ends);

        List<List<Edge>> paths = decompose(n, m, to, out, flow, starts, edges);
        long steps = paths.stream().mapToLong(List::size).sum();
        long intoSinks = 0;
        for (int e = 0; e < m; e++) {
            if (out.get(to[e]).isEmpty()) {
                intoSinks++;
            }
        }
        long outOfInitial = 0;
        for (int v = 0; v < n; v++) {
            if (initial[v]) {
                outOfInitial += out.get(v).size();
            }
        }
        return new Result(paths, n, m, steps, Math.max(1, Math.max(intoSinks, outOfInitial)));
    }

    private static List<List<Integer>> adjacency(int n, int m, int[] from) {
        List<List<Integer>> out = new ArrayList<>(n);
        for (int v = 0; v < n; v++) {
            out.add(new ArrayList<>());
        }
        for (int e = 0; e < m; e++) {
            out.get(from[e]).add(e);
        }
        return out;
    }

    /** Per state the edge it is first reached by breadth-first (-1 for initial states, -2 unreached). */
    private static int[] shortestPathTree(int n, boolean[] initial, List<List<Integer>> out, int[] to) {
        int[] parent = new int[n];
        Arrays.fill(parent, -2);
        Deque<Integer> queue = new ArrayDeque<>();
        for (int v = 0; v < n; v++) {
            if (initial[v]) {
                parent[v] = -1;
                queue.add(v);
            }
        }
        while (!queue.isEmpty()) {
            int v = queue.poll();
            for (int e : out.get(v)) {
                if (parent[to[e]] == -2) {
                    parent[to[e]] = e;
                    queue.add(to[e]);
                }
            }
        }
        return parent;
    }

    /**
     * Pushes as much flow as possible from the sink back to the source. Residual arcs: along an edge with flow above
     * its lower bound of one, backwards (cancel), and forwards without limit (reroute); a state's drain into the sink
     * can be cancelled up to its path ends; a source's feed into an initial state up to its path starts.
     */
    private static void cancelFlow(
            int n, int m, int[] from, int[] to, boolean[] initial, long[] flow, long[] starts, long[] ends) {
        int source = n;
        int sink = n + 1;
        Residual residual = new Residual(n + 2);
        int[] backward = new int[m];
        int[] forward = new int[m];
        for (int e = 0; e < m; e++) {
            backward[e] = residual.arc(to[e], from[e], flow[e] - 1); // cancel flow on e
            forward[e] = residual.arc(from[e], to[e], Long.MAX_VALUE / 4); // or send more along e
        }
        int[] drain = new int[n];
        int[] feed = new int[n];
        for (int v = 0; v < n; v++) {
            drain[v] = residual.arc(sink, v, ends[v]);
            feed[v] = initial[v] ? residual.arc(v, source, starts[v]) : -1;
        }
        residual.maxFlow(sink, source);
        for (int e = 0; e < m; e++) {
            flow[e] = flow[e] - residual.pushed(backward[e]) + residual.pushed(forward[e]);
        }
        for (int v = 0; v < n; v++) {
            ends[v] -= residual.pushed(drain[v]);
            if (feed[v] >= 0) {
                starts[v] -= residual.pushed(feed[v]);
            }
        }
    }

    /**
     * Splits the flow into paths, always leaving a state by its first edge with flow left and stopping only where no
     * flow leaves; on an acyclic graph this uses up every unit.
     */
    private static List<List<Edge>> decompose(
            int n, int m, int[] to, List<List<Integer>> out, long[] flow, long[] starts, List<Edge> edges) {
        List<List<Edge>> paths = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            while (starts[s] > 0) {
                starts[s]--;
                List<Edge> path = new ArrayList<>();
                int at = s;
                while (true) {
                    int next = -1;
                    for (int e : out.get(at)) {
                        if (flow[e] > 0) {
                            next = e;
                            break;
                        }
                    }
                    if (next < 0) {
                        break; // no flow leaves: by conservation one of this state's path ends is here
                    }
                    flow[next]--;
                    path.add(edges.get(next));
                    at = to[next];
                }
                if (path.isEmpty()) {
                    throw new IllegalStateException("empty path in the flow decomposition");
                }
                paths.add(List.copyOf(path));
            }
        }
        for (int e = 0; e < m; e++) {
            if (flow[e] != 0) {
                throw new IllegalStateException(
                        "flow left on an edge after decomposition (a cycle in the state graph?)");
            }
        }
        return paths;
    }

    /** A residual network with Dinic's max flow. */
    private static final class Residual {
        private final List<List<Integer>> adjacency = new ArrayList<>();
        private final List<Integer> head = new ArrayList<>();
        private final List<Long> capacity = new ArrayList<>();
        private final List<Long> original = new ArrayList<>();
        private int[] level;
        private int[] cursor;

        Residual(int nodes) {
            for (int i = 0; i < nodes; i++) {
                adjacency.add(new ArrayList<>());
            }
        }

        /** Adds an arc and its reverse; returns the arc's index. */
        int arc(int u, int v, long cap) {
            int id = head.size();
            head.add(v);
            capacity.add(cap);
            original.add(cap);
            adjacency.get(u).add(id);
            head.add(u);
            capacity.add(0L);
            original.add(0L);
            adjacency.get(v).add(id + 1);
            return id;
        }

        long pushed(int arc) {
            return original.get(arc) - capacity.get(arc);
        }

        void maxFlow(int s, int t) {
            int nodes = adjacency.size();
            while (true) {
                level = new int[nodes];
                Arrays.fill(level, -1);
                level[s] = 0;
                Deque<Integer> queue = new ArrayDeque<>(List.of(s));
                while (!queue.isEmpty()) {
                    int u = queue.poll();
                    for (int a : adjacency.get(u)) {
                        if (capacity.get(a) > 0 && level[head.get(a)] < 0) {
                            level[head.get(a)] = level[u] + 1;
                            queue.add(head.get(a));
                        }
                    }
                }
                if (level[t] < 0) {
                    return;
                }
                cursor = new int[nodes];
                while (augment(s, t, Long.MAX_VALUE) > 0) {
                    // keep augmenting along the level graph
                }
            }
        }

        private long augment(int u, int t, long limit) {
            if (u == t) {
                return limit;
            }
            List<Integer> arcs = adjacency.get(u);
            for (; cursor[u] < arcs.size(); cursor[u]++) {
                int a = arcs.get(cursor[u]);
                int v = head.get(a);
                long cap = capacity.get(a);
                if (cap > 0 && level[v] == level[u] + 1) {
                    long pushed = augment(v, t, Math.min(limit, cap));
                    if (pushed > 0) {
                        capacity.set(a, cap - pushed);
                        capacity.set(a ^ 1, capacity.get(a ^ 1) + pushed);
                        return pushed;
                    }
                }
            }
            return 0;
        }
    }
}
