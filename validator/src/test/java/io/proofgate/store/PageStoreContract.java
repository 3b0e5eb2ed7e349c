package io.proofgate.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.security.MessageDigest;
import java.util.List;

/**
 * What every {@link PageStore} must do, checked on bytes: each store's test extends this class and says how to open the
 * store. Geometry: three groups with different layers and page sizes, so a store that mixes up strides, layers or
 * groups shows it.
 */
abstract class PageStoreContract {

    static final StoreLayout LAYOUT =
            new StoreLayout(
                    List.of(
                            new StoreLayout.GroupLayout(2, 4096, 64),
                            new StoreLayout.GroupLayout(3, 1024, 32),
                            new StoreLayout.GroupLayout(1, 64, 16)));

    /** Opens a store of the kind under test. */
    abstract PageStore open(StoreLayout layout) throws Exception;

    /** The bytes block {@code block} of {@code group} holds after {@link #fill} with {@code salt}. */
    static byte[] content(StoreLayout layout, int group, long block, int salt) {
        byte[] bytes = new byte[(int) layout.group(group).blockBytes()];
        long state = 0x9E3779B97F4A7C15L * (group + 1) ^ block * 0xBF58476D1CE4E5B9L ^ salt * 0x94D049BB133111EBL;
        for (int i = 0; i < bytes.length; i++) {
            state ^= state << 13;
            state ^= state >>> 7;
            state ^= state << 17;
            bytes[i] = (byte) state;
        }
        return bytes;
    }

    static void fill(PageStore store, int salt) {
        StoreLayout layout = store.layout();
        for (int g = 0; g < layout.groups().size(); g++) {
            for (long b = 0; b < layout.group(g).blocks(); b++) {
                store.write(g, b, MemorySegment.ofArray(content(layout, g, b, salt)));
            }
        }
    }

    static byte[] read(PageStore store, int group, long block) {
        byte[] bytes = new byte[(int) store.layout().group(group).blockBytes()];
        store.read(group, block, MemorySegment.ofArray(bytes));
        return bytes;
    }

    static byte[] out(PageStore store, Snapshot snapshot) {
        byte[] bytes = new byte[(int) snapshot.size()];
        store.copyOut(snapshot, 0, MemorySegment.ofArray(bytes));
        return bytes;
    }

