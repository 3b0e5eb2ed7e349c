package io.proofgate.bytecheck;

import io.proofgate.protocol.Event;
import io.proofgate.protocol.Group;
import io.proofgate.protocol.Topology;
import io.proofgate.protocol.Verdict;
import io.proofgate.store.Digests;
import io.proofgate.store.PageStore;
import io.proofgate.store.Snapshot;
import io.proofgate.store.StoreKind;
import io.proofgate.store.StoreLayout;
import io.proofgate.store.cuda.CudaUnavailableException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Byte-level conformance: on every plan, gathers the published blocks through a {@link PageStore} into which {@link
 * VllmBlocks} has written vLLM's simulated block contents, checks each page against the content the target demands,
 * restores the snapshot into fresh blocks and checks those again. It only observes: call {@link #event} before the
 * connector applies an event and {@link #verdict} with each verdict the connector returns for it.
 *
 * <p>A plan demands, for the prefix {@code digest} and span {@code s}: a {@code full} group's {@code i}-th block holds
 * attention chunk {@code i}; a {@code sliding} group's holds chunk {@code floor(max(0, s - window) / block_tokens) +
 * i}; a recurrent group's block holds the state at {@code s}. Expected bytes are {@link PageBytes} of (group, published
 * block id, that content).
 */
public final class ByteCheckHarness implements AutoCloseable, io.proofgate.replay.Replay.Observer {

    /** Layers per block and bytes per page of the simulated pools. */
    public static final int LAYERS = 2;

    public static final long PAGE_BYTES = 128;

    /** Distinct block ids per group that a log may name; {@code -Dproofgate.store.blocks}. */
    public static final int DEFAULT_BLOCKS = Integer.getInteger("proofgate.store.blocks", 1 << 16);

    /** Fresh blocks per group reserved for restores: the most blocks one plan may select in a group. */
    public static final int RESTORE_BLOCKS = 4096;

    /** The most page-pool memory a harness allocates unless told otherwise: 4 GiB. */
    public static final long MAX_POOL_BYTES = Long.getLong("proofgate.store.maxBytes", 4L << 30);

    private static final int FINDINGS_KEPT = 100;

    private final Topology topology;
    private final PageStore store;
    private final CopiedBlocks copies;
    private final int slotLimit;

    /** Owns the page and check buffers below and the simulation's; closed with the harness. */
    private final Arena arena = Arena.ofConfined();

    private final VllmBlocks blocks;

    /** The store slot of each block id the log names, per group, in the order first written. */
    private final List<Map<Long, Integer>> slots = new ArrayList<>();

    private final MemorySegment block;
    private final MemorySegment expectedPage;
    private MemorySegment checked;
    private Snapshot snapshot;
    private final List<ByteFinding> findings = new ArrayList<>();
    private long findingCount;
    private long plansChecked;
    private long pagesChecked;

    /** A harness over {@code store}, which must have {@link #layoutFor}'s geometry for the topology. */
    public ByteCheckHarness(Topology topology, PageStore store, CopiedBlocks copies) {
        this.topology = topology;
        this.store = store;
        this.copies = copies;
        StoreLayout expected = layoutFor(topology, (int) (store.layout().group(0).blocks() - RESTORE_BLOCKS));
        if (!store.layout().equals(expected)) {
            throw new IllegalArgumentException(
                    "the store's layout " + store.layout() + " is not the harness's " + expected);
        }
        this.slotLimit = (int) (store.layout().group(0).blocks() - RESTORE_BLOCKS);
        for (int g = 0; g < topology.groups().size(); g++) {
            slots.add(new HashMap<>());
        }
        this.block = arena.allocate(LAYERS * PAGE_BYTES, 8);
        this.blocks = new VllmBlocks(topology, this::writeBytes);
        this.expectedPage = arena.allocate(PAGE_BYTES, 8);
        this.checked = arena.allocate(64 * LAYERS * PAGE_BYTES, 8);
    }

    /** Opens a store of {@code kind} sized for {@code topology} and a harness that owns it. */
    public static ByteCheckHarness open(Topology topology, StoreKind kind, CopiedBlocks copies)
            throws CudaUnavailableException {
        return open(topology, kind, copies, DEFAULT_BLOCKS);
    }

