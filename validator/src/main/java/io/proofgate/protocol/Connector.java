package io.proofgate.protocol;

import io.proofgate.words.PoisonCode;
import io.proofgate.words.RetireCause;
import io.proofgate.words.SelectionProblem;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The publication protocol of protocol §3 as a deterministic state machine: one instance per topology, single-threaded,
 * no I/O. {@link #apply} is the only mutator; it returns the verdicts of the event in processing order (new requests in
 * list order, then cached requests in list order).
 *
 * <p>Memory is proportional to the requests pending and the digests held, never to the number of events: ended requests
 * are forgotten, so request ids are assumed unique for a connector's life, as vLLM's are.
 */
public final class Connector {

    private final Topology topology;
    private final boolean hasRecurrent;
    private final int recurrentGroups;
    private final Map<String, PendingStore> pending = new HashMap<>();

    /** The ranks that reported holding each digest; never undone, so only ever added to. */
    private final Map<String, BitSet> heldRanks = new HashMap<>();

    /** The ids scheduled in the step being checked, kept from step to step so that a step does not make a new set. */
    private final Set<String> scheduled = new HashSet<>();

    private long plans;
    private long rejected;
    private long storeSkippedQuorum;
    private long ignoredHeld;
    private long retiredFinished;
    private long lastStep;
    private boolean stepped;
    private final Restores restores;

    /** A connector of the store half only, for logs without lookups. */
    public Connector(Topology topology) {
        this(topology, false);
    }

    /**
     * With {@code restores}, the connector answers lookups and loads its hits (protocol §3, "Restore rules"), and
     * remembers every prefix it publishes for that: its memory then grows with the prefixes published, as a store's
     * index does. Without, a lookup is an event this connector cannot be sent.
     */
    public Connector(Topology topology, boolean restores) {
        this.topology = topology;
        this.recurrentGroups = topology.recurrentGroupCount();
        this.hasRecurrent = recurrentGroups > 0;
        this.restores = new Restores(topology, restores);
    }

    public Topology topology() {
        return topology;
    }

    public List<Verdict> apply(Event event) {
        return switch (event) {
            case Event.Step step -> step(step);
            case Event.Finished finished -> finish(finished.id());
            case Event.Held held -> hold(held.rank(), held.digest());
            case Event.Lookup lookup -> List.of(restores.lookup(lastStep, lookup));
        };
    }

    /** protocol §3 "Step processing", in its order. */
    private List<Verdict> step(Event.Step step) {
        checkStep(step);
        lastStep = step.step();
        stepped = true;
        for (String id : step.preempted()) {
            dropLatchOnPreemption(id);
        }
        // Rows 1 and 2 judge the whole field, once for the step; otherwise it maps requests to entries.
        Validation whole = hasRecurrent ? EvidenceRules.judgeField(step.evidence()) : null;
        Map<String, RawValue> byRequest =
                hasRecurrent && whole == null ? ((RawValue.MapOf) step.evidence()).entries() : Map.of();
        List<Verdict> verdicts = new ArrayList<>(2);
        for (Event.NewRequest request : step.newRequests()) {
            Verdict.Load load = restores.load(step.step(), request);
            if (load != null) {
                verdicts.add(load); // the load is started at allocation, before the step computes
            }
            newRequest(step.step(), request, whole, byRequest, verdicts);
        }
        CachedRequests cached = step.cachedRequests();
        for (int i = 0; i < cached.size(); i++) {
            PendingStore store = pending.get(cached.id(i));
            if (store != null) {
                cachedStep(step.step(), store, cached, i, whole, byRequest.get(store.id), verdicts);
            }
            // Not pending: never tracked, poisoned, published or retired; its evidence is not examined.
        }
        return verdicts;
    }

    /** Rule "Preemptions first": vLLM unpins the blocks, so the proof is gone; progress and table stay. */
    private void dropLatchOnPreemption(String id) {
        PendingStore store = pending.get(id);
        if (store != null) {
            store.dropLatch();
        }
    }

