package io.proofgate.conform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Scenarios that state vLLM's block contents after each event (the align-mode models: speculative decoding, preemption,
 * a pool whose freed blocks are given out again) in the kit: every plan is judged on those contents, pins honoured,
 * whatever the policy, and nothing else is compared.
 */
class BlockContentsConformTest {

    static final Path ALIGN = ConformTest.GENERATED.resolve("gen-align");
    static final Path INTERLEAVED = ConformTest.GENERATED.resolve("gen-align-interleaved");
    static final String EVERY_HANDOFF = ConformTest.EVERY_HANDOFF;
    static List<Scenario> align;
    static List<Scenario> interleaved;

    @TempDir Path dir;

    @BeforeAll
    static void read() throws ConformException {
        align = ScenarioReader.read(ALIGN);
        interleaved = ScenarioReader.read(INTERLEAVED);
    }

    private static Conform.Report run(List<Scenario> scenarios, String command) throws ConformException {
        return Conform.run(
                scenarios,
                () -> new ProcessAdapter(command, Path.of("").toAbsolutePath()),
                ConformTest.SETTINGS,
                line -> {});
    }

    private static List<Result.Unsafe> unsafe(Conform.Report report) {
        return report.results().stream()
                .filter(Result.Unsafe.class::isInstance)
                .map(Result.Unsafe.class::cast)
                .toList();
    }

    private static List<Scenario> both() {
        List<Scenario> all = new ArrayList<>(align);
        all.addAll(interleaved);
        return all;
    }

    @Test
    void theAlignModeScenariosStateTheBlocksContentsAfterEveryEvent() {
        assertFalse(align.isEmpty());
        assertFalse(interleaved.isEmpty());
        for (Scenario scenario : both()) {
            Scenario.BlockContents stated = assertInstanceOf(scenario);
            assertEquals(scenario.events().size(), stated.after().size(), scenario.id());
        }
    }

    private static Scenario.BlockContents assertInstanceOf(Scenario scenario) {
        assertTrue(scenario.expected() instanceof Scenario.BlockContents, scenario.id() + " states verdicts");
        return (Scenario.BlockContents) scenario.expected();
    }

    @Test
    void theReferenceAndEveryHandoffAreSafeAndNothingElseIsCompared() throws ConformException {
        List<Scenario> all = both();
        Conform.Report everyHandoff = run(all, EVERY_HANDOFF);
        assertEquals(all.size(), everyHandoff.count(Result.Passed.class));
        assertTrue(
                ConformText.of(everyHandoff, "every-handoff")
                        .contains(
                                "judged on stated contents: "
                                        + all.size()
                                        + " scenarios that state vLLM's block contents after each event"),
                ConformText.of(everyHandoff, "every-handoff"));
        assertEquals(
                all.size(),
                Conform.run(all, InProcessAdapter::new, ConformTest.SETTINGS, line -> {}).count(Result.Passed.class));
        // the reference's plans made rejections, or none at all: no verdict is compared here (but its step)
        Conform.Adapters rejecting =
                () ->
                        new ConformTest.Altered(
                                new InProcessAdapter(),
                                "plan",
                                line ->
                                        line.replaceFirst(
                                                "^\\{\"kind\":\"plan\",(\"step\":\\d+,\"id\":\"[^\"]*\").*",
                                                "{\"kind\":\"rejected\",$1,\"code\":\"empty\",\"reason\":\"no\"}"));
        Conform.Report noPlans =
                Conform.run(
                        all,
                        () ->
                                new ConformTest.Altered(
                                        rejecting.start(),
                                        "summary",
                                        line -> line.replaceFirst("\"plans\":\\d+", "\"plans\":0")),
                        ConformTest.SETTINGS,
                        line -> {});
        assertEquals(all.size(), noPlans.count(Result.Passed.class), ConformText.of(noPlans, "altered"));
        // but a summary that counts the plans it hid: they were never judged
        Conform.Report hidden = Conform.run(all, rejecting, ConformTest.SETTINGS, line -> {});
        List<Result.Failed> failed =
                hidden.results().stream()
                        .filter(Result.Failed.class::isInstance)
                        .map(Result.Failed.class::cast)
                        .toList();
        assertEquals(all.size(), hidden.count(Result.Passed.class) + failed.size());
        assertFalse(failed.isEmpty());
        assertTrue(
                failed.stream()
                        .allMatch(
                                f ->
                                        f.mismatch()
                                                .rule()
                                                .equals("summary: plans counts other plans than the adapter printed")),
                ConformText.of(hidden, "altered"));
    }

