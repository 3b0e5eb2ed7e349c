package io.proofgate.store;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The default store: each group's pool is one off-heap segment laid out {@code [layer][block][page]}, as a worker's
 * per-layer KV tensors are. Copies are {@link MemorySegment#copy} calls on those segments, one per run of consecutive
 * block ids in a layer, so nothing is allocated per page.
 */
public final class HostPageStore implements PageStore {

    /** Pools are allocated here and freed together by {@link #close}. */
    private final Arena arena = Arena.ofShared();

    private final StoreLayout layout;
    private final MemorySegment[] pools;
    private final List<HostSnapshot> snapshots = new ArrayList<>();
    private boolean closed;

    public HostPageStore(StoreLayout layout) {
        this.layout = layout;
        this.pools = new MemorySegment[layout.groups().size()];
        for (int g = 0; g < pools.length; g++) {
            pools[g] = arena.allocate(layout.group(g).poolBytes(), 64);
        }
    }

    @Override
    public StoreLayout layout() {
        return layout;
    }

    @Override
    public String describe() {
        return "host store: " + pools.length + " groups, " + layout.poolBytes() + " bytes off-heap";
    }

    @Override
    public void write(int group, long block, MemorySegment source) {
        checkOpen();
        layout.checkBlock(group, block);
        StoreLayout.GroupLayout geometry = layout.group(group);
        checkSize("source", source, geometry.blockBytes());
        long page = geometry.pageBytes();
        long stride = page * geometry.blocks();
        for (int layer = 0; layer < geometry.layers(); layer++) {
            MemorySegment.copy(source, layer * page, pools[group], layer * stride + block * page, page);
        }
    }

    @Override
    public void read(int group, long block, MemorySegment destination) {
        checkOpen();
        layout.checkBlock(group, block);
        StoreLayout.GroupLayout geometry = layout.group(group);
        checkSize("destination", destination, geometry.blockBytes());
        long page = geometry.pageBytes();
        long stride = page * geometry.blocks();
        for (int layer = 0; layer < geometry.layers(); layer++) {
            MemorySegment.copy(pools[group], layer * stride + block * page, destination, layer * page, page);
        }
    }

    @Override
    public Snapshot newSnapshot(long capacity) {
        checkOpen();
        HostSnapshot snapshot = new HostSnapshot(this, capacity);
        snapshots.add(snapshot);
        return snapshot;
    }

    @Override
    public long gather(long[][] blocksByGroup, Snapshot into) {
        HostSnapshot snapshot = own(into);
        long bytes = layout.snapshotBytes(blocksByGroup);
        layout.checkSelection(blocksByGroup);
        checkCapacity(snapshot, bytes);
        copy(blocksByGroup, snapshot.segment, true);
        snapshot.size = bytes;
        return bytes;
    }

    @Override
    public void scatter(Snapshot from, long[][] blocksByGroup) {
        HostSnapshot snapshot = own(from);
        long bytes = layout.snapshotBytes(blocksByGroup);
        layout.checkScatterTargets(blocksByGroup);
        if (bytes != snapshot.size) {
            throw new IllegalArgumentException(
                    "the selection needs " + bytes + " bytes, the snapshot holds " + snapshot.size);
        }
        copy(blocksByGroup, snapshot.segment, false);
    }

    /** Snapshot layout: group, then layer, then selected block; one copy per run of consecutive ids. */
    private void copy(long[][] blocksByGroup, MemorySegment snapshot, boolean gather) {
        long offset = 0;
        for (int g = 0; g < blocksByGroup.length; g++) {
            long[] blocks = blocksByGroup[g];
            StoreLayout.GroupLayout geometry = layout.group(g);
            long page = geometry.pageBytes();
            long stride = page * geometry.blocks();
            MemorySegment pool = pools[g];
            for (int layer = 0; layer < geometry.layers(); layer++) {
                long base = layer * stride;
                int i = 0;
                while (i < blocks.length) {
                    int run = 1;
                    while (i + run < blocks.length && blocks[i + run] == blocks[i] + run) {
                        run++;
                    }
                    long bytes = run * page;
                    if (gather) {
                        MemorySegment.copy(pool, base + blocks[i] * page, snapshot, offset, bytes);
                    } else {
                        MemorySegment.copy(snapshot, offset, pool, base + blocks[i] * page, bytes);
                    }
                    offset += bytes;
                    i += run;
                }
            }
        }
    }

    @Override
    public void copyOut(Snapshot from, long offset, MemorySegment destination) {
        HostSnapshot snapshot = own(from);
        MemorySegment.copy(snapshot.segment, offset, destination, 0, destination.byteSize());
    }

    @Override
    public byte[] sha256(Snapshot of) {
        HostSnapshot snapshot = own(of);
        return Digests.sha256(snapshot.segment.asSlice(0, snapshot.size));
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            for (HostSnapshot snapshot : List.copyOf(snapshots)) {
                snapshot.close();
            }
            arena.close();
        }
    }

    private HostSnapshot own(Snapshot snapshot) {
        checkOpen();
        if (!(snapshot instanceof HostSnapshot host) || host.store != this) {
            throw new IllegalArgumentException("the snapshot belongs to another store");
        }
        if (host.closed) {
            throw new IllegalStateException("the snapshot is closed");
        }
        return host;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the host store is closed");
        }
    }

    static void checkSize(String what, MemorySegment segment, long expected) {
        if (segment.byteSize() != expected) {
            throw new IllegalArgumentException(what + " has " + segment.byteSize() + " bytes, a block has " + expected);
        }
    }

    static void checkCapacity(Snapshot snapshot, long bytes) {
        if (bytes > snapshot.capacity()) {
            throw new IllegalArgumentException(
                    "the selection needs " + bytes + " bytes, the snapshot holds at most " + snapshot.capacity());
        }
    }

    /** A snapshot in its own off-heap segment. */
    public static final class HostSnapshot implements Snapshot {
        /** Owns {@link #segment}; closed by {@link #close} or with the store. */
        private final Arena arena = Arena.ofShared();

        private final HostPageStore store;
        private final MemorySegment segment;
        private long size;
        private boolean closed;

        private HostSnapshot(HostPageStore store, long capacity) {
            this.store = store;
            this.segment = arena.allocate(Math.max(1, capacity), 64).asSlice(0, capacity);
        }

        @Override
        public long capacity() {
            return segment.byteSize();
        }

        @Override
        public long size() {
            return size;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                store.snapshots.remove(this);
                arena.close();
            }
        }
    }
}