    /** Rule "New request". */
    private void newRequest(
            long step,
            Event.NewRequest request,
            Validation whole,
            Map<String, RawValue> byRequest,
            List<Verdict> verdicts) {
        long target = topology.targetOf(request.promptTokens());
        if (!topology.tracks(target)) {
            return; // protocol §3: outside [min_span_tokens, max_span_tokens] it is neither tracked nor validated.
        }
        if (atFullQuorum(request.digest())) {
            storeSkippedQuorum++;
            return;
        }
        long[] proof = null;
        if (hasRecurrent) {
            Validation validation =
                    whole != null ? whole : EvidenceRules.judgeEntry(byRequest.get(request.id()), target, topology);
            switch (validation) {
                case Validation.Keep keep -> {}
                case Validation.Latch latch -> proof = latch.blockByGroup();
                case Validation.Poison poison -> {
                    verdicts.add(reject(step, request.id(), target, poison));
                    return;
                }
            }
        }
        PendingStore store = new PendingStore(request.id(), request.digest(), target, request.blockIds());
        store.done = request.computed() + request.scheduled();
        if (proof != null) {
            store.latch(proof);
        }
        pending.put(store.id, store);
        // A topology with recurrent groups never publishes on the new-request step: vLLM hands the
        // aligned proof over with the step's output and a copy-on-write target one step later.
        if (!hasRecurrent && store.done >= target) {
            publish(step, store, verdicts);
        }
    }

    /** Rule "Cached step", items (1) to (5). */
    private void cachedStep(
            long step,
            PendingStore store,
            CachedRequests cached,
            int request,
            Validation whole,
            RawValue entry,
            List<Verdict> verdicts) {
        // (1) Full quorum retires the store without looking at the evidence.
        if (atFullQuorum(store.digest)) {
            pending.remove(store.id);
            storeSkippedQuorum++;
            verdicts.add(new Verdict.Retired(step, store.id, RetireCause.QUORUM));
            return;
        }
        // (2) Validate: poison, latch, keep, or conflict.
        if (hasRecurrent) {
            Validation validation = whole != null ? whole : EvidenceRules.judgeEntry(entry, store.target, topology);
            switch (validation) {
                case Validation.Keep keep -> {}
                case Validation.Latch latch -> {
                    if (!store.latched()) {
                        store.latch(latch.blockByGroup());
                    } else if (!store.latchEquals(latch.blockByGroup())) {
                        pending.remove(store.id);
                        verdicts.add(reject(step, store.id, store.target, conflict(store, latch.blockByGroup())));
                        return;
                    }
                }
                case Validation.Poison poison -> {
                    pending.remove(store.id);
                    verdicts.add(reject(step, store.id, store.target, poison));
                    return;
                }
            }
        }
        // (3) Extend the table, or replace it when the request resumes after a preemption.
        if (cached.resumed(request)) {
            store.replaceTable(cached, request);
        } else {
            store.extendTable(cached, request);
        }
        // (4) Progress.
        store.done = cached.computed(request) + cached.scheduled(request);
        // (5) Publish once the target is computed and, with recurrent groups, proven.
        if (store.done >= store.target && (!hasRecurrent || store.latched())) {
            publish(step, store, verdicts);
        }
    }

    private List<Verdict> finish(String id) {
        restores.finished(id);
        PendingStore store = pending.remove(id);
        if (store == null) {
            return List.of();
        }
        retiredFinished++;
        return List.of(new Verdict.Retired(lastStep, id, RetireCause.FINISHED));
    }

    private List<Verdict> hold(int rank, String digest) {
        if (rank < 0 || rank >= topology.tpDegree()) {
            // protocol §6: the real connector skips a report from a rank it does not have and goes
            // on; stopping here would lose the rest of a production log to one misconfigured worker.
            ignoredHeld++;
            return List.of();
        }
        heldRanks.computeIfAbsent(digest, d -> new BitSet()).set(rank); // a report again changes nothing
        return List.of();
    }