    /**
     * A positional tracker (LMCache's before its fix) saves the block at a boundary's column of the workers' table:
     * where a prefill chunk ran past a boundary with a draft slot, that column holds the moved scratch block, with the
     * state at the chunk's end. Without drafts it is safe.
     */
    @Test
    void aPositionalTrackerSavesTheScratchBlockWhereDraftsMovedIt() throws ConformException {
        Conform.Report report = run(align, EVERY_HANDOFF + " --tracker");
        List<Result.Unsafe> unsafe = unsafe(report);
        assertFalse(unsafe.isEmpty(), ConformText.of(report, "tracker"));
        Result.Unsafe shortest =
                unsafe.stream().min(java.util.Comparator.comparingInt(Result.Unsafe::event)).orElseThrow();
        assertEquals(2, shortest.event(), ConformText.of(report, "tracker"));
        assertEquals(
                List.of(
                        "step 2 request r1 group 0 block 2: published page is not the recurrent state at 4 of d1; "
                                + "block 2 holds the recurrent state at 5 of d1 (since step 2)"),
                shortest.findings());
        assertEquals(interleaved.size(), run(interleaved, EVERY_HANDOFF + " --tracker").count(Result.Passed.class));
    }

    private static final String TOPOLOGY =
            "topology"
                + " {\"kind\":\"topology\",\"schema\":\"proofgate-events/v1\",\"tp_degree\":1,\"hash_block_size\":2,\"min_span_tokens\":1,\"groups\":[{\"policy\":\"recurrent_align\",\"block_tokens\":2}]}\n";
    private static final String STEP1 =
            "event"
                + " {\"kind\":\"step\",\"step\":1,\"new\":[{\"id\":\"r1\",\"digest\":\"d1\",\"prompt_tokens\":5,\"computed\":0,\"scheduled\":2,\"block_ids\":[[1,2]]}],\"recurrent_boundary_blocks\":{\"r1\":[[0,1,2]]}}\n";
    private static final String STEP2 =
            "event {\"kind\":\"step\",\"step\":2,\"cached\":[{\"id\":\"r1\",\"computed\":2,"
                    + "\"scheduled\":2,\"new_block_ids\":[[3]],\"resumed\":false}]}\n";
    private static final String STEP3 =
            "event {\"kind\":\"step\",\"step\":3,\"cached\":[{\"id\":\"r1\",\"computed\":4,"
                    + "\"scheduled\":1,\"new_block_ids\":[[]],\"resumed\":false}]}\n";

    private List<Scenario> file(String text) throws IOException, ConformException {
        Path file = dir.resolve("stated.scenarios");
        Files.writeString(file, text);
        return ScenarioReader.read(dir);
    }

    /** The kit reads the contents: the same plan is safe or not as the line after its event says. */
    @Test
    void aPlanIsJudgedOnTheContentsTheScenarioStates() throws Exception {
        String holds = TOPOLOGY + "\nscenario stated\n" + STEP1 + "----\ncontents 1=d1@2 2=none 3=none released=[]\n";
        assertEquals(1, run(file(holds), EVERY_HANDOFF).count(Result.Passed.class));
        String other = holds.replace("contents 1=d1@2 2=none", "contents 1=none 2=d1@2");
        Conform.Report report = run(file(other), EVERY_HANDOFF);
        assertEquals(
                List.of(
                        "step 1 request r1 group 0 block 1: published page is not the recurrent state at 2 of d1; "
                                + "block 1 holds bytes that no request's tokens computed (since step 1)"),
                unsafe(report).getFirst().findings());
    }

