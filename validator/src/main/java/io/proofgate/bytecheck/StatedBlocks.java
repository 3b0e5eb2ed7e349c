package io.proofgate.bytecheck;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * vLLM's blocks as a scenario states them after each event, where {@link VllmBlocks} derives them
 * from the events: what a model of vLLM computed (speculative decoding, a pool whose freed blocks
 * are given out again), which the events alone cannot tell. The blocks are the pool's, one id
 * space for every group. A connector's pin is honoured: a pinned block that an event lets go keeps
 * what it held before that event (vLLM frees at a step's start), since vLLM would not have given
 * it out while the pin held it.
 */
final class StatedBlocks {

    private Map<Long, BlockContent> now = Map.of();
    private final Map<Long, Long> since = new HashMap<>();
    private final Map<Long, Integer> pins = new HashMap<>();
    /** Pinned blocks that vLLM let go, with what they held then. */
    private final Map<Long, BlockContent> kept = new HashMap<>();

    /** What every block holds after the event of step {@code step}, and the blocks that event let go. */
    void after(long step, Map<Long, BlockContent> contents, Set<Long> released) {
        for (long block : released) {
            if (pins.containsKey(block) && !kept.containsKey(block) && now.containsKey(block)) {
                kept.put(block, now.get(block));
            }
        }
        contents.forEach((block, content) -> {
            if (!Objects.equals(now.get(block), content)) {
                since.put(block, step);
            }
        });
        now = Map.copyOf(contents);
    }

    void pin(long block) {
        pins.merge(block, 1, Integer::sum);
    }

    void unpin(long block) {
        if (pins.computeIfPresent(block, (b, n) -> n == 1 ? null : n - 1) == null) {
            kept.remove(block);
        }
    }

    /** What the block holds for a copy now, or null for a block the scenario does not state. */
    BlockContent content(long block) {
        BlockContent held = kept.get(block);
        return held != null ? held : now.get(block);
    }

    /** The step after whose event the block's stated content last changed, or -1. */
    long since(long block) {
        return since.getOrDefault(block, -1L);
    }
}
