package io.proofgate.bytecheck;

import io.proofgate.protocol.Event;
import io.proofgate.protocol.Group;
import io.proofgate.protocol.LoadBlocks;
import io.proofgate.protocol.RawValue;
import io.proofgate.protocol.Topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * vLLM's block contents as the event stream implies them, simulated: the one simulation of vLLM's blocks, which {@link
 * ByteCheckHarness} writes into a page store as bytes and {@link PlanContents} reads as contents.
 *
 * <p>What the simulated vLLM does, per step, in this order (docs/page-stores.md has the rationale):
 *
 * <ol>
 *   <li>Preempted requests release their blocks, those handed over for them and those of their table, but for a block
 *       another request's table holds too; a released block is scribbled over, because vLLM may reuse it at once,
 *       unless the connector pins it ({@link #pin}) for a save its workers copy later: then it is scribbled over when
 *       the last such pin ends.
 *   <li>A new request's tokens in vLLM's own prefix cache (its computed tokens less its external ones) are its
 *       attention blocks' chunks already, as a resumed request's computed prefix is.
 *   <li>A new request with external tokens has them loaded, as the restore rules demand (the conformance kit judges the
 *       connector's load against them apart): its attention blocks from the tokens vLLM had to the hit hold their
 *       chunks, its recurrent blocks at the hit's column the state at the hit.
 *   <li>Each scheduled request (new, then cached) takes its table from {@code block_ids}, extends it by {@code
 *       new_block_ids} (replaces it when resumed), and computes tokens {@code [computed, computed + scheduled)}: an
 *       attention group's table entry {@code i} holds chunk {@code i} of the prefix once the computation reaches it; a
 *       recurrent group's running slot (the last non-null entry of its table) holds the state after {@code computed +
 *       scheduled} tokens, every step.
 *   <li>Each well-formed entry {@code (group, block, boundary)} of {@code recurrent_boundary_blocks} for a request
 *       scheduled in the step, in a recurrent group, with a non-null block and {@code 0 < boundary <= computed +
 *       scheduled}, pins {@code block} holding the state at {@code boundary}: the aligned block of the step that
 *       reached it, or the copy-on-write target of the step after. Entries that claim an uncomputed state write
 *       nothing.
 *   <li>A running request's superseded state blocks are released ({@link #freeSuperseded}).
 * </ol>
 */
final class VllmBlocks {

    /** Told of every block whose content changes, as it changes. */
    @FunctionalInterface
    interface Writes {
        void write(int group, long id, BlockContent content);
    }

    private final Topology topology;
    private final Writes writes;
    private final List<Map<Long, BlockContent>> contents = new ArrayList<>();

    /** The step in which each block got its content, per group. */
    private final List<Map<Long, Long>> since = new ArrayList<>();

    private final Map<String, Request> requests = new HashMap<>();
    private final Set<String> scheduled = new HashSet<>();

    /** The connector's pins, per group: how many outstanding saves hold each block. */
    private final List<Map<Long, Integer>> held = new ArrayList<>();

    /**
     * Blocks vLLM let go while the connector held them, per group, with who let them go: released when the last pin
     * ends.
     */
    private final List<Map<Long, String>> letGoWhileHeld = new ArrayList<>();

    /**
     * How many times the tables of live requests name each block, per group (a shared prefix names it twice or more).
     */
    private final List<Map<Long, Integer>> inTables = new ArrayList<>();

    private long step;

    /** One request as the simulated vLLM sees it. */
    private static final class Request {
        final String digest;
        final long[][] table;
        final int[] length;
        long done;
        final List<long[]> pinned = new ArrayList<>();

        /** Per group, the columns below which superseded blocks were let go already. */
        final int[] retired;

        /** Whether its table is counted in {@link #inTables}: from its scheduling to its preemption or finish. */
        boolean counted;

        Request(String digest, long[][] blockIds) {
            this.digest = digest;
            this.table = new long[blockIds.length][];
            this.length = new int[blockIds.length];
            this.retired = new int[blockIds.length];
            replace(blockIds);
        }

        void replace(long[][] blockIds) {
            for (int g = 0; g < table.length; g++) {
                table[g] = blockIds[g].clone();
                length[g] = blockIds[g].length;
                retired[g] = 0;
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

    VllmBlocks(Topology topology, Writes writes) {
        this.topology = topology;
        this.writes = writes;
        for (int g = 0; g < topology.groups().size(); g++) {
            contents.add(new HashMap<>());
            since.add(new HashMap<>());
            inTables.add(new HashMap<>());
            held.add(new HashMap<>());
            letGoWhileHeld.add(new HashMap<>());
        }
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
            case Event.Held held -> {}
            case Event.Lookup lookup -> {}
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

    /** The step in which block {@code id} of group {@code g} got what it holds, or -1 if it was never written. */
    long since(int g, long id) {
        return since.get(g).getOrDefault(id, -1L);
    }

    /** The last step followed. */
    long step() {
        return step;
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
            count(request, 0, true);
            requests.put(n.id(), request);
            scheduled.add(n.id());
            cachedPrefix(request, n.computed() - n.external());
            if (n.external() > 0) {
                loaded(request, n.computed() - n.external(), n.computed());
            }
            compute(request, n.computed(), n.scheduled());
        }
        Map<String, int[]> running = new HashMap<>(); // a running request's running column per group, before the step
        for (Event.CachedRequest c : s.cachedRequests()) {
            Request request = requests.get(c.id());
            if (request == null) {
                continue; // a request the log never introduced: its prefix is unknown
            }
            scheduled.add(c.id());
            if (c.resumed()) {
                uncount(request);
                request.replace(c.newBlockIds().byGroup());
                count(request, 0, true);
                cachedPrefix(request, c.computed());
            } else {
                running.put(c.id(), runningColumns(request));
                int[] from = request.length.clone();
                request.extend(c.newBlockIds().byGroup());
                count(request, from, true);
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
        running.forEach((id, columns) -> freeSuperseded(id, requests.get(id), columns));
    }

    /** Per group, the column of the request's running block (its last non-null entry), -1 for none. */
    private int[] runningColumns(Request request) {
        int[] columns = new int[request.table.length];
        for (int g = 0; g < columns.length; g++) {
            columns[g] = -1;
            for (int i = request.length[g] - 1; i >= 0; i--) {
                if (request.table[g][i] > 0) {
                    columns[g] = i;
                    break;
                }
            }
        }
        return columns;
    }

    /**
     * A superseded state block is freed one step later: the blocks of a recurrent group's table before the column that
     * ran before this step, unless vLLM handed one over in this epoch (the seed's fork keeps those until preemption or
     * finish) or the connector pins it.
     */
    private void freeSuperseded(String id, Request request, int[] columns) {
        for (Group group : topology.groups()) {
            if (!group.isRecurrent()) {
                continue;
            }
            int g = group.index();
            // each column once: those below retired were let go, or kept, at an earlier step
            for (int i = request.retired[g]; i < columns[g]; i++) {
                long b = request.table[g][i];
                if (b <= 0 || handedOver(request, g, b) || sharedWithAnother(request, g, b)) {
                    continue;
                }
                if (held.get(g).containsKey(b)) {
                    letGoWhileHeld.get(g).put(b, id);
                } else {
                    write(g, b, new BlockContent.Released(id, step));
                }
            }
            request.retired[g] = Math.max(request.retired[g], columns[g]);
        }
    }

    private static boolean handedOver(Request request, int g, long b) {
        for (long[] pinned : request.pinned) {
            if (pinned[0] == g && pinned[1] == b) {
                return true;
            }
        }
        return false;
    }

    /**
     * The connector pins block {@code id} of group {@code g} for a save its workers copy later: vLLM does not free it
     * until {@link #unpin}, so it keeps what it holds unless a step writes it.
     */
    void pin(int g, long id) {
        held.get(g).merge(id, 1, Integer::sum);
    }

    /** One pin of {@link #pin} ends; a block vLLM let go meanwhile is released with the last. */
    void unpin(int g, long id) {
        Integer left = held.get(g).computeIfPresent(id, (k, n) -> n == 1 ? null : n - 1);
        if (left == null) {
            String request = letGoWhileHeld.get(g).remove(id);
            if (request != null) {
                write(g, id, new BlockContent.Released(request, step));
            }
        }
    }

    /**
     * vLLM lets the request's blocks go: those it handed over and its table's, but for a block another request's table
     * holds too (a shared prefix). They may be reused at once, unless the connector holds them.
     */
    private void release(String id, Request request) {
        uncount(request); // what the live tables still name after this, another request holds
        Set<List<Long>> blocks = new java.util.LinkedHashSet<>();
        for (long[] pinned : request.pinned) {
            blocks.add(List.of(pinned[0], pinned[1]));
        }
        for (int g = 0; g < request.table.length; g++) {
            for (int i = 0; i < request.length[g]; i++) {
                if (request.table[g][i] > 0) {
                    blocks.add(List.of((long) g, request.table[g][i]));
                }
            }
        }
        for (List<Long> block : blocks) {
            int g = block.get(0).intValue();
            long b = block.get(1);
            if (inTables.get(g).containsKey(b)) {
                continue;
            }
            if (held.get(g).containsKey(b)) {
                letGoWhileHeld.get(g).put(b, id);
            } else {
                write(g, b, new BlockContent.Released(id, step));
            }
        }
        request.pinned.clear();
    }

    /**
     * Whether a table other than this live request's names block {@code b}: its count in the live tables beyond its own
     * table's.
     */
    private boolean sharedWithAnother(Request request, int g, long b) {
        int own = 0;
        for (int i = 0; i < request.length[g]; i++) {
            own += request.table[g][i] == b ? 1 : 0;
        }
        return inTables.get(g).getOrDefault(b, 0) > own;
    }

    /** Counts the request's table from column {@code from} of every group on (its new blocks). */
    private void count(Request request, int from, boolean add) {
        int[] columns = new int[request.table.length];
        Arrays.fill(columns, from);
        count(request, columns, add);
    }

    private void count(Request request, int[] from, boolean add) {
        for (int g = 0; g < request.table.length; g++) {
            Map<Long, Integer> counts = inTables.get(g);
            for (int i = from[g]; i < request.length[g]; i++) {
                long b = request.table[g][i];
                if (b > 0) {
                    counts.merge(b, add ? 1 : -1, (x, y) -> x + y == 0 ? null : x + y);
                }
            }
        }
        request.counted = add;
    }

    /** The request's table no longer holds its blocks (preemption or finish); counted once. */
    private void uncount(Request request) {
        if (request.counted) {
            count(request, 0, false);
        }
    }

    /**
     * The request's table holds its first {@code computed} tokens already (vLLM's own prefix-cache hits, or a resumed
     * request's recomputation before the step): its attention blocks hold their chunks.
     */
    private void cachedPrefix(Request request, long computed) {
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

    /** The restore rules' load of tokens {@code from} to {@code restored} into the request's blocks. */
    private void loaded(Request request, long from, long restored) {
        for (Group group : topology.groups()) {
            int g = group.index();
            long end = Math.min(LoadBlocks.endColumn(group, restored), request.length[g]);
            for (long i = Math.max(0, LoadBlocks.firstColumn(group, from, restored)); i < end; i++) {
                long block = request.table[g][(int) i];
                if (block > 0) {
                    write(
                            g,
                            block,
                            group.isRecurrent()
                                    ? new BlockContent.Recurrent(request.digest, restored)
                                    : new BlockContent.Attention(request.digest, i));
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
            if (item instanceof RawValue.ListOf(List<RawValue> fields)
                    && fields.size() == 3
                    && fields.get(0) instanceof RawValue.Int(long g)
                    && fields.get(1) instanceof RawValue.Int(long b)
                    && fields.get(2) instanceof RawValue.Int(long boundary)
                    && g >= 0
                    && g < topology.groups().size()
                    && topology.groups().get((int) g).isRecurrent()
                    && b > 0
                    && boundary > 0
                    && boundary <= request.done) {
                write((int) g, b, new BlockContent.Recurrent(request.digest, boundary));
                request.pinned.add(new long[] {g, b});
            }
        }
    }

    /** Simulates vLLM writing {@code content} into a block. */
    private void write(int group, long id, BlockContent content) {
        letGoWhileHeld.get(group).remove(id); // written by vLLM: in use again, not garbage to come
        if (!content.equals(contents.get(group).put(id, content))) {
            since.get(group).put(id, step);
            writes.write(group, id, content); // not when already there: a chunk touched again by a later step
        }
    }
}