    /**
     * A block vLLM lets go in the second step and gives out again at once: an asynchronous copy that pins it still
     * reads what it held (vLLM would not have given it out), one without a pin does not.
     */
    @Test
    void aPinnedBlockKeepsWhatItHeldWhenVllmLetsItGo() throws Exception {
        String text =
                TOPOLOGY
                        + "\nscenario released\n"
                        + STEP1
                        + "----\ncontents 1=d1@2 2=none 3=none released=[]\n\n"
                        + STEP2
                        + "----\ncontents 1=d2@2 2=none 3=d1@4 released=[1]\n\n"
                        + STEP3
                        + "----\ncontents 1=d2@2 2=none 3=d1@5 released=[]\n";
        List<Scenario> scenarios = file(text);
        assertEquals(1, run(scenarios, EVERY_HANDOFF + " --async").count(Result.Passed.class));
        Conform.Report unpinned = run(scenarios, EVERY_HANDOFF + " --no-pin");
        assertEquals(
                List.of(
                        "while its workers copy it: step 2 request r1 group 0 block 1: published page is not the"
                            + " recurrent state at 2 of d1; block 1 holds the recurrent state at 2 of d2 (since step"
                            + " 2)"),
                unsafe(unpinned).getFirst().findings());
    }

    /**
     * A pin is the copy's own: r1's pinned block 1 is let go at r1's preemption and the scenario's vLLM gives it to r2
     * at once, whose own (correct) plan names it; r1's copy still reads what block 1 held, and r2's plan is judged on
     * what it holds now.
     */
    @Test
    void aPinKeepsTheBlockForItsOwnCopyOnly() throws Exception {
        String text =
                TOPOLOGY
                        + "\nscenario reused\n"
                        + STEP1
                        + "----\n"
                        + "contents 1=d1@2 2=none 3=none released=[]\n\n"
                        + "event"
                        + " {\"kind\":\"step\",\"step\":2,\"new\":[{\"id\":\"r2\",\"digest\":\"d2\",\"prompt_tokens\":3,\"computed\":0,\"scheduled\":2,\"block_ids\":[[1]]}],\"preempted\":[\"r1\"],\"recurrent_boundary_blocks\":{\"r2\":[[0,1,2]]}}\n"
                        + "----\n"
                        + "contents 1=d2@2 2=none 3=none released=[1,2]\n\n"
                        + "event"
                        + " {\"kind\":\"step\",\"step\":3,\"cached\":[{\"id\":\"r2\",\"computed\":2,\"scheduled\":1,\"new_block_ids\":[[2]],\"resumed\":false}]}\n"
                        + "----\n"
                        + "contents 1=d2@2 2=d2@3 3=none released=[]\n\n"
                        + "event"
                        + " {\"kind\":\"step\",\"step\":4,\"cached\":[{\"id\":\"r2\",\"computed\":3,\"scheduled\":1,\"new_block_ids\":[[]],\"resumed\":false}]}\n"
                        + "----\n"
                        + "contents 1=d2@2 2=d2@4 3=none released=[]\n";
        Conform.Report report = run(file(text), EVERY_HANDOFF + " --async");
        assertEquals(1, report.count(Result.Passed.class), ConformText.of(report, "async"));
        Conform.Report unpinned = run(file(text), EVERY_HANDOFF + " --no-pin");
        assertEquals(
                List.of(
                        "while its workers copy it: step 2 request r1 group 0 block 1: published page is not the"
                            + " recurrent state at 2 of d1; block 1 holds the recurrent state at 2 of d2 (since step"
                            + " 2)"),
                unsafe(unpinned).getFirst().findings());
    }

