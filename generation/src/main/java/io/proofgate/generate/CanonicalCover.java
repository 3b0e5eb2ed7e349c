package io.proofgate.generate;

import io.proofgate.graph.Edge;
import io.proofgate.graph.StateGraph;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A locally stable cover of a state graph's edges: per edge, the canonical shortest path from the initial state through
 * it, with paths that are prefixes of others dropped.
 *
 * <p>A state's canonical path is, among its shortest paths from the initial state, the one whose sequence of edge
 * labels is least (labels compared as strings). Those paths form a tree (the least path to a state extends the least
 * path to its parent), so the path for an edge {@code u -> v} is the canonical path to {@code u} followed by the edge.
 * It is dropped when it is a prefix of another path, which happens exactly when it is the tree edge into {@code v} and
 * {@code v} has successors. So the scenarios are: one per edge off the tree, and one per state without successors.
 *
 * <p>Why not the fewest paths ({@link PathCover}, a minimum flow): a minimum flow is global, so one changed edge can
 * reroute many paths, and a reviewer of a one-line spec change faces thousands of moved lines. Here a path depends only
 * on the labels and lengths of the paths that lead to its edge: an edit that leaves those alone leaves the path alone.
 * The price is more paths and steps (docs/generation.md gives the figures).
 *
 * <p>Labels must tell a state's outgoing edges apart (they are what a scenario records), so two edges leaving one state
 * with one label are an error. Fingerprints and file order play no part.
 */
public final class CanonicalCover {

    /** The paths, in canonical order of their last edge, and the graph's size. */
    public record Result(List<List<Edge>> paths, int states, int edges, long steps) {}

    private CanonicalCover() {}

    /** A state first reached in a layer: the edge that offers it, that edge's source's rank and its label. */
    private record Offer(long state, Edge edge, int parentRank, String label) {}

    private record Labelled(Edge edge, String label) {}

    /**
     * @param label an edge's label; for the proofgate spec, the replay line of the event it records
     */
    public static Result cover(StateGraph graph, Function<Edge, String> label) {
        if (graph.initialStates().size() != 1) {
            throw new GenerationException(
                    "the state graph has "
                            + graph.initialStates().size()
                            + " initial states; a scenario needs exactly one (the topology line)");
        }
        long initial = graph.initialStates().getFirst();
        Map<Long, Integer> rank = new HashMap<>();
        Map<Long, Edge> parent = new HashMap<>();
        Map<Edge, String> labels = new HashMap<>();
        Map<Long, List<Edge>> sortedOut = new HashMap<>(); // each state's edges, sorted once
        rank.put(initial, 0);
        List<Long> layer = List.of(initial);
        List<Long> order = new ArrayList<>(List.of(initial));
        while (!layer.isEmpty()) {
            // Offers to unreached states come from the layer in rank order, so the first offer
            // to a state is from its least parent; a parent has one edge to each successor.
            Map<Long, Edge> offers = new HashMap<>();
            List<Long> next = new ArrayList<>();
            for (long u : layer) {
                for (Edge e : sortedOut.computeIfAbsent(u, id -> outgoing(graph, id, label, labels))) {
                    if (!rank.containsKey(e.to()) && !offers.containsKey(e.to())) {
                        offers.put(e.to(), e);
                        next.add(e.to());
                    }
                }
            }
            // each key read once, not in every comparison (a layer of the producer model has thousands of states)
            List<Offer> sorted = new ArrayList<>(next.size());
            for (long v : next) {
                Edge e = offers.get(v);
                sorted.add(new Offer(v, e, rank.get(e.from()), labels.get(e)));
            }
            sorted.sort(Comparator.comparingInt(Offer::parentRank).thenComparing(Offer::label));
            List<Long> ordered = new ArrayList<>(sorted.size());
            for (int i = 0; i < sorted.size(); i++) {
                Offer o = sorted.get(i);
                rank.put(o.state(), i);
                parent.put(o.state(), o.edge());
                ordered.add(o.state());
            }
            order.addAll(ordered);
            layer = ordered;
        }
        if (rank.size() != graph.states().size()) {
            throw new GenerationException(
                    (graph.states().size() - rank.size())
                            + " states of the graph are not reachable from its initial state");
        }

        List<List<Edge>> paths = new ArrayList<>();
        long steps = 0;
        int edgeCount = 0;
        for (long u : order) {
            List<Edge> out = sortedOut.get(u); // every state was a layer's, so its edges are sorted
            edgeCount += out.size();
            for (Edge e : out) {
                boolean treeEdge = e.equals(parent.get(e.to()));
                if (treeEdge && !sortedOut.get(e.to()).isEmpty()) {
                    continue; // a prefix of the paths through the successor's edges
                }
                List<Edge> path = new ArrayList<>();
                path.add(e);
                for (Edge up = parent.get(u); up != null; up = parent.get(up.from())) {
                    path.add(up);
                }
                Collections.reverse(path);
                steps += path.size();
                paths.add(List.copyOf(path));
            }
        }
        return new Result(List.copyOf(paths), graph.states().size(), edgeCount, steps);
    }

    /**
     * The edges leaving {@code u}, one per successor (TLC may name two actions for one step), in label order; labels
     * must differ.
     */
    private static List<Edge> outgoing(
            StateGraph graph, long u, Function<Edge, String> label, Map<Edge, String> labels) {
        Map<Long, Edge> bySuccessor = new HashMap<>();
        for (Edge e : graph.outgoing(u)) {
            bySuccessor.merge(e.to(), e, (a, b) -> a.action().orElse("").compareTo(b.action().orElse("")) <= 0 ? a : b);
        }
        List<Labelled> sorted = new ArrayList<>(bySuccessor.size());
        for (Edge e : bySuccessor.values()) {
            String l = label.apply(e);
            labels.put(e, l);
            sorted.add(new Labelled(e, l));
        }
        sorted.sort(Comparator.comparing(Labelled::label));
        List<Edge> out = new ArrayList<>(sorted.size());
        for (int i = 0; i < sorted.size(); i++) {
            if (i > 0 && sorted.get(i).label().equals(sorted.get(i - 1).label())) {
                throw new GenerationException(
                        "two edges leave one state with the same label, so a scenario could not"
                                + " say which it takes: "
                                + sorted.get(i).label());
            }
            out.add(sorted.get(i).edge());
        }
        return out;
    }
}
