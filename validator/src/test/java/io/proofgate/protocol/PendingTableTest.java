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

    /**
     * Ids as a server makes them ({@code chatcmpl-} and random hex) have random hash codes, which
     * now and then form a run longer than a probe may go; the table must spread such a run, not
     * give up on itself, over a long life at a steady thousand pending requests.
     */
    @Test
    void randomIdsOverALongLifeKeepTheTable() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(29);
        PendingTable table = new PendingTable();
        java.util.ArrayDeque<PendingStore> live = new java.util.ArrayDeque<>();
        for (int admitted = 0; admitted < 300_000; admitted++) {
            PendingStore store = store("chatcmpl-" + Long.toHexString(random.nextLong()) + Long.toHexString(random.nextLong()));
            table.put(store);
            live.addLast(store);
            if (live.size() > 1_000) {
                PendingStore oldest = live.removeFirst();
                assertSame(oldest, table.remove(oldest.id));
            }
            assertNull(table.get("chatcmpl-absent-" + admitted));
        }
        assertFalse(table.overflowed(), "random hash codes are not an attack");
        assertEquals(1_000, table.size());
        for (PendingStore store : live) {
            assertSame(store, table.get(store.id));
        }
    }

    /**
     * Ids crafted so that each lands on its own slot, one after another, form a run no insertion
     * probes along; a lookup of another id starting there must not walk it all (the table spreads
     * as soon as a lookup runs long), and every answer stays right.
     */
    @Test
    void aRunOfCraftedIdsIsSpreadByTheFirstLookupThatWalksIt() {
        PendingTable table = new PendingTable();
        for (int i = 0; i < 16_385; i++) { // the table grows to 65,536 slots and keeps them
            table.put(store("req-" + i));
        }
        for (int i = 0; i < 16_385; i++) {
            table.remove("req-" + i);
        }
        assertEquals(65_536, table.slots());
        List<String> run = new ArrayList<>();
        for (int slot = 0; slot < 32_767; slot++) {
            run.add(idAtSlot(slot, 16));
        }
        for (String id : run) {
            table.put(store(id));
        }
        assertEquals(65_536, table.slots(), "the run was made without a long probe");
        assertNull(table.get(otherIdAtSlot(0, 16)));
        assertTrue(table.slots() > 65_536 || table.overflowed(), "the lookup that walked the run spread the table");
        for (String id : run) {
            assertEquals(id, table.get(id).id);
        }
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

    /** An id whose hash code puts it at {@code slot} of a table of 2^bits slots. */
    private static String idAtSlot(int slot, int bits) {
        return withHashCode(unmix(slot << (32 - bits)));
    }

    /** Another id at the same slot: its mixed hash differs below the slot's bits. */
    private static String otherIdAtSlot(int slot, int bits) {
        return withHashCode(unmix((slot << (32 - bits)) | 1));
    }

    /** The hash code that the table's mixing (a multiplication by 0x9E3779B9) turns into {@code mixed}. */
    private static int unmix(int mixed) {
        int odd = 0x9E3779B9;
        int inverse = odd; // Newton's iteration doubles the correct low bits each time: 3, 6, 12, 24, 48
        for (int i = 0; i < 5; i++) {
            inverse *= 2 - odd * inverse;
        }
        return mixed * inverse;
    }

    /** Seven characters from '0' on whose String hash code is {@code target}: its base-31 digits. */
    private static String withHashCode(int target) {
        long offset = 0;
        long power = 1;
        for (int k = 0; k < 7; k++) {
            offset += '0' * power;
            power *= 31;
        }
        long digits = (target - offset) & 0xFFFFFFFFL;
        char[] chars = new char[7];
        for (int i = 6; i >= 0; i--) {
            chars[i] = (char) ('0' + digits % 31);
            digits /= 31;
        }
        String id = new String(chars);
        assertEquals(target, id.hashCode());
        return id;
    }
}
