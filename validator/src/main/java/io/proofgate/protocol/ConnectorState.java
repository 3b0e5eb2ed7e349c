package io.proofgate.protocol;

import java.util.SortedMap;
import java.util.SortedSet;

/** An immutable snapshot of everything the connector holds, with sorted maps for stable output. */
public record ConnectorState(
        SortedMap<String, PendingSnapshot> pending,
        SortedMap<String, SortedSet<Integer>> held,
        Counters counters,
        long lastStep) {
    public ConnectorState {
        pending = java.util.Collections.unmodifiableSortedMap(pending);
        held = java.util.Collections.unmodifiableSortedMap(held);
    }
}