    private boolean atFullQuorum(String digest) {
        BitSet ranks = heldRanks.get(digest);
        return ranks != null && ranks.cardinality() == topology.tpDegree();
    }

    /**
     * Plan block selection, then the plan. A null block, a table too short for the target, or a block selected twice
     * anywhere in the plan fails closed: all groups draw from vLLM's one block pool, so one block in two places of a
     * plan is corruption whichever groups they are.
     */
    private void publish(long step, PendingStore store, List<Verdict> verdicts) {
        pending.remove(store.id);
        List<Group> groups = topology.groups();
        long[][] selected = new long[groups.size()][];
        GroupBlock[] recurrent = new GroupBlock[recurrentGroups];
        int recurrentAt = 0;
        for (int g = 0; g < selected.length; g++) {
            Group group = groups.get(g);
            switch (group.policy()) {
                case FULL -> selected[g] = store.tableSlice(g, 0, ceilDiv(store.target, group.blockTokens()));
                case SLIDING -> {
                    long from = Math.max(0, store.target - group.windowTokens()) / group.blockTokens();
                    selected[g] = store.tableSlice(g, from, ceilDiv(store.target, group.blockTokens()));
                }
                case RECURRENT_ALIGN -> {
                    // Never from the table: its recurrent slot keeps advancing past the target.
                    long block = store.latchedBlock(g);
                    selected[g] = new long[] {block};
                    recurrent[recurrentAt++] = new GroupBlock(g, block);
                }
            }
            if (selected[g] == null) {
                verdicts.add(invalidSelection(step, store, g, null, SelectionProblem.SHORT_TABLE));
                return;
            }
            for (long block : selected[g]) {
                if (block <= 0) {
                    verdicts.add(invalidSelection(step, store, g, block, SelectionProblem.NULL_BLOCK));
                    return;
                }
            }
        }
        long repeated = firstRepeated(selected);
        if (repeated > 0) {
            int g = groupOf(selected, repeated);
            verdicts.add(invalidSelection(step, store, g, repeated, SelectionProblem.REPEATED_BLOCK));
            return;
        }
        plans++;
        restores.published(store.digest, store.target);
        verdicts.add(
                new Verdict.Plan(
                        step, store.id, store.digest, store.target, BlockIds.adopt(selected), List.of(recurrent)));
    }

    private Verdict.Rejected invalidSelection(
            long step, PendingStore store, int group, Long block, SelectionProblem problem) {
        return reject(
                step,
                store.id,
                store.target,
                new Validation.Poison(
                        PoisonCode.INVALID_SELECTION,
                        " problem=" + problem.wireName(),
                        null,
                        group,
                        block == null ? null : BigInteger.valueOf(block)));
    }

    /** The smallest block that occurs twice in the selection, or 0 when none does. */
    private static long firstRepeated(long[][] selected) {
        int total = 0;
        for (long[] group : selected) {
            total += group.length;
        }
        long[] all = new long[total];
        int at = 0;
        for (long[] group : selected) {
            System.arraycopy(group, 0, all, at, group.length);
            at += group.length;
        }
        Arrays.sort(all);
        for (int i = 1; i < all.length; i++) {
            if (all[i] == all[i - 1]) {
                return all[i];
            }
        }
        return 0;
    }

    /** The group of the second occurrence of {@code block}, in plan order (group, then position). */
    private static int groupOf(long[][] selected, long block) {
        int seen = 0;
        for (int g = 0; g < selected.length; g++) {
            for (long b : selected[g]) {
                if (b == block && ++seen == 2) {
                    return g;
                }
            }
        }
        throw new IllegalStateException("block " + block + " is not repeated");
    }

