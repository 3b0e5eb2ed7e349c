package io.proofgate.bytecheck;

import io.proofgate.protocol.Event;
import io.proofgate.protocol.Group;
import io.proofgate.protocol.RawValue;
import io.proofgate.protocol.Topology;
import io.proofgate.store.PageStore;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * vLLM's block contents as the event stream implies them, simulated and written into a
 * {@link PageStore}: what {@link ByteCheckHarness} checks each plan's pages against. Each block
 * id a log names gets a slot of the store, in the order first written.
 *
 * <p>What the simulated vLLM does, per step, in this order (docs/page-stores.md has the rationale):
 * <ol>
 *   <li>Preempted requests release the blocks pinned for them; a released block is scribbled
 *       over, because vLLM may reuse it at once.</li>
 *   <li>Each scheduled request (new, then cached) takes its table from {@code block_ids}, extends
 *       it by {@code new_block_ids} (replaces it when resumed), and computes tokens
 *       {@code [computed, computed + scheduled)}: an attention group's table entry {@code i} holds
 *       chunk {@code i} of the prefix once the computation reaches it; a recurrent group's running
 *       slot (the last non-null entry of its table) holds the state after
 *       {@code computed + scheduled} tokens, every step.</li>
 *   <li>Each well-formed entry {@code (group, block, boundary)} of {@code recurrent_boundary_blocks}
 *       for a request scheduled in the step, in a recurrent group, with a non-null block and
 *       {@code 0 < boundary <= computed + scheduled}, pins {@code block} holding the state at
 *       {@code boundary}: the aligned block of the step that reached it, or the copy-on-write
 *       target of the step after. Entries that claim an uncomputed state write nothing.</li>
 * </ol>
 */
final class VllmBlocks {
    private final Topology topology;
    private final PageStore store;
    private final int slotLimit;
    private final List<Map<Long, Integer>> slots = new ArrayList<>();
    private final List<Map<Long, BlockContent>> contents = new ArrayList<>();
    private final Map<String, Request> requests = new HashMap<>();
    private final Set<String> scheduled = new HashSet<>();
    /** One block's pages, written to the store; owned by the arena given to the constructor. */
    private final MemorySegment block;
    private long step;

    /** One request as the simulated vLLM sees it. */
    private static final class Request {
        final String digest;
        final long[][] table;
        final int[] length;
        long done;
        final List<long[]> pinned = new ArrayList<>();

        Request(String digest, long[][] blockIds) {
            this.digest = digest;
            this.table = new long[blockIds.length][];
            this.length = new int[blockIds.length];
            replace(blockIds);
        }

        void replace(long[][] blockIds) {
            for (int g = 0; g < table.length; g++) {
                table[g] = blockIds[g].clone();
                length[g] = blockIds[g].length;
            }
        }

        void extend(long[][] blockIds) {
            for (int g = 0; g < table.length; g++) {
                long[] more = blockIds[g];
                if (length[g] + more.length > table[g].length) {
                    table[g] = Arrays.copyOf(table[g], Math.max(2 * table[g].length, length[g] + more.length));
                }
                System.arraycopy(more, 0, table[g], length[g], more.length);
                length[g] += more.length;
            }
        }
    }

    /**
     * @param slotLimit the store slots per group that blocks named by the log may take
     * @param arena owns this simulation's write buffer
     */
    VllmBlocks(Topology topology, PageStore store, int slotLimit, Arena arena) {
        this.topology = topology;
        this.store = store;
        this.slotLimit = slotLimit;
        for (int g = 0; g < topology.groups().size(); g++) {
            slots.add(new HashMap<>());
            contents.add(new HashMap<>());
        }
        this.block = arena.allocate(ByteCheckHarness.LAYERS * ByteCheckHarness.PAGE_BYTES, 8);
    }

    /** Follows one event; call before the connector applies it. */
    void event(Event event) {
        switch (event) {
            case Event.Step s -> step(s);
            case Event.Finished finished -> {
                Request request = requests.remove(finished.id());
                if (request != null) {
                    release(finished.id(), request);
                }
            }
            case Event.Held held -> { }
        }
    }

    /** Whether the request was scheduled and has not finished. */
    boolean knows(String id) {
        return requests.containsKey(id);
    }

    /** The request's block table in group {@code g} (a copy), or none for a request it does not know. */
    long[] table(String id, int g) {
        Request r = requests.get(id);
        return r == null ? new long[0] : Arrays.copyOf(r.table[g], r.length[g]);
    }

    /** The store slot of block {@code id} of group {@code g}, or -1 if the block was never written. */
    int slotOf(int g, long id) {
        Integer slot = slots.get(g).get(id);
        return slot == null ? -1 : slot;
    }

    /** What block {@code id} of group {@code g} holds, or null if it was never written. */
    BlockContent content(int g, long id) {
        return contents.get(g).get(id);
    }

