package io.proofgate.conform;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.proofgate.bytecheck.ByteFinding;
import io.proofgate.bytecheck.PlanContents;
import io.proofgate.replay.EventReader;
import io.proofgate.replay.ReplayException;
import io.proofgate.words.CopyTiming;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The safety of every plan an adapter printed, whatever its connector's policy: each plan is judged on vLLM's block
 * contents as the scenario's events imply them ({@link PlanContents}, the simulation the byte check writes into page
 * stores). A plan whose workers copy in its step is judged after the event it answers; an asynchronous one ({@code
 * "copy":"async"}) after that event and after every later one up to the adapter's {@code saved} line for it, since its
 * workers may read the blocks at any of those points, and its {@code pinned} blocks are kept from vLLM's freeing until
 * then. A plan is unsafe when a block it names does not hold what its prefix demands at one of those points, or when it
 * names other blocks than the prefix needs. What this cannot see: whether a pin the adapter declares is one vLLM
 * honours, and blocks vLLM reuses for other requests (the simulation never reuses a block id; a block vLLM let go holds
 * garbage).
 */
public final class PlanSafety {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The first unsafe plan of a run, placed after the event at which it was judged unsafe (1-based). */
    public record Unsafe(int event, String plan, List<String> findings) {}

    /** An asynchronous plan whose workers are still copying, with its blocks. */
    private record Copying(Line.Plan plan, long[][] blocks) {}

    private PlanSafety() {}

    /** The first unsafe plan among the answers to the scenario's first events, if any. */
    public static Optional<Unsafe> firstUnsafe(Scenario scenario, Transcript said) {
        return unsafe(scenario, said, true, said.events().size()).stream().findFirst();
    }

    /**
     * The first plan found unsafe after event {@code event} (1-based) or a later one, if any: one answered there, or an
     * asynchronous one still being copied then. What the connector audit asks where two revisions' answers first
     * differ: before that event both said the same, so their plans before it are equally safe, while a copy may turn
     * unsafe later.
     */
    public static Optional<Unsafe> firstUnsafeFrom(Scenario scenario, Transcript said, int event) {
        int from = Math.max(0, Math.min(event - 1, said.events().size()));
        if (!scenario.needs().contains(io.proofgate.words.Capability.RESTORE)
                && said.events().subList(from, said.events().size()).stream()
                        .flatMap(List::stream)
                        .noneMatch(PlanSafety::isJudged)
                && said.events().subList(0, from).stream().flatMap(List::stream).noneMatch(PlanSafety::isAsync)) {
            return Optional.empty(); // no plan or load judged there: the events are not simulated
        }
        return unsafe(scenario, said, false, said.events().size()).stream().filter(u -> u.event() >= event).findFirst();
    }

    /**
     * Loads in answer to an event that is no step: vLLM loads a restored prefix into the blocks of the step that
     * schedules the request, and into nothing at a lookup, a finish or a held report; such a load writes blocks vLLM
     * computes into, or has let go.
     */
    private static List<String> strayLoads(List<Line> answer) {
        return answer.stream()
                .filter(Line.Load.class::isInstance)
                .map(
                        load ->
                                "a load in answer to an event that is no step ("
                                        + Json.excerpt(((Line.Load) load).json())
                                        + "): vLLM loads a restored prefix only into the blocks of the step that"
                                        + " schedules its request")
                .toList();
    }

    /** A line whose safety is judged on the blocks' contents: a plan (what it copies) or a load (what it writes). */
    private static boolean isJudged(Line line) {
        return line instanceof Line.Plan || line instanceof Line.Load;
    }

    private static boolean isAsync(Line line) {
        return line instanceof Line.Plan plan && plan.copy() == CopyTiming.ASYNC;
    }

