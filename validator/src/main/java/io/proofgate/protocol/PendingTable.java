package io.proofgate.protocol;

import static io.proofgate.protocol.OpenAddressing.LONG_PROBE;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The pending stores by request id: an open-addressing table of the stores themselves, beside
 * their ids' hash codes. Every scheduled request is looked up here, and a {@link HashMap} would
 * reach its store through an entry object and compare the id's text with the entry's key; here a
 * probe reads a compact array of hash codes, and the text is compared with the store's own id
 * only where the codes match.
 *
 * <p>No lookup or insertion probes more than {@link OpenAddressing#LONG_PROBE} slots: a longer run, there or
 * in a removal's search, spreads the table (a removal walks to the end of its run to close the
 * gap, and spreads a run it found long, so a long run is walked once, at a cost its insertions
 * paid for). While the table is at least an eighth full it doubles, which breaks up the runs
 * that ids with random hash codes form now and then; a run that survives in a table so sparse
 * comes from crafted ids (all of {@code "Aa"}, {@code "BB"}, {@code "AaBB"}... share one hash
 * code, and others can be made to fill consecutive slots), and the table hands every store to a
 * {@link HashMap}, which stays fast on such keys. So a hostile log costs no more than an honest
 * one of its size, and an honest one keeps the table.
 */
final class PendingTable {

    // small at first: most logs the audit replays have a few requests
    private int[] hashes = new int[16];
    private PendingStore[] stores = new PendingStore[16];
    /** 32 less the bits of a slot number: a hash's top bits after mixing pick its home slot. */
    private int shift = 28;
    private int size;
    /** Non-null once a run stayed long in a sparse table; then it holds every store and the arrays are unused. */
    private Map<String, PendingStore> overflow;

    int size() {
        return overflow != null ? overflow.size() : size;
    }

    /** The pending store of {@code id}, or null. */
    PendingStore get(String id) {
        return get(id, id.hashCode());
    }

    /**
     * The pending store of {@code id}, whose hash code is {@code hash}, or null: while the stores
     * are in the table, the id itself is read only where a slot's code matches.
     */
    PendingStore get(String id, int hash) {
        if (overflow != null) {
            return overflow.get(id);
        }
        int mask = stores.length - 1;
        for (int slot = home(hash), probes = 0; ; slot = (slot + 1) & mask, probes++) {
            PendingStore store = stores[slot];
            if (store == null) {
                return null;
            }
            if (hashes[slot] == hash && store.id.equals(id)) {
                return store;
            }
            if (probes == LONG_PROBE) {
                spread();
                return get(id, hash);
            }
        }
    }

    /** Adds {@code store} under its id, replacing the store of that id if there is one. */
    void put(PendingStore store) {
        if (overflow != null) {
            overflow.put(store.id, store);
            return;
        }
        if (2 * (size + 1) > stores.length) {
            grow();
        }
        int hash = store.id.hashCode();
        int mask = stores.length - 1;
        int slot = home(hash);
        for (int probes = 0; stores[slot] != null; probes++, slot = (slot + 1) & mask) {
            if (hashes[slot] == hash && stores[slot].id.equals(store.id)) {
                stores[slot] = store;
                return;
            }
            if (probes == LONG_PROBE) {
                spread();
                put(store);
                return;
            }
        }
        hashes[slot] = hash;
        stores[slot] = store;
        size++;
    }

    /** Removes the store of {@code id}; the store, or null when there was none. */
    PendingStore remove(String id) {
        if (overflow != null) {
            return overflow.remove(id);
        }
        int hash = id.hashCode();
        int mask = stores.length - 1;
        int slot = home(hash);
        for (int probes = 0; stores[slot] != null && !(hashes[slot] == hash && stores[slot].id.equals(id)); probes++) {
            if (probes == LONG_PROBE) {
                spread();
                return remove(id);
            }
            slot = (slot + 1) & mask;
        }
        PendingStore removed = stores[slot];
        if (removed == null) {
            return null;
        }
        // Linear probing without markers: the stores after the gap that would no longer be
        // reached from their home slot move back into it. The walk goes to the run's end, so a
        // long one is walked once and then spread.
        int gap = slot;
        int walked = 0;
        for (int next = (gap + 1) & mask; stores[next] != null; next = (next + 1) & mask, walked++) {
            int home = home(hashes[next]);
            if (((next - home) & mask) >= ((next - gap) & mask)) {
                stores[gap] = stores[next];
                hashes[gap] = hashes[next];
                gap = next;
            }
        }
        stores[gap] = null;
        size--;
        if (walked > LONG_PROBE) {
            spread();
        }
        return removed;
    }

    /** Each pending store, in no particular order. */
    void forEach(Consumer<PendingStore> action) {
        if (overflow != null) {
            overflow.values().forEach(action);
            return;
        }
        for (PendingStore store : stores) {
            if (store != null) {
                action.accept(store);
            }
        }
    }

    /** How many slots the table has, or 0 once the stores went to a hash map (tests). */
    int slots() {
        return overflow != null ? 0 : stores.length;
    }

    /** Whether the stores went to a hash map because crafted ids kept runs long. */
    boolean overflowed() {
        return overflow != null;
    }

    private int home(int hash) {
        return OpenAddressing.home(hash, shift);
    }

    /** A run was long: double the table while it is an eighth full or more, else go to a hash map. */
    private void spread() {
        if (OpenAddressing.mayBeChance(size, stores.length)) {
            grow();
        } else {
            overflow = toMap();
            hashes = null;
            stores = null;
        }
    }

    private Map<String, PendingStore> toMap() {
        Map<String, PendingStore> all = new HashMap<>(2 * size);
        forEach(store -> all.put(store.id, store));
        return all;
    }

    private void grow() {
        int[] oldHashes = hashes;
        PendingStore[] oldStores = stores;
        hashes = new int[oldStores.length * 2];
        stores = new PendingStore[oldStores.length * 2];
        shift--;
        for (int i = 0; i < oldStores.length; i++) {
            if (oldStores[i] != null) {
                int slot = OpenAddressing.emptySlot(stores, home(oldHashes[i]));
                hashes[slot] = oldHashes[i];
                stores[slot] = oldStores[i];
            }
        }
    }
}
