package io.proofgate.conform;

import io.proofgate.protocol.Event;
import io.proofgate.protocol.LoadBlocks;
import io.proofgate.protocol.Topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * The safety of an adapter's hits and loads, whatever its policy (docs/protocol.md §3, "Restore rules"): what the store
 * holds is what the adapter's own plans saved, each judged safe ({@link PlanSafety}) and its copy over; a hit must
 * restore a prefix the store holds, on every recurrent group's grid and strictly below the prompt's end; a load must
 * put that prefix's state into exactly the blocks of the request the restore rules name ({@link LoadBlocks}). Fed by
 * {@link PlanSafety}'s one pass over the events, in their order.
 */
final class RestoreSafety {

    private final Topology topology;

    /** The targets of the plans the store holds, per digest. */
    private final Map<String, NavigableSet<Long>> stored = new HashMap<>();

    /** The looked-up requests whose first step has not come: their lookups and hits. */
    private final Map<String, Event.Lookup> lookups = new HashMap<>();

    RestoreSafety(Topology topology) {
        this.topology = topology;
    }

    /** A safe plan's copy is over: the store holds its prefix. */
    void saved(String digest, String target) {
        try {
            stored.computeIfAbsent(digest, d -> new TreeSet<>()).add(Long.parseLong(target));
        } catch (NumberFormatException e) {
            // a plan whose target is no token count was judged unsafe already
        }
    }

    /** What is wrong with the answer to a lookup; empty when it is safe. */
    List<String> hit(Event.Lookup lookup, List<Line> answer) {
        lookups.put(lookup.id(), lookup);
        for (Line line : answer) {
            if (line instanceof Line.Hit hit) {
                return judge(lookup, hit);
            }
        }
        return List.of();
    }

    private List<String> judge(Event.Lookup lookup, Line.Hit hit) {
        long tokens = hit.count();
        if (tokens == 0) {
            return List.of();
        }
        String request =
                "request "
                        + lookup.id()
                        + " of prefix "
                        + lookup.digest()
                        + " (prompt "
                        + lookup.promptTokens()
                        + " tokens, vLLM has "
                        + lookup.computed()
                        + ")";
        if (tokens >= lookup.promptTokens() - lookup.computed()) {
            return List.of(
                    request
                            + ": a hit of "
                            + hit.tokens()
                            + " tokens reaches the prompt's end: vLLM computes the last prompt token again for its"
                            + " logits, from a state that has applied it (the last token twice)");
        }
        long restored = lookup.computed() + tokens;
        long grid = topology.recurrentGrid();
        if (restored % grid != 0) {
            return List.of(
                    request
                            + ": a hit to "
                            + restored
                            + " tokens, which is off the recurrent block grid of "
                            + grid
                            + " tokens: no state is saved there");
        }
        NavigableSet<Long> targets = stored.getOrDefault(lookup.digest(), new TreeSet<>());
        if (!targets.contains(restored)) {
            return List.of(
                    request
                            + ": a hit to "
                            + restored
                            + " tokens, where the store holds no state of "
                            + lookup.digest()
                            + " that the kit saw saved (it holds "
                            + (targets.isEmpty() ? "none" : targets.toString())
                            + ")");
        }
        return List.of();
    }

    /**
     * What is wrong with a step's loads: each request the step schedules with external tokens must get one load, of its
     * prefix at its hit, into the blocks the restore rules name; no other request may get one.
     */
    List<String> loads(Event.Step step, List<Line> answer) {
        List<String> findings = new ArrayList<>();
        Map<String, Event.NewRequest> restored = new HashMap<>();
        for (Event.NewRequest request : step.newRequests()) {
            Event.Lookup lookup = lookups.remove(request.id());
            if (lookup != null && request.external() > 0) {
                restored.put(request.id(), request);
            }
        }
        Map<String, Line.Load> printed = new HashMap<>();
        for (Line line : answer) {
            if (line instanceof Line.Load load) {
                if (!restored.containsKey(load.id())) {
                    findings.add(
                            "request "
                                    + load.id()
                                    + ": a load, where vLLM scheduled it with no tokens of the connector's"
                                    + " hit in this step: it overwrites the blocks vLLM computes into");
                } else if (printed.put(load.id(), load) != null) {
                    findings.add("request " + load.id() + ": two loads in one step");
                }
            }
        }
        for (Event.NewRequest request : restored.values()) {
            Line.Load load = printed.get(request.id());
            String who =
                    "request "
                            + request.id()
                            + " of prefix "
                            + request.digest()
                            + ", scheduled with "
                            + request.external()
                            + " tokens of the connector's hit (to "
                            + request.computed()
                            + ")";
            long[][] wanted =
                    LoadBlocks.of(
                            topology, request.blockIds(), request.computed() - request.external(), request.computed());
            if (load == null) {
                findings.add(who + ": no load: it computes on from blocks nothing loaded (" + blocks(wanted) + ")");
                continue;
            }
            if (!load.digest().equals(request.digest())) {
                findings.add(who + ": loads prefix " + Json.excerpt(load.digest()) + ", another prompt's");
            }
            if (!load.span().equals(Long.toString(request.computed()))) {
                findings.add(
                        who
                                + ": loads the state at "
                                + load.span()
                                + " tokens, where vLLM computes on from "
                                + request.computed());
            } else if (!stored.getOrDefault(load.digest(), new TreeSet<>()).contains(request.computed())) {
                findings.add(
                        who
                                + ": loads a state of "
                                + Json.excerpt(load.digest())
                                + " at "
                                + load.span()
                                + " tokens, which the store does not hold");
            }
            long[][] named = PlanSafety.blockIds(load.blocksByGroup());
            if (named == null || !Arrays.deepEquals(named, wanted)) {
                findings.add(
                        who
                                + ": loads into blocks "
                                + load.blocksByGroup()
                                + ", where the request's blocks for the"
                                + " restored tokens are "
                                + blocks(wanted));
            }
        }
        return findings;
    }

    private static String blocks(long[][] blocks) {
        return Arrays.deepToString(blocks).replace(" ", "");
    }
}
