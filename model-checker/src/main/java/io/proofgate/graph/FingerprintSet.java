package io.proofgate.graph;

/**
 * A set of state fingerprints in one array, probed linearly: checking the hundreds of thousands of edge ends of a state
 * graph against a {@code Set<Long>} costs a boxed key and several cache misses each.
 */
final class FingerprintSet {
    private final long[] ids;
    private final boolean[] used;
    private final int mask;

    FingerprintSet(int expected) {
        int capacity = Integer.highestOneBit(Math.max(4, expected) * 2 - 1) * 2;
        ids = new long[capacity];
        used = new boolean[capacity];
        mask = capacity - 1;
    }

    void add(long id) {
        int i = slot(id);
        while (used[i] && ids[i] != id) {
            i = (i + 1) & mask;
        }
        ids[i] = id;
        used[i] = true;
    }

    boolean contains(long id) {
        int i = slot(id);
        while (used[i]) {
            if (ids[i] == id) {
                return true;
            }
            i = (i + 1) & mask;
        }
        return false;
    }

    /** Fingerprints are hashes already, but a dot file may have been written by hand: mix anyway. */
    private int slot(long id) {
        long h = id * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
