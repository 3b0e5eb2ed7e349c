package io.proofgate.protocol;

import java.util.Arrays;

/**
 * protocol §2 "Pending store": one tracked request's progress, accumulated table and latch. Mutable and owned by {@link
 * Connector}; the outside sees {@link PendingSnapshot}s.
 */
final class PendingStore {
    final String id;
    final String digest;
    final long target;
    long done;
    private final long[][] table;
    private final int[] tableLength;

    /** Latched block per group (0 where the group is not recurrent), or null when the latch is empty. */
    private long[] latch;

    PendingStore(String id, String digest, long target, BlockIds initialTable) {
        this.id = id;
        this.digest = digest;
        this.target = target;
        int groups = initialTable.groupCount();
        this.table = new long[groups][];
        this.tableLength = new int[groups];
        for (int g = 0; g < groups; g++) {
            table[g] = initialTable.groupView(g);
            tableLength[g] = table[g].length;
        }
    }

    /**
     * The table of cached request {@code request} of a step, which resumes after a preemption: copied, the step's pool
     * is not kept.
     */
    void replaceTable(CachedRequests step, int request) {
        for (int g = 0; g < table.length; g++) {
            long[] copy = new long[step.blockCount(request, g)];
            step.copyBlocks(request, g, copy, 0);
            table[g] = copy;
            tableLength[g] = copy.length;
        }
    }

    void extendTable(CachedRequests step, int request) {
        for (int g = 0; g < table.length; g++) {
            int count = step.blockCount(request, g);
            if (count == 0) {
                continue;
            }
            int needed = tableLength[g] + count;
            if (needed > table[g].length) {
                table[g] = Arrays.copyOf(table[g], Math.max(needed, table[g].length * 2));
            }
            step.copyBlocks(request, g, table[g], tableLength[g]);
            tableLength[g] = needed;
        }
    }

    /** Table entries [from, to) of a group, or null when the table is shorter than that. */
    long[] tableSlice(int group, long from, long to) {
        return to > tableLength[group] ? null : Arrays.copyOfRange(table[group], (int) from, (int) to);
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
        return new PendingSnapshot(
                id, digest, target, done, BlockIds.adopt(copy), Connector.latchList(latch, topology));
    }
}
