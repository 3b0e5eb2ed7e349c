package io.proofgate.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pending table answers exactly as a hash map of the same stores would. */
class PendingTableTest {

    private static PendingStore store(String id) {
        return new PendingStore(id, "d-" + id, 2304, new BlockIds(new long[] {1}, new long[] {2}), Events.seedTopology());
    }

    /** The stores of {@code table}, by id, read through its iteration. */
    private static Map<String, PendingStore> contents(PendingTable table) {
        Map<String, PendingStore> all = new HashMap<>();
        table.forEach(store -> assertNull(all.put(store.id, store), "a store is iterated once"));
        return all;
    }

    @Test
    void agreesWithAHashMapUnderPutsGetsAndRemoves() {
        // ids from a small alphabet, so removals leave gaps inside runs of probes; an op is
        // 0 to 59: get, 60 to 119: put, 120 to 179: remove, of id op % 60
        qt().withExamples(2_000).forAll(lists().of(integers().between(0, 179)).ofSizeBetween(0, 400)).checkAssert(ops -> {
            PendingTable table = new PendingTable();
            Map<String, PendingStore> reference = new HashMap<>();
            for (int op : ops) {
                String id = "req-" + (op % 60);
                switch (op / 60) {
                    case 0 -> assertSame(reference.get(id), table.get(id), () -> "get " + id);
                    case 1 -> {
                        PendingStore store = store(id);
                        reference.put(id, store);
                        table.put(store);
                    }
                    default -> assertSame(reference.remove(id), table.remove(id), () -> "remove " + id);
                }
                assertEquals(reference.size(), table.size());
            }
            assertEquals(reference, contents(table));
            for (int i = 0; i < 60; i++) {
                assertSame(reference.get("req-" + i), table.get("req-" + i));
            }
        });
    }

    @Test
    void growsPastItsFirstSizeAndFindsEveryStore() {
        PendingTable table = new PendingTable();
        List<PendingStore> stores = new ArrayList<>();
        for (int i = 0; i < 200_000; i++) {
            PendingStore store = store("req-" + i);
            stores.add(store);
            table.put(store);
        }
        assertFalse(table.overflowed(), "ids with consecutive hash codes are spread, not probed in long runs");
        for (PendingStore store : stores) {
            assertSame(store, table.get(store.id));
        }
        for (int i = 0; i < 200_000; i += 2) {
            assertSame(stores.get(i), table.remove("req-" + i));
        }
        for (int i = 0; i < 200_000; i++) {
            assertEquals(i % 2 == 0 ? null : stores.get(i), table.get("req-" + i), "req-" + i);
        }
        assertEquals(100_000, table.size());
    }

    /** Ids made of "Aa" and "BB" all share one hash code: the table goes to a hash map and stays exact. */
    @Test
    void idsThatShareOneHashCodeAreStillToldApart() {
        List<String> colliding = Events.idsSharingOneHashCode(8);
        assertEquals(1, colliding.stream().mapToInt(String::hashCode).distinct().count());
        PendingTable table = new PendingTable();
        Map<String, PendingStore> reference = new HashMap<>();
        for (String id : colliding) {
            PendingStore store = store(id);
            table.put(store);
            reference.put(id, store);
        }
        assertTrue(table.overflowed());
        for (String id : colliding) {
            assertSame(reference.get(id), table.get(id), id);
        }
        assertSame(reference.get(colliding.get(3)), table.remove(colliding.get(3)));
        assertNull(table.get(colliding.get(3)));
        assertEquals(colliding.size() - 1, table.size());
    }
}
