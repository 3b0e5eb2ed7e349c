package io.proofgate.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The held table answers exactly as a hash map from digest to its words would. */
class HeldRanksTest {

    /** The words of {@code table}, by digest, read through its iteration. */
    private static Map<String, long[]> contents(HeldRanks table) {
        Map<String, long[]> all = new HashMap<>();
        table.forEach((digest, words) -> assertNull(all.put(digest, words), "a digest is iterated once"));
        return all;
    }

    /** Reports of {@code digest} by {@code rank}, applied to the table and to a hash map alike. */
    private static void report(HeldRanks table, Map<String, long[]> reference, String digest, int rank, int words) {
        long[] expected = reference.computeIfAbsent(digest, d -> new long[words]);
        long[] actual = table.of(digest);
        assertEquals(java.util.Arrays.toString(expected), java.util.Arrays.toString(actual), () -> "words of " + digest);
        assertSame(actual, table.of(digest), "the same digest gives the same words");
        expected[rank >>> 6] |= 1L << rank;
        actual[rank >>> 6] |= 1L << rank;
    }

    private static void assertSameContents(Map<String, long[]> reference, HeldRanks table) {
        Map<String, long[]> actual = contents(table);
        assertEquals(reference.keySet(), actual.keySet());
        reference.forEach((digest, words) -> assertEquals(java.util.Arrays.toString(words),
                java.util.Arrays.toString(actual.get(digest)), digest));
        assertEquals(reference.size(), table.size());
    }

    /** tp_degree 1, 64 and 65 (one word, one full word, two words) and 70. */
    @ParameterizedTest
    @ValueSource(ints = {1, 64, 65, 70})
    void agreesWithAHashMapUnderReports(int tpDegree) {
        int words = (tpDegree + 63) / 64;
        // an op is a digest (op % 500) and a rank (op / 500 % tpDegree)
        qt().withExamples(500).forAll(lists().of(integers().between(0, 34_999)).ofSizeBetween(0, 600)).checkAssert(ops -> {
            HeldRanks table = new HeldRanks(tpDegree);
            Map<String, long[]> reference = new HashMap<>();
            for (int op : ops) {
                report(table, reference, "digest-" + (op % 500), op / 500 % tpDegree, words);
            }
            assertSameContents(reference, table);
        });
    }

    /**
     * Crafted digests after a thousand honest ones: the table is more than an eighth full, so the
     * crafted run first doubles it (three times), and only when the run stays as long in a
     * sparser table do the digests go to a hash map; every digest keeps its words through both.
     */
    @Test
    void aCraftedRunAmongHonestDigestsDoublesTheTableThenGoesToAHashMap() {
        HeldRanks table = new HeldRanks(2);
        Map<String, long[]> reference = new HashMap<>();
        for (int i = 0; i < 1_000; i++) {
            report(table, reference, "honest-" + i, 0, 1);
        }
        List<String> crafted = Events.idsSharingOneHashCode(6); // 64 digests, one hash code
        for (String digest : crafted) {
            report(table, reference, digest, 1, 1);
        }
        assertTrue(table.overflowed());
        assertSameContents(reference, table);
    }

    @Test
    void growsPastItsFirstSizeAndKeepsEveryDigestsWords() {
        HeldRanks table = new HeldRanks(2);
        Map<String, long[]> reference = new HashMap<>();
        for (int i = 0; i < 100_000; i++) {
            report(table, reference, "d" + i, i % 2, 1);
        }
        for (int i = 0; i < 100_000; i += 2) {
            report(table, reference, "d" + i, 1, 1);
        }
        assertSameContents(reference, table);
        assertFalse(table.overflowed());
        assertTrue(table.slots() >= 200_000, () -> table.slots() + " slots");
    }

    /** Digests as a server makes them (hex of a hash) keep the table over a long log. */
    @Test
    void randomDigestsOverALongLogKeepTheTable() {
        HeldRanks table = new HeldRanks(4);
        Random random = new Random(7);
        for (int i = 0; i < 300_000; i++) {
            table.of(Long.toHexString(random.nextLong()) + Long.toHexString(random.nextLong()));
        }
        assertEquals(300_000, table.size());
        assertFalse(table.overflowed());
    }

    /** Crafted digests sharing one hash code send the table to a hash map, which still answers alike. */
    @Test
    void digestsSharingOneHashCodeGoToAHashMap() {
        List<String> crafted = Events.idsSharingOneHashCode(8); // 256 digests, one hash code
        HeldRanks table = new HeldRanks(3);
        Map<String, long[]> reference = new HashMap<>();
        for (String digest : crafted) {
            report(table, reference, digest, 0, 1);
        }
        assertTrue(table.overflowed());
        for (String digest : crafted) {
            report(table, reference, digest, 2, 1);
        }
        assertSameContents(reference, table);
    }
}
