package io.proofgate.protocol;

import io.proofgate.words.GroupPolicy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Terse builders for hand-written protocol tests. */
final class Events {

    private Events() {}

    /** full:2304 + recurrent_align:2304, the seed's topology. */
    static Topology seedTopology() {
        return Topology.of(new Group(0, GroupPolicy.FULL, 2304, 0), new Group(1, GroupPolicy.RECURRENT_ALIGN, 2304, 0));
    }

    /** Group blocks in group, then block order, for comparing latches and plans as sets. */
    static java.util.SortedSet<GroupBlock> sorted(java.util.Collection<GroupBlock> blocks) {
        java.util.SortedSet<GroupBlock> set =
                new java.util.TreeSet<>(
                        java.util.Comparator.comparingInt(GroupBlock::group).thenComparingLong(GroupBlock::block));
        set.addAll(blocks);
        return set;
    }

    static BlockIds blocks(long[]... groups) {
        return new BlockIds(groups);
    }

    static long[] ids(long... ids) {
        return ids;
    }

    static Event.NewRequest newRequest(
            String id, String digest, long prompt, long computed, long scheduled, BlockIds blocks) {
        return new Event.NewRequest(id, digest, prompt, computed, scheduled, blocks);
    }

    static Event.CachedRequest cached(String id, long computed, long scheduled, BlockIds newBlocks) {
        return new Event.CachedRequest(id, computed, scheduled, newBlocks, false);
    }

    static Event.CachedRequest resumed(String id, long computed, long scheduled, BlockIds blocks) {
        return new Event.CachedRequest(id, computed, scheduled, blocks, true);
    }

    /** Evidence {@code {id: [[g,b,boundary], ...]}}. */
    static RawValue evidence(String id, long[]... entries) {
        List<RawValue> list = new ArrayList<>();
        for (long[] entry : entries) {
            List<RawValue> triple = new ArrayList<>();
            for (long value : entry) {
                triple.add(new RawValue.Int(value));
            }
            list.add(new RawValue.ListOf(triple));
        }
        return mapping(id, new RawValue.ListOf(list));
    }

    static RawValue mapping(String id, RawValue value) {
        Map<String, RawValue> map = new LinkedHashMap<>();
        map.put(id, value);
        return new RawValue.MapOf(map);
    }

    static RawValue list(RawValue... items) {
        return new RawValue.ListOf(List.of(items));
    }

    static RawValue integer(long value) {
        return new RawValue.Int(value);
    }

    static Event.Step step(
            long step,
            List<Event.NewRequest> news,
            List<Event.CachedRequest> cached,
            List<String> preempted,
            RawValue evidence) {
        return new Event.Step(step, news, cached, preempted, evidence);
    }

    static Event.Step newStep(long step, Event.NewRequest request, RawValue evidence) {
        return step(step, List.of(request), List.of(), List.of(), evidence);
    }

    static Event.Step cachedStep(long step, Event.CachedRequest request, RawValue evidence) {
        return step(step, List.of(), List.of(request), List.of(), evidence);
    }

    /** The 2^rounds ids made of "Aa" and "BB", rounds of them each: they all share one hash code. */
    static java.util.List<String> idsSharingOneHashCode(int rounds) {
        java.util.List<String> ids = java.util.List.of("");
        for (int round = 0; round < rounds; round++) {
            java.util.List<String> longer = new java.util.ArrayList<>();
            for (String prefix : ids) {
                longer.add(prefix + "Aa");
                longer.add(prefix + "BB");
            }
            ids = longer;
        }
        return ids;
    }
}
