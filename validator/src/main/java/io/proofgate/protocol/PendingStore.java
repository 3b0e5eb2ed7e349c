package io.proofgate.protocol;

import java.util.Arrays;

/**
 * protocol §2 "Pending store": one tracked request's progress, accumulated table and latch.
 * Mutable and owned by {@link Connector}; the outside sees {@link PendingSnapshot}s.
 */
final class PendingStore {
    final String id;
    final String digest;
    final long span;
    long done;
    private final long[][] table;
    private final int[] tableLength;
    /** Latched block per group (0 where the group is not recurrent), or null when the latch is empty. */
    private long[] latch;

    PendingStore(String id, String digest, long span, BlockIds initialTable) {
        this.id = id;
        this.digest = digest;
        this.span = span;
        int groups = initialTable.groupCount();
        this.table = new long[groups][];
        this.tableLength = new int[groups];
        replaceTable(initialTable);
    }

    void replaceTable(BlockIds blocks) {
        for (int g = 0; g < table.length; g++) {
            // BlockIds never changes, so its array is kept, not copied: the table is full
            // (length == tableLength), so extendTable copies before it writes anything
            long[] source = blocks.groupView(g);
            table[g] = source;
            tableLength[g] = source.length;
        }
    }

    void extendTable(BlockIds blocks) {
        for (int g = 0; g < table.length; g++) {
            long[] source = blocks.groupView(g);
            if (source.length == 0) {
                continue;
            }
            int needed = tableLength[g] + source.length;
            if (needed > table[g].length) {
                table[g] = Arrays.copyOf(table[g], Math.max(needed, table[g].length * 2));
            }
            System.arraycopy(source, 0, table[g], tableLength[g], source.length);
            tableLength[g] = needed;
        }
    }

    long tableBlock(int group, int index) {
        return table[group][index];
    }

    int tableLength(int group) {
        return tableLength[group];
    }

    boolean latched() {
        return latch != null;
    }

    long latchedBlock(int group) {
        return latch[group];
    }

    void latch(long[] blockByGroup) {
        this.latch = blockByGroup;
    }

    void dropLatch() {
        this.latch = null;
    }

    boolean latchEquals(long[] blockByGroup) {
        return Arrays.equals(latch, blockByGroup);
    }

    PendingSnapshot snapshot(Topology topology) {
        long[][] copy = new long[table.length][];
        for (int g = 0; g < table.length; g++) {
            copy[g] = Arrays.copyOf(table[g], tableLength[g]);
        }
        return new PendingSnapshot(id, digest, span, done, BlockIds.adopt(copy), Connector.latchList(latch, topology));
    }
}
