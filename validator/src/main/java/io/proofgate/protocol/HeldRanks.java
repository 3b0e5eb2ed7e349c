package io.proofgate.protocol;

import static io.proofgate.protocol.OpenAddressing.LONG_PROBE;

import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The ranks that reported holding each digest, one bit per rank in words of 64: an open-addressing
 * table of the digests beside their hash codes and their words. Most digests are reported once or
 * twice and never looked at again, and a log names thousands; a {@link HashMap} would give each an
 * entry object and, as it grows, follow every entry through memory to place it again, where this
 * table places them again from three flat arrays without loading a digest. Digests are never
 * removed (full quorum is never undone).
 *
 * <p>As {@link PendingTable}: no probe goes past {@link OpenAddressing#LONG_PROBE} slots. A
 * longer run doubles the table while it is at least an eighth full; a run that survives in a
 * table so sparse comes from crafted digests sharing hash codes, and the table hands everything
 * to a {@code HashMap}, which stays fast on such keys.
 */
final class HeldRanks {

    private final int words;
    // small at first: most logs the audit replays hold a few digests
    private String[] digests = new String[16];
    private int[] hashes = new int[16];
    private long[][] ranks = new long[16][];
    /** 32 less the bits of a slot number: a hash's top bits after mixing pick its home slot. */
    private int shift = 28;
    private int size;
    /** Non-null once a run stayed long in a sparse table; then it holds every digest and the arrays are unused. */
    private Map<String, long[]> overflow;

    /** A table for {@code tpDegree} ranks. */
    HeldRanks(int tpDegree) {
        this.words = (int) (((long) tpDegree + 63) >>> 6);
    }

    int size() {
        return overflow != null ? overflow.size() : size;
    }

    /** The words of {@code digest}'s ranks, added with none set when no rank has reported it yet. */
    long[] of(String digest) {
        if (overflow != null) {
            return overflow.computeIfAbsent(digest, d -> new long[words]);
        }
        int hash = digest.hashCode();
        int mask = digests.length - 1;
        int slot = home(hash);
        for (int probes = 0; digests[slot] != null; probes++, slot = (slot + 1) & mask) {
            if (hashes[slot] == hash && digests[slot].equals(digest)) {
                return ranks[slot];
            }
            if (probes == LONG_PROBE) {
                spread();
                return of(digest);
            }
        }
        if (2 * (size + 1) > digests.length) {
            grow();
            return of(digest);
        }
        long[] added = new long[words];
        digests[slot] = digest;
        hashes[slot] = hash;
        ranks[slot] = added;
        size++;
        return added;
    }

    /** Each digest and its words, in no particular order. */
    void forEach(BiConsumer<String, long[]> action) {
        if (overflow != null) {
            overflow.forEach(action);
            return;
        }
        for (int slot = 0; slot < digests.length; slot++) {
            if (digests[slot] != null) {
                action.accept(digests[slot], ranks[slot]);
            }
        }
    }

    /** Whether the digests went to a hash map because crafted ones kept runs long (tests). */
    boolean overflowed() {
        return overflow != null;
    }

    /** How many slots the table has, or 0 once the digests went to a hash map (tests). */
    int slots() {
        return overflow != null ? 0 : digests.length;
    }

    private int home(int hash) {
        return OpenAddressing.home(hash, shift);
    }

    /** A run was long: double the table while it is an eighth full or more, else go to a hash map. */
    private void spread() {
        if (OpenAddressing.mayBeChance(size, digests.length)) {
            grow();
        } else {
            Map<String, long[]> all = new HashMap<>(2 * size);
            forEach(all::put);
            overflow = all;
            digests = null;
            hashes = null;
            ranks = null;
        }
    }

    private void grow() {
        String[] oldDigests = digests;
        int[] oldHashes = hashes;
        long[][] oldRanks = ranks;
        digests = new String[oldDigests.length * 2];
        hashes = new int[oldDigests.length * 2];
        ranks = new long[oldDigests.length * 2][];
        shift--;
        for (int i = 0; i < oldDigests.length; i++) {
            if (oldDigests[i] != null) {
                int slot = OpenAddressing.emptySlot(digests, home(oldHashes[i]));
                digests[slot] = oldDigests[i];
                hashes[slot] = oldHashes[i];
                ranks[slot] = oldRanks[i];
            }
        }
    }
}
