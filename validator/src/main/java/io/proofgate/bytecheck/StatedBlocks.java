package io.proofgate.bytecheck;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * vLLM's blocks as a scenario states them after each event, where {@link VllmBlocks} derives them from the events: what
 * a model of vLLM computed (speculative decoding, a pool whose freed blocks are given out again), which the events
 * alone cannot tell. The blocks are the pool's, one id space for every group.
 *
 * <p>A connector's pin is honoured per copy ({@link Pin}): a pinned block that an event lets go keeps, for the copy
 * that pinned it, what it held before that event (vLLM frees at a step's start), since vLLM would not have given it out
 * while the pin held it. The scenario's later events are the unpinned vLLM's, so every other plan is judged on what
 * they state.
 */
final class StatedBlocks {

    private Map<Long, BlockContent> now = Map.of();
    private Map<Long, BlockContent> before = Map.of();
    private Set<Long> released = Set.of();
    private final Map<Long, Long> since = new HashMap<>();
    private Map<Long, Long> sinceBefore = Map.of();

    /** What every block holds after the event of step {@code step}, and the blocks that event let go. */
    void after(long step, Map<Long, BlockContent> contents, Set<Long> released) {
        before = now;
        sinceBefore = Map.copyOf(since);
        contents.forEach(
                (block, content) -> {
                    if (!Objects.equals(now.get(block), content)) {
                        since.put(block, step);
                    }
                });
        now = Map.copyOf(contents);
        this.released = Set.copyOf(released);
    }

    /** What the block holds now, or null for a block the scenario does not state. */
    BlockContent content(long block) {
        return now.get(block);
    }

    /** The step after whose event the block's stated content last changed, or -1. */
    long since(long block) {
        return since.getOrDefault(block, -1L);
    }

    /** A pin on {@code blocks} for one copy, from the latest event on. */
    Pin pin(Set<Long> blocks) {
        return new Pin(Set.copyOf(blocks));
    }

    /** The blocks one pinned copy reads: what each held when vLLM let it go, or what it holds now. */
    final class Pin {
        private final Set<Long> blocks;
        private final Map<Long, BlockContent> kept = new HashMap<>();
        private final Map<Long, Long> keptSince = new HashMap<>();

        private Pin(Set<Long> blocks) {
            this.blocks = blocks;
        }

        /** Follows the latest event: a block of the pin that it let go keeps what it held before it. */
        void follow() {
            for (long block : blocks) {
                if (released.contains(block) && !kept.containsKey(block) && before.containsKey(block)) {
                    kept.put(block, before.get(block));
                    keptSince.put(block, sinceBefore.getOrDefault(block, -1L));
                }
            }
        }

        BlockContent content(long block) {
            BlockContent held = kept.get(block);
            return held != null ? held : now.get(block);
        }

        long since(long block) {
            Long at = keptSince.get(block);
            return at != null ? at : StatedBlocks.this.since(block);
        }
    }
}