    /**
     * The unsafe plans judged after the first {@code upTo} events, the first found after each event, in event order:
     * only the first with {@code first}. The events are followed only as far as a plan is judged: to the last answer
     * with a plan or, once an asynchronous plan was printed, to {@code upTo}. A plan found unsafe is not judged again.
     */
    private static List<Unsafe> unsafe(Scenario scenario, Transcript said, boolean first, int upTo) {
        List<Unsafe> found = new ArrayList<>();
        int answered = 0;
        boolean restores = scenario.needs().contains(io.proofgate.words.Capability.RESTORE);
        for (int k = 0; k < upTo; k++) {
            if (restores || said.events().get(k).stream().anyMatch(PlanSafety::isAsync)) {
                // a restored request's step is judged whatever the adapter answers: a load left out is unsafe
                answered = upTo;
                break;
            }
            if (said.events().get(k).stream().anyMatch(PlanSafety::isJudged)) {
                answered = k + 1; // a load too: in a scenario without lookups, one is never safe
            }
        }
        if (answered == 0) {
            return found;
        }
        StringBuilder log = new StringBuilder(scenario.topology()).append('\n');
        for (String event : Lookups.sent(scenario, answered, said)) {
            log.append(event).append('\n'); // as the adapter was sent them: a looked-up request with its hit
        }
        try (EventReader reader =
                new EventReader(
                        new ByteArrayInputStream(log.toString().getBytes(StandardCharsets.UTF_8)),
                        scenario.file().toString())) {
            io.proofgate.protocol.Topology topology = reader.readTopology();
            List<io.proofgate.format.StateLine.Contents> stated =
                    scenario.expected() instanceof Scenario.BlockContents b ? b.after() : null;
            PlanContents contents = stated != null ? PlanContents.stated(topology) : new PlanContents(topology);
            RestoreSafety restore = new RestoreSafety(topology);
            List<Copying> copying = new ArrayList<>();
            // copies found unsafe: reported once, but kept in copying, so that a saved line ends the
            // copy ScenarioRun.receive matched it to (the oldest of its request, digest and span)
            java.util.Set<Copying> reported = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            // the pinned copies, each with its pin (which, on stated contents, keeps what its blocks held when let go)
            Map<Copying, PlanContents.Pinned> pinning = new java.util.IdentityHashMap<>();
            for (int k = 0; k < answered; k++) {
                io.proofgate.protocol.Event event = reader.next().event();
                contents.event(event);
                if (stated != null) {
                    contents.stated(blockContents(stated.get(k)), stated.get(k).released());
                }
                Unsafe unsafe = null;
                List<String> restoreFindings =
                        switch (event) {
                            case io.proofgate.protocol.Event.Lookup lookup ->
                                    java.util.stream.Stream.concat(
                                                    restore.hit(lookup, said.events().get(k)).stream(),
                                                    strayLoads(said.events().get(k)).stream())
                                            .toList();
                            case io.proofgate.protocol.Event.Step step -> restore.loads(step, said.events().get(k));
                            default -> strayLoads(said.events().get(k));
                        };
                if (!restoreFindings.isEmpty()) {
                    unsafe = new Unsafe(k + 1, restoreAnswer(said.events().get(k)), restoreFindings);
                }
                // the copies still running read the blocks as this event left them
                for (Copying copy : copying) {
                    List<String> findings =
                            reported.contains(copy)
                                    ? List.of()
                                    : findings(contents, copy.plan(), copy.blocks(), pinning.get(copy));
                    if (!findings.isEmpty()) {
                        reported.add(copy);
                        unsafe =
                                unsafe != null
                                        ? unsafe
                                        : new Unsafe(
                                                k + 1,
                                                copy.plan().json(),
                                                findings.stream().map(f -> "while its workers copy it: " + f).toList());
                    }
                }
                for (Line line : said.events().get(k)) {
                    switch (line) {
                        case Line.Plan plan -> {
                            long[][] blocks = blockIds(plan.blocksByGroup());
                            List<String> findings =
                                    blocks == null ? unreadable(plan) : findings(contents, plan, blocks, null);
                            if (findings.isEmpty()) {
                                findings = recurrentDisagrees(topology, plan, blocks);
                            }
                            if (!findings.isEmpty()) {
                                unsafe = unsafe != null ? unsafe : new Unsafe(k + 1, plan.json(), findings);
                            } else if (plan.copy() == CopyTiming.IN_STEP) {
                                restore.saved(plan.digest(), plan.span());
                            }
                            if (plan.copy() == CopyTiming.ASYNC) {
                                Copying copy = new Copying(plan, blocks);
                                copying.add(copy);
                                if (!findings.isEmpty()) {
                                    reported.add(copy);
                                } else if (plan.pinned()) {
                                    pinning.put(copy, contents.pin(blocks));
                                }
                            }
                        }
                        case Line.Saved saved ->
                                copying.stream()
                                        .filter(c -> c.plan().endsWith(saved))
                                        .findFirst()
                                        .ifPresent(
                                                c -> {
                                                    copying.remove(c);
                                                    if (!reported.contains(c)) {
                                                        restore.saved(
                                                                c.plan().digest(),
                                                                c.plan().span()); // its copy is over, and was safe
                                                    }
                                                    PlanContents.Pinned pin = pinning.remove(c);
                                                    if (pin != null) {
                                                        contents.unpin(pin); // the copy is over, and with it its pin
                                                    }
                                                });
                        default -> {}
                    }
                }
                if (unsafe != null) {
                    found.add(unsafe);
                    if (first) {
                        return found;
                    }
                }
            }
        } catch (ReplayException e) {
            // a plan after an event vLLM could not have sent cannot be judged: never passed unseen
            throw new IllegalStateException(
                    "its events are not all a replay log's ("
                            + e.getMessage()
                            + "), so the adapter's plans cannot be judged for safety");
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in-memory streams only
        }
        return found;
    }

