package io.proofgate.store;

import java.util.List;

/**
 * The geometry of a page store: one block pool per KV-cache group, in group order. A block of group {@code g} is {@code
 * layers} pages of {@code pageBytes} each, one page per layer.
 */
public record StoreLayout(List<GroupLayout> groups) {

    public StoreLayout {
        groups = List.copyOf(groups);
        if (groups.isEmpty()) {
            throw new IllegalArgumentException("a store layout needs at least one group");
        }
    }

    /** One group's pool: {@code blocks} blocks of {@code layers} pages of {@code pageBytes}. */
    public record GroupLayout(int layers, long pageBytes, long blocks) {
        public GroupLayout {
            if (layers < 1 || pageBytes < 1 || blocks < 1) {
                throw new IllegalArgumentException(
                        "layers, pageBytes and blocks must be >= 1, got " + layers + ", " + pageBytes + ", " + blocks);
            }
        }

        /** Bytes of one block: its pages in layer order. */
        public long blockBytes() {
            return layers * pageBytes;
        }

        /** Bytes of the whole pool. */
        public long poolBytes() {
            return Math.multiplyExact(blockBytes(), blocks);
        }
    }

    /** {@code count} groups with the same geometry. */
    public static StoreLayout uniform(int count, int layers, long pageBytes, long blocks) {
        GroupLayout[] groups = new GroupLayout[count];
        java.util.Arrays.fill(groups, new GroupLayout(layers, pageBytes, blocks));
        return new StoreLayout(List.of(groups));
    }

    public GroupLayout group(int index) {
        return groups.get(index);
    }

    /** The size of a snapshot of {@code blocksByGroup}: every selected block of every group. */
    public long snapshotBytes(long[][] blocksByGroup) {
        checkGroups(blocksByGroup);
        long bytes = 0;
        for (int g = 0; g < blocksByGroup.length; g++) {
            bytes += blocksByGroup[g].length * groups.get(g).blockBytes();
        }
        return bytes;
    }

    /** Bytes of every group's pool together. */
    public long poolBytes() {
        long bytes = 0;
        for (GroupLayout group : groups) {
            bytes = Math.addExact(bytes, group.poolBytes());
        }
        return bytes;
    }

    /** The largest block of any group. */
    public long maxBlockBytes() {
        long max = 0;
        for (GroupLayout group : groups) {
            max = Math.max(max, group.blockBytes());
        }
        return max;
    }

    void checkGroups(long[][] blocksByGroup) {
        if (blocksByGroup.length != groups.size()) {
            throw new IllegalArgumentException(
                    "a selection has " + blocksByGroup.length + " groups, the store has " + groups.size());
        }
    }

    /** Checks that every block of a selection lies inside its group's pool. */
    void checkSelection(long[][] blocksByGroup) {
        checkGroups(blocksByGroup);
        for (int g = 0; g < blocksByGroup.length; g++) {
            for (long block : blocksByGroup[g]) {
                checkBlock(g, block);
            }
        }
    }

    /**
     * Checks a scatter's targets: inside their pools, and no block twice in a group. Writing one block twice from two
     * places of a snapshot has no defined result once copies are batched (a batch's copies run in no particular order),
     * so it is refused on every store.
     */
    void checkScatterTargets(long[][] blocksByGroup) {
        checkSelection(blocksByGroup);
        for (int g = 0; g < blocksByGroup.length; g++) {
            long[] blocks = blocksByGroup[g];
            if (blocks.length < 2) {
                continue;
            }
            long poolBlocks = groups.get(g).blocks();
            long twice = poolBlocks <= 64L * blocks.length ? twiceByBitmap(blocks, poolBlocks) : twiceBySorting(blocks);
            if (twice >= 0) {
                throw new IllegalArgumentException(
                        "block " + twice + " is named twice in group " + g + "'s scatter targets");
            }
        }
    }

    /** A block named twice, or -1; one bit per pool block, used where the pool is at most 64 bits per target. */
    private static long twiceByBitmap(long[] blocks, long poolBlocks) {
        long[] seen = new long[(int) ((poolBlocks + 63) >>> 6)];
        for (long block : blocks) {
            int word = (int) (block >>> 6);
            long bit = 1L << block;
            if ((seen[word] & bit) != 0) {
                return block;
            }
            seen[word] |= bit;
        }
        return -1;
    }

    /** A block named twice, or -1, for a few targets in a large pool. */
    private static long twiceBySorting(long[] blocks) {
        long[] sorted = blocks.clone();
        java.util.Arrays.sort(sorted);
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1]) {
                return sorted[i];
            }
        }
        return -1;
    }

    void checkBlock(int group, long block) {
        if (group < 0 || group >= groups.size()) {
            throw new IndexOutOfBoundsException(
                    "group " + group + " is outside the store's " + groups.size() + " groups");
        }
        long blocks = groups.get(group).blocks();
        if (block < 0 || block >= blocks) {
            throw new IndexOutOfBoundsException(
                    "block " + block + " is outside group " + group + "'s pool of " + blocks + " blocks");
        }
    }
}
