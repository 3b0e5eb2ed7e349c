package io.proofgate.store;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import java.util.List;

/** Scatter targets: both ways of finding a block named twice (bitmap for dense, sorting for sparse selections). */
class StoreLayoutTest {

    private static final StoreLayout LAYOUT =
            new StoreLayout(
                    List.of(new StoreLayout.GroupLayout(1, 16, 100), new StoreLayout.GroupLayout(1, 16, 1_000_000)));

    @Test
    void denseSelections_areCheckedByBitmap() {
        long[][] twice = {{0, 64, 99, 63, 64}, {}};
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> LAYOUT.checkScatterTargets(twice));
        assertEquals("block 64 is named twice in group 0's scatter targets", e.getMessage());
        assertDoesNotThrow(() -> LAYOUT.checkScatterTargets(new long[][] {{0, 63, 64, 65, 99}, {}}));
    }

    @Test
    void sparseSelectionsInLargePools_areCheckedBySorting() {
        long[][] twice = {{}, {999_999, 5, 123_456, 5}};
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> LAYOUT.checkScatterTargets(twice));
        assertEquals("block 5 is named twice in group 1's scatter targets", e.getMessage());
        assertDoesNotThrow(() -> LAYOUT.checkScatterTargets(new long[][] {{}, {999_999, 5, 123_456, 6}}));
    }

    @Test
    void outOfRangeTargets_areRefusedFirst() {
        IndexOutOfBoundsException e =
                assertThrows(
                        IndexOutOfBoundsException.class,
                        () -> LAYOUT.checkScatterTargets(new long[][] {{100, 100}, {}}));
        assertEquals("block 100 is outside group 0's pool of 100 blocks", e.getMessage());
    }
}
