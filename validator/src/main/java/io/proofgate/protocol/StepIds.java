package io.proofgate.protocol;

import static io.proofgate.protocol.OpenAddressing.LONG_PROBE;

import java.util.HashSet;
import java.util.Set;

/**
 * The ids of one step that are not pending, to find one scheduled twice: an open-addressing table
 * reused from step to step, emptied by moving to the next generation rather than by clearing, and
 * adding allocates nothing. Ids are compared by their text. Crafted ids can share one hash code
 * ({@code "Aa"} and {@code "BB"}); after a long run of probes the step's ids go to a hash set,
 * which stays fast on such keys, so a hostile log costs no more than an honest one of its size.
 * Ids of earlier steps stay referenced until overwritten: at most the table's size.
 */
final class StepIds {

    // small at first, grown as steps turn out larger: most logs the audit replays have a few requests
    private String[] ids = new String[16];
    private int[] generations = new int[16];
    /** Each slot's id's hash code, compared before the text so that a probe rarely loads another id. */
    private int[] hashes = new int[16];
    /** 32 less the bits of a slot number: a hash's top bits after mixing pick its home slot. */
    private int shift = 28;
    private int generation = 1;
    private int size;
    /** Non-null once this step's ids probed too long; then it holds them all. */
    private Set<String> overflow;

    /** Empties the table for the next step. */
    void clear() {
        size = 0;
        overflow = null;
        if (++generation == 0) { // wrapped after 2^32 steps: entries of old generations could match
            java.util.Arrays.fill(generations, 0);
            generation = 1;
        }
    }

    /** Whether this step's ids went to the hash set. */
    boolean overflowed() {
        return overflow != null;
    }

    /** Adds {@code id}; false when this step already has it. */
    boolean add(String id) {
        return add(id, id.hashCode());
    }

    /** Adds {@code id}, whose hash code is {@code hash}; false when this step already has it. */
    boolean add(String id, int hash) {
        if (overflow != null) {
            return overflow.add(id);
        }
        if (2 * (size + 1) > ids.length) {
            grow();
        }
        int mask = ids.length - 1;
        int slot = home(hash);
        for (int probes = 0; generations[slot] == generation; probes++) {
            if (hashes[slot] == hash && ids[slot].equals(id)) {
                return false;
            }
            if (probes == LONG_PROBE) {
                overflow = current();
                return overflow.add(id);
            }
            slot = (slot + 1) & mask;
        }
        generations[slot] = generation;
        ids[slot] = id;
        hashes[slot] = hash;
        size++;
        return true;
    }

    private int home(int hash) {
        return OpenAddressing.home(hash, shift);
    }

    private Set<String> current() {
        Set<String> all = new HashSet<>(2 * size);
        for (int i = 0; i < ids.length; i++) {
            if (generations[i] == generation) {
                all.add(ids[i]);
            }
        }
        return all;
    }

    private void grow() {
        String[] oldIds = ids;
        int[] oldGenerations = generations;
        int[] oldHashes = hashes;
        ids = new String[oldIds.length * 2];
        generations = new int[oldIds.length * 2];
        hashes = new int[oldIds.length * 2];
        shift--;
        int mask = ids.length - 1;
        for (int i = 0; i < oldIds.length; i++) {
            if (oldGenerations[i] == generation) {
                int slot = home(oldHashes[i]);
                while (generations[slot] == generation) {
                    slot = (slot + 1) & mask;
                }
                generations[slot] = generation;
                ids[slot] = oldIds[i];
                hashes[slot] = oldHashes[i];
            }
        }
    }
}