    /**
     * A contents line's blocks as what the page checks compare: the recurrent state of a prefix, or nothing computed.
     */
    private static Map<Long, io.proofgate.bytecheck.BlockContent> blockContents(
            io.proofgate.format.StateLine.Contents line) {
        Map<Long, io.proofgate.bytecheck.BlockContent> blocks = new java.util.HashMap<>();
        line.blocks()
                .keySet()
                .forEach(block -> blocks.put(block, new io.proofgate.bytecheck.BlockContent.Uncomputed()));
        line.states()
                .forEach(
                        (block, state) ->
                                blocks.put(
                                        block,
                                        new io.proofgate.bytecheck.BlockContent.Recurrent(
                                                state.digest(), state.tokens())));
        return blocks;
    }

    /** A restore's answer as printed: its hit and load lines, for the report. */
    private static String restoreAnswer(List<Line> answer) {
        List<String> lines =
                answer.stream()
                        .filter(l -> l instanceof Line.Hit || l instanceof Line.Load)
                        .map(l -> ((Line.VerdictLine) l).json())
                        .toList();
        return lines.isEmpty() ? "(no load)" : String.join("\n", lines);
    }

    /** A line's {@code blocks_by_group} as block ids by group, or null where they are not block ids. */
    static long[][] blockIds(String blocksByGroup) {
        try {
            JsonNode groups = JSON.readTree(blocksByGroup);
            long[][] blocks = new long[groups.size()][];
            for (int g = 0; g < groups.size(); g++) {
                JsonNode group = groups.get(g);
                blocks[g] = new long[group.size()];
                for (int i = 0; i < group.size(); i++) {
                    if (!group.get(i).canConvertToLong()) {
                        return null;
                    }
                    blocks[g][i] = group.get(i).asLong();
                }
            }
            return blocks;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * A plan states its recurrent blocks twice: in {@code blocks_by_group} (a recurrent group's list is its one latched
     * block), which the contents are judged on, and as the {@code recurrent} pairs of the recurrent groups in index
     * order (protocol, "Publication"). A connector may publish from either, so where they disagree the plan is unsafe
     * whichever it reads; the kit's comparison would see it only under latch-at-target.
     */
    private static List<String> recurrentDisagrees(
            io.proofgate.protocol.Topology topology, Line.Plan plan, long[][] blocks) {
        StringBuilder pairs = new StringBuilder("[");
        for (io.proofgate.protocol.Group group : topology.groups()) {
            if (group.isRecurrent() && group.index() < blocks.length && blocks[group.index()].length == 1) {
                pairs.append(pairs.length() == 1 ? "" : ",")
                        .append('[')
                        .append(group.index())
                        .append(',')
                        .append(blocks[group.index()][0])
                        .append(']');
            }
        }
        String stated = pairs.append(']').toString();
        if (stated.equals(plan.said().recurrent())) {
            return List.of();
        }
        return List.of(
                "its recurrent "
                        + Json.excerpt(plan.said().recurrent())
                        + " is not the recurrent groups' blocks of its blocks_by_group, "
                        + stated
                        + ": a connector that publishes from it publishes pages that were not judged");
    }

    private static List<String> unreadable(Line.Plan plan) {
        return List.of(
                "its blocks_by_group names a block that is not a block id: " + Json.excerpt(plan.blocksByGroup()));
    }

    private static List<String> findings(
            PlanContents contents, Line.Plan plan, long[][] blocks, PlanContents.Pinned pin) {
        long span;
        try {
            span = Long.parseLong(plan.span());
        } catch (NumberFormatException e) {
            return List.of(
                    "its span or blocks_by_group is not one vLLM's blocks can hold: " + Json.excerpt(plan.json()));
        }
        return contents.check(contents.step(), plan.id(), plan.digest(), span, blocks, pin).stream()
                .map(ByteFinding::message)
                .toList();
    }

    /**
     * The requests whose lookup the scenario answers (under latch-at-target) with a hit longer than the adapter's:
     * missed hits, a prefix recomputed that the store held; reported apart, not failed.
     */
    static List<String> missedHits(Scenario scenario, Transcript said) {
        Map<String, Long> expected = new java.util.LinkedHashMap<>();
        List<Line.VerdictLine> verdicts =
                switch (scenario.expected()) {
                    case Scenario.PerEvent perEvent ->
                            perEvent.after().stream().flatMap(a -> a.verdicts().stream()).toList();
                    case Scenario.WholeLog whole -> whole.verdicts();
                    case Scenario.BlockContents stated -> List.of(); // states no verdicts
                };
        for (Line.VerdictLine verdict : verdicts) {
            if (verdict instanceof Line.Hit hit) {
                expected.put(hit.id(), hit.count());
            }
        }
        Map<String, Long> got = Lookups.hits(scenario, said);
        return expected.entrySet().stream()
                .filter(e -> e.getValue() > got.getOrDefault(e.getKey(), 0L))
                .map(Map.Entry::getKey)
                .toList();
    }

    /**
     * The requests the scenario expects a plan for (under latch-at-target, from proofs vLLM offered) and for which the
     * adapter printed none: missed publications, the silent 0%-hit class, reported apart and not failed.
     */
    static List<String> missed(Scenario scenario, Transcript said) {
        Set<String> expected = new LinkedHashSet<>();
        List<Line.VerdictLine> verdicts =
                switch (scenario.expected()) {
                    case Scenario.PerEvent perEvent ->
                            perEvent.after().stream().flatMap(a -> a.verdicts().stream()).toList();
                    case Scenario.WholeLog whole -> whole.verdicts();
                    case Scenario.BlockContents stated -> List.of(); // states no verdicts
                };
        verdicts.stream().filter(Line.Plan.class::isInstance).map(v -> ((Line.Plan) v).id()).forEach(expected::add);
        said.events().stream()
                .flatMap(List::stream)
                .filter(Line.Plan.class::isInstance)
                .map(v -> ((Line.Plan) v).id())
                .forEach(expected::remove);
        return new ArrayList<>(expected);
    }
}