    /**
     * Copies that take four steps: vLLM gives a block it let go to the other request meanwhile, so the unpinned copy
     * reads the other request's state, and the pinned one what the block held.
     */
    @Test
    void aSlowCopyIsSafePinnedAndUnsafeWithoutThePin() throws Exception {
        List<Scenario> all = both();
        assertEquals(all.size(), run(all, EVERY_HANDOFF + " --async --slow").count(Result.Passed.class));
        List<Result.Unsafe> unpinned = unsafe(run(all, EVERY_HANDOFF + " --no-pin --slow"));
        assertFalse(unpinned.isEmpty());
        assertTrue(
                unpinned.stream().allMatch(u -> u.findings().getFirst().startsWith("while its workers copy it: ")),
                unpinned.getFirst().findings().toString());
    }

    @Test
    void aScenarioOfStatedContentsHasRecurrentGroupsOnly() throws Exception {
        String attention =
                TOPOLOGY.replace(
                                "[{\"policy\":\"recurrent_align\",\"block_tokens\":2}]",
                                "[{\"policy\":\"full\",\"block_tokens\":2},{\"policy\":\"recurrent_align\",\"block_tokens\":2}]")
                        + "\nscenario attention\n"
                        + STEP1.replace("[[1,2]]", "[[5],[1,2]]").replace("[[0,1,2]]", "[[1,1,2]]")
                        + "----\ncontents 1=d1@2 2=none released=[]\n";
        ConformException e = assertThrows(ConformException.class, () -> file(attention));
        assertTrue(
                e.getMessage()
                        .startsWith(
                                dir.resolve("stated.scenarios") + ":1:1: a scenario that states the blocks' contents"),
                e.getMessage());
    }

    @Test
    void anExpectedVerdictNamesACodeOrCauseOfTheProtocol() throws Exception {
        for (String verdict : java.util.List.of("retired r1 cause=bogus", "rejected r1 code=bogus")) {
            String text =
                    TOPOLOGY
                            + "\nscenario words\n"
                            + STEP1
                            + "----\n"
                            + verdict
                            + "\npending none\ncounters plans=0 rejected=0 store_skipped_quorum=0 retired_finished=0\n";
            ConformException e = assertThrows(ConformException.class, () -> file(text));
            assertEquals(
                    dir.resolve("stated.scenarios")
                            + ":6:1: unknown "
                            + (verdict.startsWith("retired") ? "retirement cause" : "rejection code")
                            + " \"bogus\"",
                    e.getMessage());
        }
    }

    @Test
    void aScenarioStatesContentsAfterEveryEventOrNever() throws Exception {
        String mixed =
                TOPOLOGY
                        + "\nscenario mixed\n"
                        + STEP1
                        + "----\ncontents 1=d1@2 2=none 3=none released=[]\n\n"
                        + STEP2
                        + "----\npending none\ncounters plans=0 rejected=0 store_skipped_quorum=0 retired_finished=0\n";
        ConformException e = assertThrows(ConformException.class, () -> file(mixed));
        assertTrue(
                e.getMessage()
                        .startsWith(
                                dir.resolve("stated.scenarios")
                                        + ":10:1: a scenario states either the blocks' contents"),
                e.getMessage());
        String twoLines = TOPOLOGY + "\nscenario two\n" + STEP1 + "----\ncontents 1=d1@2 released=[]\npending none\n";
        e = assertThrows(ConformException.class, () -> file(twoLines));
        assertTrue(
                e.getMessage().startsWith(dir.resolve("stated.scenarios") + ":7:1: a contents line stands alone"),
                e.getMessage());
        String unknownBlock = TOPOLOGY + "\nscenario bad\n" + STEP1 + "----\ncontents 1=d1@2 released=[4]\n";
        e = assertThrows(ConformException.class, () -> file(unknownBlock));
        assertTrue(
                e.getMessage()
                        .startsWith(
                                dir.resolve("stated.scenarios")
                                        + ":6:1: released block 4 is not one of the line's blocks"),
                e.getMessage());
    }
}