    private void step(Event.Step s) {
        step = s.step();
        for (String id : s.preempted()) {
            Request request = requests.get(id);
            if (request != null) {
                release(id, request);
            }
        }
        scheduled.clear();
        for (Event.NewRequest n : s.newRequests()) {
            Request request = new Request(n.digest(), n.blockIds().byGroup());
            requests.put(n.id(), request);
            scheduled.add(n.id());
            compute(request, n.computed(), n.scheduled());
        }
        for (Event.CachedRequest c : s.cachedRequests()) {
            Request request = requests.get(c.id());
            if (request == null) {
                continue; // a request the log never introduced: its prefix is unknown
            }
            scheduled.add(c.id());
            if (c.resumed()) {
                request.replace(c.newBlockIds().byGroup());
                resumePrefix(request, c.computed());
            } else {
                request.extend(c.newBlockIds().byGroup());
            }
            compute(request, c.computed(), c.scheduled());
        }
        if (topology.recurrentGroupCount() > 0 && s.evidence() instanceof RawValue.MapOf map) {
            for (String id : scheduled) {
                if (map.entries().get(id) instanceof RawValue.ListOf entries) {
                    pin(requests.get(id), entries);
                }
            }
        }
    }

    /** vLLM unpins the request's blocks; they may be reused at once. */
    private void release(String id, Request request) {
        for (long[] pinned : request.pinned) {
            write((int) pinned[0], pinned[1], new BlockContent.Released(id, step));
        }
        request.pinned.clear();
    }

    /**
     * A resumed request's new table holds its computed prefix already (prefix-cache hits, or
     * recomputation before the step): its attention blocks hold their chunks.
     */
    private void resumePrefix(Request request, long computed) {
        for (Group group : topology.groups()) {
            if (group.isRecurrent()) {
                continue;
            }
            int g = group.index();
            long blocks = Math.min(request.length[g], (computed + group.blockTokens() - 1) / group.blockTokens());
            for (int i = 0; i < blocks; i++) {
                if (request.table[g][i] > 0) {
                    write(g, request.table[g][i], new BlockContent.Attention(request.digest, i));
                }
            }
        }
    }

    private void compute(Request request, long computed, long scheduledTokens) {
        long end = computed + scheduledTokens;
        request.done = end;
        for (Group group : topology.groups()) {
            int g = group.index();
            long[] table = request.table[g];
            int length = request.length[g];
            if (group.isRecurrent()) {
                for (int i = length - 1; i >= 0; i--) {
                    if (table[i] > 0) {
                        write(g, table[i], new BlockContent.Recurrent(request.digest, end));
                        break;
                    }
                }
            } else if (scheduledTokens > 0) {
                long first = computed / group.blockTokens();
                long last = Math.min(length - 1, (end - 1) / group.blockTokens());
                for (long i = first; i <= last; i++) {
                    if (table[(int) i] > 0) {
                        write(g, table[(int) i], new BlockContent.Attention(request.digest, i));
                    }
                }
            }
        }
    }

    private void pin(Request request, RawValue.ListOf entries) {
        for (RawValue item : entries.items()) {
            if (item instanceof RawValue.ListOf(List<RawValue> fields) && fields.size() == 3
                    && fields.get(0) instanceof RawValue.Int(long g) && fields.get(1) instanceof RawValue.Int(long b)
                    && fields.get(2) instanceof RawValue.Int(long boundary)
                    && g >= 0 && g < topology.groups().size() && topology.groups().get((int) g).isRecurrent()
                    && b > 0 && boundary > 0 && boundary <= request.done) {
                write((int) g, b, new BlockContent.Recurrent(request.digest, boundary));
                request.pinned.add(new long[] {g, b});
            }
        }
    }

    /** Simulates vLLM writing {@code content} into a block: the bytes go into the store. */
    private void write(int group, long id, BlockContent content) {
        if (content.equals(contents.get(group).put(id, content))) {
            return; // already there: an attention chunk touched again by a later step
        }
        long pageBytes = ByteCheckHarness.PAGE_BYTES;
        for (int layer = 0; layer < ByteCheckHarness.LAYERS; layer++) {
            PageBytes.fill(block.asSlice(layer * pageBytes, pageBytes), group, id, content, layer);
        }
        store.write(group, slot(group, id), block);
    }

    private int slot(int group, long id) {
        Map<Long, Integer> map = slots.get(group);
        Integer slot = map.get(id);
        if (slot == null) {
            if (map.size() >= slotLimit) {
                throw new IllegalStateException("the log names more than " + slotLimit + " distinct blocks in group "
                        + group + " (raise -Dproofgate.store.blocks)");
            }
            slot = map.size();
            map.put(id, slot);
        }
        return slot;
    }
}
