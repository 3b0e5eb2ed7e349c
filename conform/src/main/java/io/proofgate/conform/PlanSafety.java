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
import java.util.Optional;
import java.util.Set;

/**
 * The safety of every plan an adapter printed, whatever its connector's policy: each plan is
 * judged on vLLM's block contents as the scenario's events imply them ({@link PlanContents}, the
 * simulation the byte check writes into page stores). A plan whose workers copy in its step is
 * judged after the event it answers; an asynchronous one ({@code "copy":"async"}) after that event
 * and after every later one up to the adapter's {@code saved} line for it, since its workers may
 * read the blocks at any of those points, and its {@code pinned} blocks are kept from vLLM's
 * freeing until then. A plan is unsafe when a block it names does not hold what its prefix
 * demands at one of those points, or when it names other blocks than the prefix needs. What this
 * cannot see: whether a pin the adapter declares is one vLLM honours, and blocks vLLM reuses for
 * other requests (the simulation never reuses a block id; a block vLLM let go holds garbage).
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
     * The first plan found unsafe after event {@code event} (1-based) or a later one, if any: one
     * answered there, or an asynchronous one still being copied then. What the connector audit
     * asks where two revisions' answers first differ: before that event both said the same, so
     * their plans before it are equally safe, while a copy may turn unsafe later.
     */
    public static Optional<Unsafe> firstUnsafeFrom(Scenario scenario, Transcript said, int event) {
        int from = Math.max(0, Math.min(event - 1, said.events().size()));
        if (said.events().subList(from, said.events().size()).stream().flatMap(List::stream).noneMatch(Line.Plan.class::isInstance)
                && said.events().subList(0, from).stream().flatMap(List::stream).noneMatch(PlanSafety::isAsync)) {
            return Optional.empty(); // no plan judged there: the events are not simulated
        }
        return unsafe(scenario, said, false, said.events().size()).stream().filter(u -> u.event() >= event).findFirst();
    }

    private static boolean isAsync(Line line) {
        return line instanceof Line.Plan plan && plan.copy() == CopyTiming.ASYNC;
    }

    /**
     * The unsafe plans judged after the first {@code upTo} events, the first found after each
     * event, in event order: only the first with {@code first}. The events are followed only as
     * far as a plan is judged: to the last answer with a plan or, once an asynchronous plan was
     * printed, to {@code upTo}. A plan found unsafe is not judged again.
     */
    private static List<Unsafe> unsafe(Scenario scenario, Transcript said, boolean first, int upTo) {
        List<Unsafe> found = new ArrayList<>();
        int answered = 0;
        for (int k = 0; k < upTo; k++) {
            if (said.events().get(k).stream().anyMatch(PlanSafety::isAsync)) {
                answered = upTo;
                break;
            }
            if (said.events().get(k).stream().anyMatch(Line.Plan.class::isInstance)) {
                answered = k + 1;
            }
        }
        if (answered == 0) {
            return found;
        }
        StringBuilder log = new StringBuilder(scenario.topology()).append('\n');
        for (Scenario.Event event : scenario.events().subList(0, answered)) {
            log.append(event.line()).append('\n');
        }
        try (EventReader reader = new EventReader(new ByteArrayInputStream(log.toString().getBytes(StandardCharsets.UTF_8)),
                scenario.file().toString())) {
            PlanContents contents = new PlanContents(reader.readTopology());
            List<Copying> copying = new ArrayList<>();
            // copies found unsafe: reported once, but kept in copying, so that a saved line ends the
            // copy ScenarioRun.receive matched it to (the oldest of its request, digest and span)
            java.util.Set<Copying> reported = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            java.util.Set<Copying> pinning = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            for (int k = 0; k < answered; k++) {
                contents.event(reader.next().event());
                Unsafe unsafe = null;
                // the copies still running read the blocks as this event left them
                for (Copying copy : copying) {
                    List<String> findings = reported.contains(copy) ? List.of() : findings(contents, copy.plan(), copy.blocks());
                    if (!findings.isEmpty()) {
                        reported.add(copy);
                        unsafe = unsafe != null ? unsafe : new Unsafe(k + 1, copy.plan().json(),
                                findings.stream().map(f -> "while its workers copy it: " + f).toList());
                    }
                }
                for (Line line : said.events().get(k)) {
                    switch (line) {
                        case Line.Plan plan -> {
                            long[][] blocks = blocks(plan);
                            List<String> findings = blocks == null ? unreadable(plan) : findings(contents, plan, blocks);
                            if (!findings.isEmpty()) {
                                unsafe = unsafe != null ? unsafe : new Unsafe(k + 1, plan.json(), findings);
                            }
                            if (plan.copy() == CopyTiming.ASYNC) {
                                Copying copy = new Copying(plan, blocks);
                                copying.add(copy);
                                if (!findings.isEmpty()) {
                                    reported.add(copy);
                                } else if (plan.pinned()) {
                                    contents.pin(blocks);
                                    pinning.add(copy);
                                }
                            }
                        }
                        case Line.Saved saved -> copying.stream().filter(c -> c.plan().endsWith(saved)).findFirst()
                                .ifPresent(c -> {
                                    copying.remove(c);
                                    if (pinning.remove(c)) {
                                        contents.unpin(c.blocks()); // the copy is over, and with it its pin
                                    }
                                });
                        default -> { }
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
            throw new IllegalStateException("its events are not all a replay log's (" + e.getMessage()
                    + "), so the adapter's plans cannot be judged for safety");
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in-memory streams only
        }
        return found;
    }

    /** The plan's blocks by group, or null where they are not block ids. */
    private static long[][] blocks(Line.Plan plan) {
        try {
            JsonNode groups = JSON.readTree(plan.blocksByGroup());
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

    private static List<String> unreadable(Line.Plan plan) {
        return List.of("its blocks_by_group names a block that is not a block id: " + Json.excerpt(plan.blocksByGroup()));
    }

    private static List<String> findings(PlanContents contents, Line.Plan plan, long[][] blocks) {
        long span;
        try {
            span = Long.parseLong(plan.span());
        } catch (NumberFormatException e) {
            return List.of("its span or blocks_by_group is not one vLLM's blocks can hold: " + Json.excerpt(plan.json()));
        }
        return contents.check(contents.step(), plan.id(), plan.digest(), span, blocks).stream().map(ByteFinding::message).toList();
    }

    /**
     * The requests the scenario expects a plan for (under latch-at-target, from proofs vLLM
     * offered) and for which the adapter printed none: missed publications, the silent 0%-hit
     * class, reported apart and not failed.
     */
    static List<String> missed(Scenario scenario, Transcript said) {
        Set<String> expected = new LinkedHashSet<>();
        List<Line.VerdictLine> verdicts = switch (scenario.expected()) {
            case Scenario.PerEvent perEvent -> perEvent.after().stream().flatMap(a -> a.verdicts().stream()).toList();
            case Scenario.WholeLog whole -> whole.verdicts();
        };
        verdicts.stream().filter(Line.Plan.class::isInstance).map(v -> ((Line.Plan) v).id()).forEach(expected::add);
        said.events().stream().flatMap(List::stream).filter(Line.Plan.class::isInstance)
                .map(v -> ((Line.Plan) v).id()).forEach(expected::remove);
        return new ArrayList<>(expected);
    }
}
