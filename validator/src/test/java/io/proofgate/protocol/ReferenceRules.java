package io.proofgate.protocol;

import io.proofgate.words.GroupPolicy;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A second, naive statement of protocol §3 written straight from the text with lists and sets and no attention to cost,
 * to check {@link Connector} against on random events. Verdicts are reduced to what the protocol fixes (kind, step, id,
 * code, target, plan contents, retire cause).
 */
final class ReferenceRules {

    record Store(String digest, long target, long done, List<List<Long>> table, Set<GroupBlock> latch) {}

    private final Topology topology;
    final Map<String, Store> pending = new TreeMap<>();
    private final Map<String, Set<Integer>> held = new TreeMap<>();
    long plans;
    long rejected;
    long skippedQuorum;
    long retiredFinished;
    long ignoredHeld;
    private long lastStep;

    ReferenceRules(Topology topology) {
        this.topology = topology;
    }

    List<String> apply(Event event) {
        List<String> out = new ArrayList<>();
        if (event instanceof Event.Finished finished) {
            if (pending.remove(finished.id()) != null) {
                retiredFinished++;
                out.add("retired " + lastStep + " " + finished.id() + " finished");
            }
        } else if (event instanceof Event.Held h) {
            if (h.rank() < 0 || h.rank() >= topology.tpDegree()) {
                ignoredHeld++;
            } else {
                held.computeIfAbsent(h.digest(), d -> new TreeSet<>()).add(h.rank());
            }
        } else if (event instanceof Event.Step s) {
            lastStep = s.step();
            for (String id : s.preempted()) {
                Store store = pending.get(id);
                if (store != null) {
                    pending.put(id, new Store(store.digest(), store.target(), store.done(), store.table(), Set.of()));
                }
            }
            for (Event.NewRequest r : s.newRequests()) {
                long target = Math.floorDiv(r.promptTokens() - 1, topology.hashBlockSize()) * topology.hashBlockSize();
                if (target < topology.minSpanTokens() || target > topology.maxSpanTokens()) {
                    continue;
                }
                if (fullQuorum(r.digest())) {
                    skippedQuorum++;
                    continue;
                }
                Set<GroupBlock> latch = Set.of();
                if (hasRecurrent()) {
                    Object judged = judge(s.evidence(), r.id(), target);
                    if (judged instanceof String code) {
                        rejected++;
                        out.add("rejected " + s.step() + " " + r.id() + " " + code + " " + target);
                        continue;
                    }
                    if (judged instanceof Set<?> proof) {
                        latch = castSet(proof);
                    }
                }
                Store store = new Store(r.digest(), target, r.computed() + r.scheduled(), lists(r.blockIds()), latch);
                pending.put(r.id(), store);
                if (!hasRecurrent() && store.done() >= target) {
                    out.add(publish(s.step(), r.id(), store));
                }
            }
            for (Event.CachedRequest r : s.cachedRequests()) {
                Store store = pending.get(r.id());
                if (store == null) {
                    continue;
                }
                if (fullQuorum(store.digest())) {
                    pending.remove(r.id());
                    skippedQuorum++;
                    out.add("retired " + s.step() + " " + r.id() + " quorum");
                    continue;
                }
                Set<GroupBlock> latch = store.latch();
                if (hasRecurrent()) {
                    Object judged = judge(s.evidence(), r.id(), store.target());
                    if (judged instanceof String code) {
                        pending.remove(r.id());
                        rejected++;
                        out.add("rejected " + s.step() + " " + r.id() + " " + code + " " + store.target());
                        continue;
                    }
                    if (judged instanceof Set<?> proof) {
                        if (latch.isEmpty()) {
                            latch = castSet(proof);
                        } else if (!latch.equals(proof)) {
                            pending.remove(r.id());
                            rejected++;
                            out.add("rejected " + s.step() + " " + r.id() + " conflict " + store.target());
                            continue;
                        }
                    }
                }
                List<List<Long>> table = lists(r.newBlockIds());
                if (!r.resumed()) {
                    List<List<Long>> joined = new ArrayList<>();
                    for (int g = 0; g < table.size(); g++) {
                        List<Long> group = new ArrayList<>(store.table().get(g));
                        group.addAll(table.get(g));
                        joined.add(group);
                    }
                    table = joined;
                }
                store = new Store(store.digest(), store.target(), r.computed() + r.scheduled(), table, latch);
                pending.put(r.id(), store);
                if (store.done() >= store.target() && (!hasRecurrent() || !latch.isEmpty())) {
                    out.add(publish(s.step(), r.id(), store));
                }
            }
        }
        return out;
    }

