package io.proofgate.conform;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.proofgate.bytecheck.ByteFinding;
import io.proofgate.bytecheck.PlanContents;
import io.proofgate.replay.EventReader;
import io.proofgate.replay.ReplayException;
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
 * simulation the byte check writes into page stores), in the step of the event it answers. A plan
 * is unsafe when a block it names does not hold what its prefix demands, or when it names other
 * blocks than the prefix needs. What this cannot see: when a worker copies the blocks (the kit
 * judges them in the step of the plan, so a connector that saves later without a pin is judged as
 * if it saved at once), and blocks vLLM reuses for other requests (the simulation never reuses a
 * block id, beyond the garbage a preemption or finish leaves in a handed-over block).
 */
public final class PlanSafety {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The first unsafe plan of a run, placed after the event it answers (1-based). */
    public record Unsafe(int event, String plan, List<String> findings) {}

    private PlanSafety() {}

    /** The first unsafe plan among the answers to the scenario's first events, if any. */
    public static Optional<Unsafe> firstUnsafe(Scenario scenario, Transcript said) {
        return unsafe(scenario, said, true, said.events().size()).stream().findFirst();
    }

    /**
     * The first unsafe plan of the answer to event {@code event} (1-based), if any. Only a plan
     * publishes, so an answer without one is safe and the events are not simulated for it.
     */
    public static Optional<Unsafe> unsafeAt(Scenario scenario, Transcript said, int event) {
        if (event < 1 || event > said.events().size()
                || said.events().get(event - 1).stream().noneMatch(Line.Plan.class::isInstance)) {
            return Optional.empty();
        }
        return unsafe(scenario, said, false, event).stream().filter(u -> u.event() == event).findFirst();
    }

    /**
     * The unsafe plans among the answers to the first {@code upTo} events, the first of each answer,
     * in event order: only the first with {@code first}. The events are followed only as far as the
     * last of those answers with a plan: what comes after cannot make a plan before it unsafe.
     */
    private static List<Unsafe> unsafe(Scenario scenario, Transcript said, boolean first, int upTo) {
        List<Unsafe> found = new ArrayList<>();
        int answered = 0;
        for (int k = 0; k < upTo; k++) {
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
            for (int k = 0; k < answered; k++) {
                contents.event(reader.next().event());
                for (Line line : said.events().get(k)) {
                    if (line instanceof Line.Plan plan) {
                        List<String> findings = findings(contents, plan);
                        if (!findings.isEmpty()) {
                            found.add(new Unsafe(k + 1, plan.json(), findings));
                            if (first) {
                                return found;
                            }
                            break;
                        }
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

    private static List<String> findings(PlanContents contents, Line.Plan plan) {
        long span;
        long[][] blocks;
        try {
            span = Long.parseLong(plan.span());
            JsonNode groups = JSON.readTree(plan.blocksByGroup());
            blocks = new long[groups.size()][];
            for (int g = 0; g < groups.size(); g++) {
                JsonNode group = groups.get(g);
                blocks[g] = new long[group.size()];
                for (int i = 0; i < group.size(); i++) {
                    if (!group.get(i).canConvertToLong()) {
                        return List.of("its blocks_by_group names a block that is not a block id: " + Json.excerpt(plan.blocksByGroup()));
                    }
                    blocks[g][i] = group.get(i).asLong();
                }
            }
        } catch (NumberFormatException | IOException e) {
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