    /**
     * As {@link #open(Topology, StoreKind, CopiedBlocks)}, with room for {@code blocks} distinct block ids per group;
     * the store is closed again if the harness cannot be made.
     */
    public static ByteCheckHarness open(Topology topology, StoreKind kind, CopiedBlocks copies, int blocks)
            throws CudaUnavailableException {
        StoreLayout layout = layoutFor(topology, blocks);
        long bytes = layout.poolBytes();
        // Checked before anything is allocated: pools are committed memory (about 18 MB a group at
        // the default room), and a topology of 10,000 groups woke the kernel's out-of-memory killer.
        if (bytes > MAX_POOL_BYTES) {
            throw new IllegalStateException(
                    "the topology's "
                            + topology.groups().size()
                            + " groups need "
                            + bytes
                            + " bytes of page pools ("
                            + blocks
                            + " blocks a group), more than the limit of "
                            + MAX_POOL_BYTES
                            + " bytes; raise it with PROOFGATE_JVM_OPTS=-Dproofgate.store.maxBytes=N,"
                            + " or lower the room with -Dproofgate.store.blocks=N");
        }
        PageStore store = kind.open(layout);
        try {
            return new ByteCheckHarness(topology, store, copies);
        } catch (Throwable e) {
            try {
                store.close();
            } catch (Throwable closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    /** The store geometry: every group {@link #LAYERS} pages of {@link #PAGE_BYTES}, blocks plus restore room. */
    public static StoreLayout layoutFor(Topology topology, int blocks) {
        return StoreLayout.uniform(topology.groups().size(), LAYERS, PAGE_BYTES, (long) blocks + RESTORE_BLOCKS);
    }

    public PageStore store() {
        return store;
    }

    /** Follows one event; call before the connector applies it. */
    @Override
    public void event(Event event) {
        blocks.event(event);
    }

    /** Checks a verdict; only plans publish anything. */
    @Override
    public void verdict(Verdict verdict) {
        if (verdict instanceof Verdict.Plan plan) {
            check(plan);
        }
    }

    private void check(Verdict.Plan plan) {
        if (!blocks.knows(plan.id())) {
            throw new IllegalStateException("plan for request " + plan.id() + " that the harness never saw scheduled");
        }
        long[][] published = copies.select(plan, blocks::table);
        int groups = topology.groups().size();
        BlockContent[][] expected = new BlockContent[groups][];
        long[][] storeBlocks = new long[groups][];
        boolean gatherable = true;
        for (int g = 0; g < groups; g++) {
            Group group = topology.groups().get(g);
            expected[g] = new BlockContent[published[g].length];
            storeBlocks[g] = new long[published[g].length];
            for (int i = 0; i < published[g].length; i++) {
                expected[g][i] = PlanContents.demanded(group, plan.digest(), plan.target(), i);
                Integer slot = slots.get(g).get(published[g][i]);
                if (slot == null) {
                    gatherable = false;
                    report(
                            plan,
                            g,
                            published[g][i],
                            "published",
                            expected[g][i],
                            "block " + published[g][i] + " was never written");
                } else {
                    storeBlocks[g][i] = slot;
                }
            }
        }
        plansChecked++;
        if (!gatherable) {
            return;
        }
        long bytes = store.layout().snapshotBytes(storeBlocks);
        if (snapshot == null || snapshot.capacity() < bytes) {
            if (snapshot != null) {
                snapshot.close();
            }
            snapshot = store.newSnapshot(Math.max(bytes, 64 * LAYERS * PAGE_BYTES));
        }
        if (checked.byteSize() < bytes) {
            checked = arena.allocate(Math.max(bytes, 2 * checked.byteSize()), 8);
        }
        store.gather(storeBlocks, snapshot);
        MemorySegment gathered = checked.asSlice(0, bytes);
        store.copyOut(snapshot, 0, gathered);
        boolean[][] wrong = comparePages(plan, published, expected, gathered);
        boolean pagesMatch = Arrays.stream(wrong).allMatch(group -> !contains(group));
        // The pages matched, so the gathered bytes are the expected ones: hash them rather than fill
        // every expected page a third time.
        if (pagesMatch && !Arrays.equals(store.sha256(snapshot), Digests.sha256(gathered))) {
            report(
                    plan,
                    0,
                    published.length > 0 && published[0].length > 0 ? published[0][0] : 0,
                    "published",
                    expected[0].length > 0 ? expected[0][0] : new BlockContent.Fresh(0),
                    "the snapshot's SHA-256 from the store differs from the SHA-256 of its bytes");
        }
        restore(plan, published, expected, wrong);
    }

    private static boolean contains(boolean[] flags) {
        for (boolean flag : flags) {
            if (flag) {
                return true;
            }
        }
        return false;
    }

    /**
     * Page by page in snapshot order (group, layer, block); one finding per wrong block. Returns the wrong blocks,
     * whose restored copies are then not reported a second time.
     */
    private boolean[][] comparePages(
            Verdict.Plan plan, long[][] published, BlockContent[][] expected, MemorySegment gathered) {
        boolean[][] wrong = new boolean[published.length][];
        long offset = 0;
        for (int g = 0; g < published.length; g++) {
            boolean[] reported = new boolean[published[g].length];
            wrong[g] = reported;
            for (int layer = 0; layer < LAYERS; layer++) {
                for (int i = 0; i < published[g].length; i++) {
                    PageBytes.fill(expectedPage, g, published[g][i], expected[g][i], layer);
                    pagesChecked++;
                    if (MemorySegment.mismatch(gathered, offset, offset + PAGE_BYTES, expectedPage, 0, PAGE_BYTES)
                            >= 0) {
                        if (!reported[i]) {
                            reported[i] = true;
                            report(
                                    plan,
                                    g,
                                    published[g][i],
                                    "published",
                                    expected[g][i],
                                    holds(g, published[g][i], layer));
                        }
                    }
                    offset += PAGE_BYTES;
                }
            }
        }
        return wrong;
    }

    /**
     * Scatters the snapshot into fresh blocks (filled with a filler first) and reads them back; blocks already reported
     * as published wrongly are not reported again.
     */
    private void restore(Verdict.Plan plan, long[][] published, BlockContent[][] expected, boolean[][] wrong) {
        long[][] fresh = new long[published.length][];
        BlockContent filler = new BlockContent.Fresh(plansChecked);
        for (int g = 0; g < published.length; g++) {
            if (published[g].length > RESTORE_BLOCKS) {
                throw new IllegalStateException(
                        "plan for request "
                                + plan.id()
                                + " selects "
                                + published[g].length
                                + " blocks in group "
                                + g
                                + ", more than the "
                                + RESTORE_BLOCKS
                                + " fresh blocks for restores");
            }
            fresh[g] = new long[published[g].length];
            for (int i = 0; i < fresh[g].length; i++) {
                fresh[g][i] = slotLimit + i;
                for (int layer = 0; layer < LAYERS; layer++) {
                    PageBytes.fill(block.asSlice(layer * PAGE_BYTES, PAGE_BYTES), g, fresh[g][i], filler, layer);
                }
                store.write(g, fresh[g][i], block);
            }
        }
        store.scatter(snapshot, fresh);
        for (int g = 0; g < published.length; g++) {
            for (int i = 0; i < fresh[g].length; i++) {
                store.read(g, fresh[g][i], block);
                for (int layer = 0; layer < LAYERS; layer++) {
                    PageBytes.fill(expectedPage, g, published[g][i], expected[g][i], layer);
                    pagesChecked++;
                    if (!wrong[g][i]
                            && MemorySegment.mismatch(
                                            block,
                                            layer * PAGE_BYTES,
                                            (layer + 1) * PAGE_BYTES,
                                            expectedPage,
                                            0,
                                            PAGE_BYTES)
                                    >= 0) {
                        report(
                                plan,
                                g,
                                published[g][i],
                                "restored",
                                expected[g][i],
                                "the fresh block restored from it " + "holds other bytes (layer " + layer + ")");
                        break;
                    }
                }
            }
        }
    }

    /** Writes vLLM's new content of a block into the store, as bytes. */
    private void writeBytes(int group, long id, BlockContent content) {
        for (int layer = 0; layer < LAYERS; layer++) {
            PageBytes.fill(block.asSlice(layer * PAGE_BYTES, PAGE_BYTES), group, id, content, layer);
        }
        Map<Long, Integer> map = slots.get(group);
        Integer slot = map.get(id);
        if (slot == null) {
            if (map.size() >= slotLimit) {
                throw new IllegalStateException(
                        "the log names more than "
                                + slotLimit
                                + " distinct blocks in group "
                                + group
                                + " (raise -Dproofgate.store.blocks)");
            }
            slot = map.size();
            map.put(id, slot);
        }
        store.write(group, slot, block);
    }

    /** What the simulation says the block holds, to explain a mismatch. */
    private String holds(int group, long id, int layer) {
        BlockContent content = blocks.content(group, id);
        if (content == null) {
            return "block " + id + " was never written";
        }
        return "block " + id + " holds " + content.describe() + " (layer " + layer + " differs)";
    }

    private void report(Verdict.Plan plan, int group, long id, String phase, BlockContent expected, String found) {
        findingCount++;
        if (findings.size() < FINDINGS_KEPT) {
            findings.add(new ByteFinding(plan.step(), plan.id(), group, id, phase, expected.describe(), found));
        }
    }

    /** The first findings (at most 100), in the order found. */
    public List<ByteFinding> findings() {
        return List.copyOf(findings);
    }

    /** All findings, including those not kept. */
    public long findingCount() {
        return findingCount;
    }

    public long plansChecked() {
        return plansChecked;
    }

    public long pagesChecked() {
        return pagesChecked;
    }

    /** Closes the store and the harness's buffers. */
    @Override
    public void close() {
        try {
            if (snapshot != null) {
                snapshot.close();
            }
            store.close();
        } finally {
            arena.close();
        }
    }
}
