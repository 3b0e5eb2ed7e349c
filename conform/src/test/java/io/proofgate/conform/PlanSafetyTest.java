package io.proofgate.conform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.words.CopyTiming;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * When an asynchronous copy is judged: after its plan's event and every later one up to and including the event whose
 * answer ends it, with its pinned blocks kept through a finish and let go when the copy is over. One request, handed
 * over block 42 at 2304 tokens in step 1; step 2 moves on to block 43; event 3 finishes it (vLLM lets its blocks go);
 * event 4 is a step of another request.
 */
class PlanSafetyTest {

    @TempDir static Path folder;
    private static Scenario scenario;

    @BeforeAll
    static void write() throws Exception {
        Files.writeString(
                folder.resolve("async.jsonl"),
                String.join(
                                "\n",
                                "{\"kind\":\"topology\",\"schema\":\"proofgate-events/v1\",\"tp_degree\":1,\"hash_block_size\":256,"
                                    + "\"min_span_tokens\":1024,\"groups\":[{\"policy\":\"full\",\"block_tokens\":2304},"
                                    + "{\"policy\":\"recurrent_align\",\"block_tokens\":2304}]}",
                                "{\"kind\":\"step\",\"step\":1,\"new\":[{\"id\":\"r1\",\"digest\":\"d1\",\"prompt_tokens\":6992,\"computed\":0,"
                                    + "\"scheduled\":2304,\"block_ids\":[[11],[41]]}],\"recurrent_boundary_blocks\":{\"r1\":[[1,42,2304]]}}",
                                "{\"kind\":\"step\",\"step\":2,\"cached\":[{\"id\":\"r1\",\"computed\":2304,\"scheduled\":2304,"
                                    + "\"new_block_ids\":[[12],[43]],\"resumed\":false}]}",
                                "{\"kind\":\"finished\",\"id\":\"r1\"}",
                                "{\"kind\":\"step\",\"step\":3,\"new\":[{\"id\":\"r2\",\"digest\":\"d2\",\"prompt_tokens\":6992,\"computed\":0,"
                                    + "\"scheduled\":2304,\"block_ids\":[[21],[51]]}]}")
                        + "\n");
        Files.writeString(
                folder.resolve("async.expected"),
                "{\"kind\":\"summary\",\"plans\":0,\"rejected\":0,"
                        + "\"store_skipped_quorum\":0,\"retired_finished\":0,\"pending\":[],\"latched\":{}}\n");
        for (String handOff : List.of("", ",\"recurrent_boundary_blocks\":{\"r1\":[[1,41,2304]]}")) {
            String name = handOff.isEmpty() ? "superseded" : "superseded-handed-over";
            Files.writeString(
                    folder.resolve(name + ".jsonl"),
                    String.join(
                                    "\n",
                                    "{\"kind\":\"topology\",\"schema\":\"proofgate-events/v1\",\"tp_degree\":1,\"hash_block_size\":256,"
                                        + "\"min_span_tokens\":1024,\"groups\":[{\"policy\":\"full\",\"block_tokens\":2304},"
                                        + "{\"policy\":\"recurrent_align\",\"block_tokens\":2304}]}",
                                    "{\"kind\":\"step\",\"step\":1,\"new\":[{\"id\":\"r1\",\"digest\":\"d1\",\"prompt_tokens\":9000,\"computed\":0,"
                                        + "\"scheduled\":2304,\"block_ids\":[[11],[41]]}]"
                                            + handOff
                                            + "}",
                                    "{\"kind\":\"step\",\"step\":2,\"cached\":[{\"id\":\"r1\",\"computed\":2304,\"scheduled\":2304,"
                                        + "\"new_block_ids\":[[12],[42]],\"resumed\":false}]}",
                                    "{\"kind\":\"step\",\"step\":3,\"cached\":[{\"id\":\"r1\",\"computed\":4608,\"scheduled\":2304,"
                                        + "\"new_block_ids\":[[13],[43]],\"resumed\":false}]}")
                            + "\n");
            Files.copy(folder.resolve("async.expected"), folder.resolve(name + ".expected"));
        }
        for (Scenario read : ScenarioReader.read(folder)) {
            switch (read.name()) {
                case "async" -> scenario = read;
                case "superseded" -> superseded = read;
                case "superseded-handed-over" -> handedOver = read;
                default -> throw new IllegalStateException(read.name());
            }
        }
    }

    private static Scenario superseded;
    private static Scenario handedOver;

    /**
     * A superseded state block is freed one step later: block 41 held the state at 2304 after step 1 and ran until step
     * 2 moved on to 42; step 3 moves on to 43 and lets 41 go, unless vLLM handed it over (the seed's fork keeps those
     * for the epoch).
     */
    @Test
    void aSupersededStateBlockIsLetGoOneStepLaterUnlessHandedOver() {
        Line.Plan at41 = new Line.Plan("r1", "2", "d1", "2304", "[[11],[41]]", "[[1,41]]");
        Transcript atStep2 = new Transcript(List.of(), List.of(List.of(), List.of(at41), List.of()), List.of());
        assertEquals(Optional.empty(), PlanSafety.firstUnsafe(superseded, atStep2));
        Transcript atStep3 = new Transcript(List.of(), List.of(List.of(), List.of(), List.of(at41)), List.of());
        assertEquals(
                List.of(
                        "step 3 request r1 group 1 block 41: published page is not the recurrent state at 2304 of d1;"
                                + " block 41 holds garbage (released by r1 in step 3) (since step 3)"),
                PlanSafety.firstUnsafe(superseded, atStep3).orElseThrow().findings());
        assertEquals(Optional.empty(), PlanSafety.firstUnsafe(handedOver, atStep3));
    }

