package io.proofgate.protocol;

import java.util.List;

/** An immutable view of one pending store; {@code latch} is sorted by group and empty when unlatched. */
public record PendingSnapshot(
        String id, String digest, long target, long done, BlockIds table, List<GroupBlock> latch) {
    public PendingSnapshot {
        latch = List.copyOf(latch);
    }
}