    /** The snapshot layout stated on {@link Snapshot}: group, then layer, then selected block. */
    static byte[] expectedSnapshot(StoreLayout layout, long[][] selection, int salt) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        for (int g = 0; g < selection.length; g++) {
            int page = (int) layout.group(g).pageBytes();
            for (int layer = 0; layer < layout.group(g).layers(); layer++) {
                for (long block : selection[g]) {
                    bytes.write(content(layout, g, block, salt), layer * page, page);
                }
            }
        }
        return bytes.toByteArray();
    }

    @Test
    void write_readReturnsTheSameBytesInEveryGroup() throws Exception {
        try (PageStore store = open(LAYOUT)) {
            fill(store, 1);
            for (int g = 0; g < 3; g++) {
                for (long b : new long[] {0, 1, LAYOUT.group(g).blocks() - 1}) {
                    assertArrayEquals(content(LAYOUT, g, b, 1), read(store, g, b), "group " + g + " block " + b);
                }
            }
        }
    }

    @Test
    void write_leavesNeighbouringBlocksAndGroupsAlone() throws Exception {
        try (PageStore store = open(LAYOUT)) {
            fill(store, 1);
            store.write(0, 5, MemorySegment.ofArray(content(LAYOUT, 0, 5, 2)));
            assertArrayEquals(content(LAYOUT, 0, 5, 2), read(store, 0, 5));
            assertArrayEquals(content(LAYOUT, 0, 4, 1), read(store, 0, 4));
            assertArrayEquals(content(LAYOUT, 0, 6, 1), read(store, 0, 6));
            assertArrayEquals(content(LAYOUT, 1, 5, 1), read(store, 1, 5));
        }
    }

    @Test
    void gather_layoutIsGroupThenLayerThenSelectedBlock() throws Exception {
        long[][] selection = {{11, 12, 13, 40, 2}, {31, 0}, {7}};
        try (PageStore store = open(LAYOUT);
                Snapshot snapshot = store.newSnapshot(1 << 20)) {
            fill(store, 3);
            long bytes = store.gather(selection, snapshot);
            assertEquals(LAYOUT.snapshotBytes(selection), bytes);
            assertEquals(bytes, snapshot.size());
            assertArrayEquals(expectedSnapshot(LAYOUT, selection, 3), out(store, snapshot));
        }
    }

    @Test
    void gather_runsOfConsecutiveIdsGiveTheSameBytesAsSingleBlocks() throws Exception {
        long[][] runs = {{3, 4, 5, 6}, {}, {}};
        long[][] reversed = {{6, 5, 4, 3}, {}, {}};
        try (PageStore store = open(LAYOUT);
                Snapshot a = store.newSnapshot(1 << 20);
                Snapshot b = store.newSnapshot(1 << 20)) {
            fill(store, 4);
            store.gather(runs, a);
            store.gather(reversed, b);
            assertArrayEquals(expectedSnapshot(LAYOUT, runs, 4), out(store, a));
            assertArrayEquals(expectedSnapshot(LAYOUT, reversed, 4), out(store, b));
        }
    }

    @Test
    void scatter_restoresAGatheredSnapshotIntoOtherBlocks() throws Exception {
        long[][] source = {{11, 12, 13}, {1}, {2, 9}};
        long[][] fresh = {{60, 61, 50}, {30}, {15, 14}};
        try (PageStore store = open(LAYOUT);
                Snapshot snapshot = store.newSnapshot(1 << 20)) {
            fill(store, 5);
            store.gather(source, snapshot);
            store.scatter(snapshot, fresh);
            assertRestored(store, LAYOUT, source, fresh, 5);
            assertArrayEquals(content(LAYOUT, 0, 59, 5), read(store, 0, 59), "an unselected block was written");
        }
    }

    @Test
    void sha256_isTheDigestOfTheGatheredBytes() throws Exception {
        long[][] selection = {{1, 2, 63}, {31}, {0}};
        try (PageStore store = open(LAYOUT);
                Snapshot snapshot = store.newSnapshot(1 << 20)) {
            fill(store, 6);
            store.gather(selection, snapshot);
            byte[] expected = MessageDigest.getInstance("SHA-256").digest(expectedSnapshot(LAYOUT, selection, 6));
            assertArrayEquals(expected, store.sha256(snapshot));
        }
    }

    @Test
    void gather_emptySelectionHasNoBytes() throws Exception {
        try (PageStore store = open(LAYOUT);
                Snapshot snapshot = store.newSnapshot(0)) {
            assertEquals(0, store.gather(new long[][] {{}, {}, {}}, snapshot));
            assertArrayEquals(MessageDigest.getInstance("SHA-256").digest(new byte[0]), store.sha256(snapshot));
        }
    }

    @Test
    void snapshotLargerThanAStagingBuffer_roundTrips() throws Exception {
        // 12 MiB: more than the CUDA store's default 8 MiB staging, so copyOut and sha256 go in chunks.
        StoreLayout big = StoreLayout.uniform(1, 1, 1 << 20, 16);
        long[][] selection = {{15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 14}};
        try (PageStore store = open(big);
                Snapshot snapshot = store.newSnapshot(12L << 20)) {
            fill(store, 7);
            store.gather(selection, snapshot);
            byte[] expected = expectedSnapshot(big, selection, 7);
            assertArrayEquals(expected, out(store, snapshot));
            assertArrayEquals(MessageDigest.getInstance("SHA-256").digest(expected), store.sha256(snapshot));
            store.scatter(snapshot, new long[][] {{10, 11, 12, 13, 0, 1, 2, 3, 4, 5, 6, 7}});
            assertArrayEquals(content(big, 0, 15, 7), read(store, 0, 10));
            assertArrayEquals(content(big, 0, 14, 7), read(store, 0, 7));
        }
    }

    @Test
    void offHeapSegments_areAcceptedAsSourceAndDestination() throws Exception {
        try (PageStore store = open(LAYOUT);
                Arena arena = Arena.ofConfined()) {
            MemorySegment page = arena.allocate(LAYOUT.group(1).blockBytes());
            page.copyFrom(MemorySegment.ofArray(content(LAYOUT, 1, 3, 8)));
            store.write(1, 3, page);
            MemorySegment back = arena.allocate(LAYOUT.group(1).blockBytes());
            store.read(1, 3, back);
            assertArrayEquals(content(LAYOUT, 1, 3, 8), back.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void outOfRangeBlocks_areRefusedBeforeAnythingIsCopied() throws Exception {
        try (PageStore store = open(LAYOUT);
                Snapshot snapshot = store.newSnapshot(1 << 20)) {
            fill(store, 9);
            store.gather(new long[][] {{1}, {}, {}}, snapshot);
            IndexOutOfBoundsException e =
                    assertThrows(
                            IndexOutOfBoundsException.class,
                            () -> store.gather(new long[][] {{1}, {32}, {}}, snapshot));
            assertEquals("block 32 is outside group 1's pool of 32 blocks", e.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> store.scatter(snapshot, new long[][] {{-1}, {}, {}}));
            assertThrows(IndexOutOfBoundsException.class, () -> store.write(3, 0, MemorySegment.ofArray(new byte[64])));
            assertArrayEquals(content(LAYOUT, 0, 1, 9), read(store, 0, 1));
        }
    }

    @Test
    void misfitSelectionsAndBuffers_areRefusedWithTheSizes() throws Exception {
        try (PageStore store = open(LAYOUT);
                Snapshot small = store.newSnapshot(4096)) {
            IllegalArgumentException tooBig =
                    assertThrows(IllegalArgumentException.class, () -> store.gather(new long[][] {{1}, {}, {}}, small));
            assertEquals("the selection needs 8192 bytes, the snapshot holds at most 4096", tooBig.getMessage());
            IllegalArgumentException groups =
                    assertThrows(IllegalArgumentException.class, () -> store.gather(new long[][] {{1}}, small));
            assertEquals("a selection has 1 groups, the store has 3", groups.getMessage());
            IllegalArgumentException page =
                    assertThrows(
                            IllegalArgumentException.class,
                            () -> store.write(0, 0, MemorySegment.ofArray(new byte[4096])));
            assertEquals("source has 4096 bytes, a block has 8192", page.getMessage());
            store.gather(new long[][] {{}, {}, {1, 2}}, small);
            assertThrows(IllegalArgumentException.class, () -> store.scatter(small, new long[][] {{}, {}, {1}}));
        }
    }

    /** Pages longer than a kernel's chunk (64 KiB), of odd length, and a few bytes, with runs. */
    @Test
    void largeAndOddPages_gatherAndScatterByteForByte() throws Exception {
        StoreLayout layout =
                new StoreLayout(
                        List.of(
                                new StoreLayout.GroupLayout(2, 196_608, 8),
                                new StoreLayout.GroupLayout(1, 150_001, 6),
                                new StoreLayout.GroupLayout(3, 17, 10)));
        long[][] source = {{2, 3, 4, 0}, {5, 1, 2}, {9, 8, 7, 1}};
        long[][] fresh = {{7, 6, 5, 1}, {0, 3, 4}, {0, 2, 3, 4}};
        try (PageStore store = open(layout);
                Snapshot snapshot = store.newSnapshot(4 << 20)) {
            fill(store, 8);
            store.gather(source, snapshot);
            assertArrayEquals(expectedSnapshot(layout, source, 8), out(store, snapshot));
            store.scatter(snapshot, fresh);
            assertRestored(store, layout, source, fresh, 8);
            assertArrayEquals(content(layout, 2, 9, 8), read(store, 2, 9), "an unselected block was written");
        }
    }

    /** One store, selections growing from one block to many: buffers sized by the first must grow. */
    @Test
    void growingSelections_onOneStore() throws Exception {
        try (PageStore store = open(LAYOUT);
                Snapshot snapshot = store.newSnapshot(1 << 20)) {
            fill(store, 12);
            long[][] one = {{5}, {}, {}};
            store.gather(one, snapshot);
            assertArrayEquals(expectedSnapshot(LAYOUT, one, 12), out(store, snapshot));
            long[][] many = {{63, 1, 9, 2, 40, 41, 42, 17, 30, 60}, {31, 0, 7, 3, 12, 25}, {15, 0, 8, 4}};
            store.gather(many, snapshot);
            assertArrayEquals(expectedSnapshot(LAYOUT, many, 12), out(store, snapshot));
            long[][] fresh = {{10, 11, 12, 13, 14, 15, 16, 18, 19, 20}, {1, 2, 4, 5, 6, 8}, {1, 2, 3, 5}};
            store.scatter(snapshot, fresh);
            assertRestored(store, LAYOUT, many, fresh, 12);
        }
    }

    @Test
    void scatter_refusesABlockNamedTwiceInAGroupBeforeCopying() throws Exception {
        try (PageStore store = open(LAYOUT);
                Snapshot snapshot = store.newSnapshot(1 << 20)) {
            fill(store, 6);
            store.gather(new long[][] {{1, 2}, {}, {3}}, snapshot);
            IllegalArgumentException e =
                    assertThrows(
                            IllegalArgumentException.class,
                            () -> store.scatter(snapshot, new long[][] {{40, 40}, {}, {7}}));
            assertEquals("block 40 is named twice in group 0's scatter targets", e.getMessage());
            assertArrayEquals(content(LAYOUT, 0, 40, 6), read(store, 0, 40), "a refused scatter wrote");
            assertArrayEquals(content(LAYOUT, 2, 7, 6), read(store, 2, 7), "a refused scatter wrote");
            // The same id in two groups names two blocks: accepted.
            store.scatter(snapshot, new long[][] {{8, 9}, {}, {8}});
            assertArrayEquals(content(LAYOUT, 0, 2, 6), read(store, 0, 9));
            assertArrayEquals(content(LAYOUT, 2, 3, 6), read(store, 2, 8));
        }
    }

    @Test
    void snapshotsOfAnotherStore_areRefused() throws Exception {
        try (PageStore one = open(LAYOUT);
                PageStore two = open(LAYOUT);
                Snapshot foreign = two.newSnapshot(1 << 16)) {
            assertThrows(IllegalArgumentException.class, () -> one.gather(new long[][] {{1}, {}, {}}, foreign));
        }
    }

    @Test
    void closedStores_refuseWorkAndCloseTwiceQuietly() throws Exception {
        PageStore store = open(LAYOUT);
        Snapshot snapshot = store.newSnapshot(1 << 16);
        store.close();
        store.close();
        snapshot.close();
        IllegalStateException e =
                assertThrows(
                        IllegalStateException.class, () -> store.read(0, 0, MemorySegment.ofArray(new byte[8192])));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }

    /** Each block {@code fresh[g][i]} holds what block {@code source[g][i]} held when filled with {@code salt}. */
    static void assertRestored(PageStore store, StoreLayout layout, long[][] source, long[][] fresh, int salt) {
        for (int g = 0; g < source.length; g++) {
            for (int i = 0; i < source[g].length; i++) {
                assertArrayEquals(
                        content(layout, g, source[g][i], salt),
                        read(store, g, fresh[g][i]),
                        "group " + g + " block " + fresh[g][i] + " restored from " + source[g][i]);
            }
        }
    }
}
