package io.proofgate.graph;

import io.proofgate.value.TlaState;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.SequencedMap;
import java.util.SequencedSet;

/**
 * The reachable state graph TLC dumps with {@code -dump dot,actionlabels}: states by fingerprint, the initial states,
 * and labelled edges.
 *
 * <p>Iteration follows the dot file (TLC's breadth-first order), never hash order. Fingerprints change with TLC's seed
 * and {@code -fp}, so names derived from a graph should come from states and action labels, not ids. The dot graph is
 * {@code strict}: two actions that lead from one state to the same successor appear as one edge.
 */
public final class StateGraph {
    private final SequencedMap<Long, TlaState> states;
    private final SequencedSet<Long> initial;
    private final List<Edge> edges;
    private final SequencedMap<Long, List<Edge>> outgoing;

    public StateGraph(SequencedMap<Long, TlaState> states, SequencedSet<Long> initial, List<Edge> edges) {
        this.states = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(states));
        this.initial = Collections.unmodifiableSequencedSet(new LinkedHashSet<>(initial));
        this.edges = List.copyOf(edges);
        for (Edge e : this.edges) {
            if (!this.states.containsKey(e.from()) || !this.states.containsKey(e.to())) {
                throw new IllegalArgumentException("edge " + e + " names a state the graph does not hold");
            }
        }
        for (Long id : this.initial) {
            if (!this.states.containsKey(id)) {
                throw new IllegalArgumentException("initial state " + id + " is not in the graph");
            }
        }
        this.outgoing = outgoing(this.states, this.edges);
    }

    private StateGraph(
            SequencedMap<Long, TlaState> states,
            SequencedSet<Long> initial,
            List<Edge> edges,
            SequencedMap<Long, List<Edge>> outgoing) {
        this.states = states;
        this.initial = initial;
        this.edges = edges;
        this.outgoing = outgoing;
    }

    /**
     * For {@link StateGraphReader}, which has checked that every edge and initial state names a state, and hands over
     * maps nothing else holds: the same graph as the constructor's, without copying the maps or looking up both ends of
     * every edge.
     */
    static StateGraph ofChecked(SequencedMap<Long, TlaState> states, SequencedSet<Long> initial, List<Edge> edges) {
        return new StateGraph(
                Collections.unmodifiableSequencedMap(states),
                Collections.unmodifiableSequencedSet(initial),
                List.copyOf(edges),
                outgoing(states, edges));
    }

    /** Each state's edges in file order; every edge's ends must be states. */
    private static SequencedMap<Long, List<Edge>> outgoing(SequencedMap<Long, TlaState> states, List<Edge> edges) {
        SequencedMap<Long, List<Edge>> out = new LinkedHashMap<>();
        for (Long id : states.keySet()) {
            out.put(id, new ArrayList<>());
        }
        long lastFrom = 0;
        List<Edge> lastList = null;
        // TLC writes a state's edges together, so most lookups are the previous edge's
        for (Edge e : edges) {
            if (lastList == null || e.from() != lastFrom) {
                lastFrom = e.from();
                lastList = out.get(lastFrom);
            }
            lastList.add(e);
        }
        out.replaceAll((id, list) -> List.copyOf(list));
        return Collections.unmodifiableSequencedMap(out);
    }

    /** Every state by fingerprint, in the order the dot file defines them. */
    public SequencedMap<Long, TlaState> states() {
        return states;
    }

    public SequencedSet<Long> initialStates() {
        return initial;
    }

    /** Every edge, in the order of the dot file. */
    public List<Edge> edges() {
        return edges;
    }

    public TlaState state(long id) {
        TlaState s = states.get(id);
        if (s == null) {
            throw new IllegalArgumentException("no state " + id + " in the graph");
        }
        return s;
    }

    /** The edges leaving {@code id}, in file order; empty for a state without successors. */
    public List<Edge> outgoing(long id) {
        List<Edge> out = outgoing.get(id);
        if (out == null) {
            throw new IllegalArgumentException("no state " + id + " in the graph");
        }
        return out;
    }
}
