package io.proofgate.protocol;

import static io.proofgate.protocol.Events.blocks;
import static io.proofgate.protocol.Events.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A store's table is made with room for its plan's blocks, within a bound, when its request is admitted. */
class PendingStoreTest {

    @Test
    void aTableHasRoomForItsPlanAndNoMoreThan64BlocksAtFirst() {
        Topology topology = Events.seedTopology(); // full and recurrent_align, 2,304-token blocks
        PendingStore planned = new PendingStore("r1", "d1", 6912, blocks(ids(11), ids(71)), topology);
        assertEquals(3, planned.tableCapacity(0), "ceil(6912 / 2304) blocks for the full group");
        assertEquals(1, planned.tableCapacity(1), "a recurrent group's table is never selected from");
        PendingStore huge = new PendingStore("r2", "d2", 1_000_000_000L, blocks(ids(11), ids(71)), topology);
        assertEquals(64, huge.tableCapacity(0), "a long prompt's table grows as its prefill brings blocks");
        PendingStore longer = new PendingStore("r3", "d3", 2304, blocks(ids(11, 12, 13), ids(71)), topology);
        assertEquals(3, longer.tableCapacity(0), "a table admitted longer than its plan keeps its blocks");
        assertEquals(blocks(ids(11, 12, 13), ids(71)), longer.snapshot(topology).table());
    }
}
