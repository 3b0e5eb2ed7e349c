package io.proofgate.protocol;

import java.util.Arrays;

/**
 * protocol §2 "Pending store": one tracked request's progress, accumulated table and latch.
 * Mutable and owned by {@link Connector}; the outside sees {@link PendingSnapshot}s.
 */
final class PendingStore {
    /**
     * A table made at a request's start has room for at most this many blocks (512 bytes); a
     * longer one grows as it is extended. A prefill brings a few blocks a step, so this spares
     * the copies of most tables, while a request that waits admitted holds little more than
     * before, however long its prompt.
     */
    private static final long MAX_PLANNED_BLOCKS = 64;
    final String id;
    final String digest;
    /** {@code digest.hashCode()}, kept so that the quorum check of a step does not load the string. */
    final int digestHash;
    final long target;
    long done;
    private final long[][] table;
    private final int[] tableLength;
    /** Latched block per group (0 where the group is not recurrent), or null when the latch is empty. */
    private long[] latch;
    /**
     * The step check ({@link Connector}'s serial) that last found this request scheduled: a second
     * sighting in the same check is a request scheduled twice, found without a set of the step's ids.
     */
    long scheduledIn;
    /** The step check whose evidence mapping has an entry for this request, and that entry. */
    private long evidenceIn;
    private RawValue evidence;

    PendingStore(String id, String digest, long target, BlockIds initialTable, Topology topology) {
        this.id = id;
        this.digest = digest;
        this.digestHash = digest.hashCode();
        this.target = target;
        int groups = initialTable.groupCount();
        this.table = new long[groups][];
        this.tableLength = new int[groups];
        for (int g = 0; g < groups; g++) {
            long[] source = initialTable.groupView(g);
            // Made long enough for the blocks a plan selects, so that the steps of a chunked prefill
            // extend it without copying; a recurrent group's slot is never selected from the table.
            Group group = topology.groups().get(g);
            long planned = group.isRecurrent() ? 0 : Math.min(MAX_PLANNED_BLOCKS, Connector.ceilDiv(target, group.blockTokens()));
            table[g] = source.length >= planned ? source : Arrays.copyOf(source, (int) planned);
            tableLength[g] = source.length;
        }
    }

    /** The table of cached request {@code request} of a step, which resumes after a preemption: copied, the step's pool is not kept. */
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

    void markEvidence(long check, RawValue entry) {
        evidenceIn = check;
        evidence = entry;
    }

    /** This request's entry in the mapping of step check {@code check}, or null when it has none. */
    RawValue takeEvidence(long check) {
        RawValue entry = evidenceIn == check ? evidence : null;
        evidence = null; // the step's evidence is not kept beyond its step
        return entry;
    }

    /** Table entries [from, to) of a group, or null when the table is shorter than that. */
    long[] tableSlice(int group, long from, long to) {
        return to > tableLength[group] ? null : Arrays.copyOfRange(table[group], (int) from, (int) to);
    }

    /** How many blocks a group's table has room for before it is copied (tests). */
    int tableCapacity(int group) {
        return table[group].length;
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
        return new PendingSnapshot(id, digest, target, done, BlockIds.adopt(copy), Connector.latchList(latch, topology));
    }
}