    static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }

    private Validation.Poison conflict(PendingStore store, long[] proof) {
        for (Group group : topology.groups()) {
            int g = group.index();
            if (group.isRecurrent() && proof[g] != store.latchedBlock(g)) {
                return Validation.Poison.of(
                        PoisonCode.CONFLICT, " latched=" + store.latchedBlock(g), store.target, g, proof[g]);
            }
        }
        throw new IllegalStateException("conflict without a differing group");
    }

    private Verdict.Rejected reject(long step, String id, long target, Validation.Poison poison) {
        rejected++;
        StringBuilder reason = new StringBuilder(poison.code().sentence());
        if (poison.observed() != null) {
            reason.append(" observed=").append(poison.observed());
        }
        reason.append(" target=").append(target);
        if (poison.group() != null) {
            reason.append(" group=").append(poison.group());
        }
        if (poison.block() != null) {
            reason.append(" block=").append(poison.block());
        }
        reason.append(poison.facts());
        return new Verdict.Rejected(
                step, id, poison.code(), reason.toString(), poison.observed(), target, poison.group(), poison.block());
    }

    /** Events that no scheduler produces: reported, never silently absorbed. */
    private static void tokensFit(long computed, long scheduled, String id) {
        if (computed > Long.MAX_VALUE - scheduled) {
            throw new InvalidEventException("request \"" + id + "\": computed + scheduled is beyond 2^63-1 tokens");
        }
    }

    private void checkStep(Event.Step step) {
        if (stepped && step.step() <= lastStep) {
            throw new InvalidEventException(
                    "step " + step.step() + " does not increase (previous step " + lastStep + ")");
        }
        int groups = topology.groups().size();
        Set<String> seen = scheduled;
        seen.clear();
        for (Event.NewRequest request : step.newRequests()) {
            if (!seen.add(request.id())) {
                throw new InvalidEventException(
                        "request \"" + request.id() + "\" is scheduled twice in step " + step.step());
            }
            tokensFit(request.computed(), request.scheduled(), request.id());
            if (pending.containsKey(request.id())) {
                throw new InvalidEventException("new request \"" + request.id() + "\" is already pending");
            }
            if (request.blockIds().groupCount() != groups) {
                throw new InvalidEventException(
                        "block_ids of \""
                                + request.id()
                                + "\" has "
                                + request.blockIds().groupCount()
                                + " groups, the topology has "
                                + groups);
            }
            restores.check(request);
        }
        CachedRequests cached = step.cachedRequests();
        for (int i = 0; i < cached.size(); i++) {
            String id = cached.id(i);
            if (!seen.add(id)) {
                throw new InvalidEventException("request \"" + id + "\" is scheduled twice in step " + step.step());
            }
            tokensFit(cached.computed(i), cached.scheduled(i), id);
            if (cached.groupCount(i) != groups) {
                throw new InvalidEventException(
                        "new_block_ids of \""
                                + id
                                + "\" has "
                                + cached.groupCount(i)
                                + " groups, the topology has "
                                + groups);
            }
        }
    }

    public Counters counters() {
        return new Counters(plans, rejected, storeSkippedQuorum, retiredFinished, ignoredHeld);
    }

    public ConnectorState state() {
        TreeMap<String, SortedSet<Integer>> heldView = new TreeMap<>();
        heldRanks.forEach(
                (digest, ranks) ->
                        heldView.put(digest, ranks.stream().boxed().collect(Collectors.toCollection(TreeSet::new))));
        return new ConnectorState(pendingState(), heldView, counters(), lastStep);
    }

    /**
     * The pending stores by id: what a summary states. Apart from {@link #state()}, whose view of the digests held
     * grows with every digest a log reports (a quarter of a million in a 1 GiB log) and is sorted for nothing there.
     */
    public SortedMap<String, PendingSnapshot> pendingState() {
        TreeMap<String, PendingSnapshot> pendingView = new TreeMap<>();
        pending.forEach((id, store) -> pendingView.put(id, store.snapshot(topology)));
        return pendingView;
    }

    static List<GroupBlock> latchList(long[] latch, Topology topology) {
        if (latch == null) {
            return List.of();
        }
        List<GroupBlock> blocks = new ArrayList<>();
        for (Group group : topology.groups()) {
            if (group.isRecurrent()) {
                blocks.add(new GroupBlock(group.index(), latch[group.index()]));
            }
        }
        return blocks;
    }
}
