package io.proofgate.protocol;

import java.util.HashMap;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * The restore half of the reference connector (protocol §3, "Restore rules"): the prefixes it published, what it
 * answers to a lookup, and what it loads for a request vLLM scheduled with its hit. Its policy: the longest prefix it
 * published that the request's prompt extends, on every recurrent group's block grid and strictly below the prompt's
 * end.
 *
 * <p>Memory grows with the prefixes published and the lookups not yet followed by their request's first step (or its
 * finish). A connector of the store half only (a {@code proofgate-events/v1} log) keeps nothing here, and is sent no
 * lookup and no external tokens.
 */
final class Restores {

    /** A lookup's answer, taken until the request's first step: vLLM's own tokens, and the hit beyond them. */
    private record Taken(long computed, long tokens) {}

    private final Topology topology;

    /** The tokens a hit must be a multiple of: every recurrent group's block size (1 without one). */
    private final long grid;

    /** The targets of the plans published, per digest. */
    private final Map<String, NavigableSet<Long>> published = new HashMap<>();

    private final Map<String, Taken> taken = new HashMap<>();

    /** False for a connector of the store half only. */
    private final boolean enabled;

    Restores(Topology topology, boolean enabled) {
        this.topology = topology;
        this.grid = topology.recurrentGrid();
        this.enabled = enabled;
    }

    /** The connector published a plan: the prefix {@code digest} of {@code target} tokens is in its store. */
    void published(String digest, long target) {
        if (enabled) {
            published.computeIfAbsent(digest, d -> new TreeSet<>()).add(target);
        }
    }

    /** The answer to a lookup, remembered for the request's first step. */
    Verdict.Hit lookup(long step, Event.Lookup lookup) {
        if (!enabled) {
            throw new InvalidEventException("a lookup, sent to a connector of the store half only");
        }
        long restored = longestHeld(lookup.digest(), lookup.promptTokens(), lookup.computed());
        long tokens = restored > lookup.computed() ? restored - lookup.computed() : 0;
        taken.put(lookup.id(), new Taken(lookup.computed(), tokens));
        return new Verdict.Hit(step, lookup.id(), tokens);
    }

    /**
     * The longest published target of {@code digest} on the grid, strictly below the prompt's end (vLLM computes the
     * last prompt token again for its logits) and beyond what vLLM has; 0 for none.
     */
    private long longestHeld(String digest, long promptTokens, long computed) {
        NavigableSet<Long> targets = published.get(digest);
        if (targets == null) {
            return 0;
        }
        for (Long target : targets.headSet(promptTokens, false).descendingSet()) {
            if (target <= computed) {
                return 0;
            }
            if (target % grid == 0) {
                return target;
            }
        }
        return 0;
    }

    /**
     * Checks a new request's external tokens against this connector's answer before the step is applied: vLLM takes
     * exactly the tokens the connector answered, on top of its own.
     */
    void check(Event.NewRequest request) {
        Taken answered = taken.get(request.id());
        if (request.external() == 0) {
            return;
        }
        if (!enabled) {
            throw new InvalidEventException(
                    "new request \""
                            + request.id()
                            + "\" has external tokens, sent to a connector"
                            + " of the store half only");
        }
        if (answered == null) {
            throw new InvalidEventException(
                    "new request \""
                            + request.id()
                            + "\" has "
                            + request.external()
                            + " external tokens, and no lookup of it came before");
        }
        if (request.external() != answered.tokens() || request.computed() != answered.computed() + answered.tokens()) {
            throw new InvalidEventException(
                    "new request \""
                            + request.id()
                            + "\" has computed "
                            + request.computed()
                            + " with "
                            + request.external()
                            + " external tokens, where its lookup had computed "
                            + answered.computed()
                            + " and the connector's hit was "
                            + answered.tokens()
                            + " tokens");
        }
        long restored = request.computed();
        for (Group group : topology.groups()) {
            if (group.isRecurrent()) {
                long column = LoadBlocks.firstColumn(group, 0, restored);
                long[] table = request.blockIds().groupView(group.index());
                if (column >= table.length || table[(int) column] <= 0) {
                    throw new InvalidEventException(
                            "new request \""
                                    + request.id()
                                    + "\" restores "
                                    + restored
                                    + " tokens, and its table in group "
                                    + group.index()
                                    + " has no block at column "
                                    + column);
                }
            }
        }
    }

    /**
     * The load of a new request vLLM scheduled with external tokens (checked by {@link #check}), or null for one
     * without: the blocks that hold the tokens from vLLM's own to the hit.
     */
    Verdict.Load load(long step, Event.NewRequest request) {
        Taken answered = taken.remove(request.id());
        if (request.external() == 0) {
            return null;
        }
        long restored = request.computed();
        long[][] blocks = LoadBlocks.of(topology, request.blockIds(), answered.computed(), restored);
        return new Verdict.Load(step, request.id(), request.digest(), restored, BlockIds.adopt(blocks));
    }

    /** The request finished: a lookup it had is over. */
    void finished(String id) {
        taken.remove(id);
    }
}