    private String publish(long step, String id, Store store) {
        pending.remove(id);
        List<List<Long>> selected = new ArrayList<>();
        for (Group group : topology.groups()) {
            List<Long> table = store.table().get(group.index());
            long needed = (store.target() + group.blockTokens() - 1) / group.blockTokens();
            List<Long> pick;
            if (group.policy() == GroupPolicy.RECURRENT_ALIGN) {
                pick = new ArrayList<>();
                for (GroupBlock block : store.latch()) {
                    if (block.group() == group.index()) {
                        pick.add(block.block());
                    }
                }
            } else if (needed > table.size()) {
                pick = null;
            } else if (group.policy() == GroupPolicy.FULL) {
                pick = table.subList(0, (int) needed);
            } else {
                long firstToken = Math.max(0, store.target() - group.windowTokens());
                pick = table.subList((int) (firstToken / group.blockTokens()), (int) needed);
            }
            if (pick == null || pick.stream().anyMatch(b -> b <= 0)) {
                rejected++;
                return "rejected " + step + " " + id + " invalid_selection " + store.target();
            }
            selected.add(pick);
        }
        List<Long> all = new ArrayList<>();
        selected.forEach(all::addAll);
        if (new HashSet<>(all).size() != all.size()) {
            rejected++;
            return "rejected " + step + " " + id + " invalid_selection " + store.target();
        }
        plans++;
        return "plan "
                + step
                + " "
                + id
                + " "
                + store.digest()
                + " "
                + store.target()
                + " "
                + selected
                + " "
                + Events.sorted(store.latch());
    }

    /** A poison code, a complete exact-target set, or null (keep the latch). */
    private Object judge(RawValue field, String id, long target) {
        if (field instanceof RawValue.Absent || field instanceof RawValue.Null) {
            return null;
        }
        if (!(field instanceof RawValue.MapOf map)) {
            return "not_a_mapping";
        }
        RawValue value = map.entries().get(id);
        if (value == null || value instanceof RawValue.Null) {
            return null;
        }
        if (!(value instanceof RawValue.ListOf list)) {
            return "not_a_list";
        }
        if (list.items().isEmpty()) {
            return "empty";
        }
        List<GroupBlock> exact = new ArrayList<>();
        for (RawValue entry : list.items()) {
            if (!(entry instanceof RawValue.ListOf triple)
                    || triple.items().size() != 3
                    || !triple.items().stream()
                            .allMatch(item -> item instanceof RawValue.Int || item instanceof RawValue.Big)) {
                return "malformed_entry";
            }
            // every comparison on exact integers, as the log wrote them
            BigInteger group = exact(triple.items().get(0));
            BigInteger block = exact(triple.items().get(1));
            BigInteger boundary = exact(triple.items().get(2));
            if (group.signum() < 0 || group.compareTo(BigInteger.valueOf(topology.groups().size())) >= 0) {
                return "unknown_group";
            }
            if (topology.groups().get(group.intValue()).policy() != GroupPolicy.RECURRENT_ALIGN) {
                return "non_recurrent_group";
            }
            if (block.signum() <= 0) {
                return "null_block";
            }
            if (block.compareTo(BigInteger.valueOf(Long.MAX_VALUE)) > 0) {
                return "malformed_entry"; // a block id vLLM can never hand over
            }
            if (boundary.compareTo(BigInteger.valueOf(target)) > 0) {
                return "future_boundary";
            }
            if (boundary.compareTo(BigInteger.valueOf(target)) < 0) {
                continue;
            }
            if (exact.stream().anyMatch(e -> e.group() == group.intValue())) {
                return "duplicate_group";
            }
            exact.add(new GroupBlock(group.intValue(), block.longValue()));
        }
        if (exact.isEmpty()) {
            return null;
        }
        Set<Integer> covered = new TreeSet<>();
        exact.forEach(e -> covered.add(e.group()));
        Set<Integer> recurrent = new TreeSet<>();
        topology.groups().stream().filter(Group::isRecurrent).forEach(g -> recurrent.add(g.index()));
        if (!covered.equals(recurrent)) {
            return "incomplete";
        }
        return Events.sorted(exact);
    }

    private static BigInteger exact(RawValue integer) {
        return integer instanceof RawValue.Big(BigInteger big)
                ? big
                : BigInteger.valueOf(((RawValue.Int) integer).value());
    }

    private boolean hasRecurrent() {
        return topology.groups().stream().anyMatch(Group::isRecurrent);
    }

    private boolean fullQuorum(String digest) {
        return held.getOrDefault(digest, Set.of()).size() == topology.tpDegree();
    }

    private static List<List<Long>> lists(BlockIds blocks) {
        List<List<Long>> lists = new ArrayList<>();
        for (long[] group : blocks.byGroup()) {
            List<Long> list = new ArrayList<>();
            for (long block : group) {
                list.add(block);
            }
            lists.add(list);
        }
        return lists;
    }

    @SuppressWarnings("unchecked")
    private static Set<GroupBlock> castSet(Set<?> set) {
        return (Set<GroupBlock>) set;
    }

    /** The same reduction of a real verdict. */
    static String reduce(Verdict verdict) {
        return switch (verdict) {
            case Verdict.Plan p ->
                    "plan "
                            + p.step()
                            + " "
                            + p.id()
                            + " "
                            + p.digest()
                            + " "
                            + p.target()
                            + " "
                            + lists(p.blocksByGroup())
                            + " "
                            + Events.sorted(p.recurrent());
            case Verdict.Rejected r ->
                    "rejected " + r.step() + " " + r.id() + " " + r.code().wireName() + " " + r.target();
            case Verdict.Retired r -> "retired " + r.step() + " " + r.id() + " " + r.cause().wireName();
            // the random logs of this statement have no lookups
            case Verdict.Hit h -> "hit " + h.step() + " " + h.id() + " " + h.tokens();
            case Verdict.Load l -> "load " + l.step() + " " + l.id() + " " + l.digest() + " " + l.restored();
        };
    }
}