    private static Line.Plan plan(String step, CopyTiming copy, boolean pinned) {
        return new Line.Plan("r1", step, "d1", "2304", "[[11],[42]]", "[[1,42]]", copy, pinned);
    }

    private static final Line.Saved SAVED = new Line.Saved("r1", "0", "d1", "2304");

    /** The answers to the four events: the plan at the first, and the given lines after. */
    @SafeVarargs
    private static Transcript said(Line.Plan first, List<Line>... later) {
        List<List<Line>> events = new ArrayList<>();
        events.add(List.of(first));
        events.addAll(List.of(later));
        while (events.size() < 4) {
            events.add(List.of());
        }
        return new Transcript(List.of(), events, List.of());
    }

    @Test
    void anUnpinnedCopyEndedBeforeTheFinishIsSafeAndOneEndedAtTheFinishIsNot() {
        assertEquals(
                Optional.empty(),
                PlanSafety.firstUnsafe(scenario, said(plan("1", CopyTiming.ASYNC, false), List.of(SAVED))));
        Optional<PlanSafety.Unsafe> atFinish =
                PlanSafety.firstUnsafe(scenario, said(plan("1", CopyTiming.ASYNC, false), List.of(), List.of(SAVED)));
        assertTrue(atFinish.isPresent());
        assertEquals(3, atFinish.get().event(), "judged up to and including the event whose answer ends it");
        // vLLM let every block of the request go: the attention block of its table and the handed-over one
        assertEquals(
                List.of(
                        "while its workers copy it: step 2 request r1 group 0 block 11: published page is not attention"
                                + " chunk 0 of d1; block 11 holds garbage (released by r1 in step 2) (since step 2)",
                        "while its workers copy it: step 2 request r1 group 1 block 42: published page is not the"
                            + " recurrent state at 2304 of d1; block 42 holds garbage (released by r1 in step 2) (since"
                            + " step 2)"),
                atFinish.get().findings());
        // never ended: judged to the scenario's end
        assertEquals(
                3, PlanSafety.firstUnsafe(scenario, said(plan("1", CopyTiming.ASYNC, false))).orElseThrow().event());
        // the same plan copied in its step is safe
        assertEquals(Optional.empty(), PlanSafety.firstUnsafe(scenario, said(plan("1", CopyTiming.IN_STEP, false))));
    }

    @Test
    void aPinKeepsTheBlockThroughTheFinishAndItsEndLetsItGo() {
        assertEquals(
                Optional.empty(),
                PlanSafety.firstUnsafe(
                        scenario, said(plan("1", CopyTiming.ASYNC, true), List.of(), List.of(), List.of(SAVED))));
        assertEquals(Optional.empty(), PlanSafety.firstUnsafe(scenario, said(plan("1", CopyTiming.ASYNC, true))));
        // the copy ends at the finish; a plan of the same prefix after it reads what vLLM let go
        Optional<PlanSafety.Unsafe> after =
                PlanSafety.firstUnsafe(
                        scenario,
                        said(
                                plan("1", CopyTiming.ASYNC, true),
                                List.of(),
                                List.of(SAVED),
                                List.of(plan("3", CopyTiming.IN_STEP, false))));
        assertEquals(4, after.orElseThrow().event());
        assertTrue(
                after.get().findings().stream()
                        .anyMatch(
                                f ->
                                        f.endsWith(
                                                "block 42 holds garbage (released by r1 in step 2)"
                                                        + " (since step 2)")),
                after.get().findings().toString());
    }

    @Test
    void aSavedLineEndsTheOldestCopyOfItsPlanEvenOneFoundUnsafe() {
        // two async copies of one prefix, the first naming a block never written: the saved line at
        // event 2 ends that first copy (as ScenarioRun matched it), so the second, unpinned, is
        // still copying at the finish
        Line.Plan wrong = new Line.Plan("r1", "1", "d1", "2304", "[[11],[99]]", "[[1,99]]", CopyTiming.ASYNC, false);
        Transcript twoCopies =
                new Transcript(
                        List.of(),
                        List.of(
                                List.of(wrong, plan("1", CopyTiming.ASYNC, false)),
                                List.of(SAVED),
                                List.of(),
                                List.of()),
                        List.of());
        assertEquals(1, PlanSafety.firstUnsafeFrom(scenario, twoCopies, 1).orElseThrow().event());
        assertEquals(3, PlanSafety.firstUnsafeFrom(scenario, twoCopies, 2).orElseThrow().event());
    }
}
