package io.proofgate.conform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.words.Capability;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The restore half in the kit: the hand-written restore logs (lookups, hits and loads) through the reference, the
 * every-handoff example and its planted mistakes, and answers altered one way at a time, each judged for safety
 * whatever the policy.
 */
class RestoreConformTest {

    static final Path RESTORE = ConformTest.HAND_WRITTEN.resolve("restore");
    static final String EVERY_HANDOFF = ConformTest.EVERY_HANDOFF;
    static List<Scenario> restores;

    /** A load of the state at 4608 where r3 is scheduled with a hit to 6912, as the kit finds it. */
    static final String SHORTER_LOAD =
            "request r3 of prefix d1, scheduled with 6912 tokens of the connector's hit (to 6912): loads the state at"
                    + " 4608 tokens, where vLLM computes on from 6912";

    @BeforeAll
    static void read() throws ConformException {
        restores = ScenarioReader.read(RESTORE);
    }

    private static Conform.Report run(String command) throws ConformException {
        return run(restores, command);
    }

    private static Conform.Report run(List<Scenario> scenarios, String command) throws ConformException {
        return Conform.run(
                scenarios,
                () -> new ProcessAdapter(command, Path.of("").toAbsolutePath()),
                ConformTest.SETTINGS,
                line -> {});
    }

    private static Conform.Report altered(String kind, UnaryOperator<String> change) throws ConformException {
        return Conform.run(
                restores,
                () -> new ConformTest.Altered(new InProcessAdapter(), kind, change),
                ConformTest.SETTINGS,
                line -> {});
    }

    private static List<Result.Unsafe> unsafe(Conform.Report report) {
        return report.results().stream()
                .filter(Result.Unsafe.class::isInstance)
                .map(Result.Unsafe.class::cast)
                .toList();
    }

    @Test
    void theRestoreLogsNeedTheRestoreCapabilityAndTheReferencePassesThem() throws ConformException {
        assertEquals(3, restores.size());
        assertTrue(restores.stream().allMatch(s -> s.needs().contains(Capability.RESTORE)));
        Conform.Report report = Conform.run(restores, InProcessAdapter::new, ConformTest.SETTINGS, line -> {});
        assertEquals(restores.size(), report.count(Result.Passed.class), ConformText.of(report, "reference"));
        assertTrue(ConformText.of(report, "reference").contains("judged: the safety of every plan, hit and load;"));
    }

    @Test
    void theEveryHandoffExampleAnswersLookupsSafely() throws ConformException {
        Conform.Report report = run(EVERY_HANDOFF);
        assertEquals(restores.size(), report.count(Result.Passed.class), ConformText.of(report, EVERY_HANDOFF));
    }

    /**
     * Model gen-restore-checkpoints: two checkpoints of one prefix in the store, a lookup while a proof is latched and
     * not yet published, and tables whose blocks are out of order. Each of three mistakes is caught there and in no
     * other generated scenario: a load of the shorter checkpoint than the hit, a hit from a latched proof, and an
     * attention group's blocks named in the order of their ids. The every-handoff example and the toy pass them.
     */
    @Test
    void twoCheckpointsALatchedLookupAndAnUnorderedTableCatchThreeMistakes() throws ConformException {
        List<Scenario> checkpoints =
                ScenarioReader.read(ConformTest.GENERATED.resolve("gen-restore-checkpoints")).stream().toList();
        assertTrue(checkpoints.size() > 50, "the model's scenarios: " + checkpoints.size());
        for (String safe : List.of(EVERY_HANDOFF, "python3 ../examples/conform/toy_connector.py --fixed")) {
            Conform.Report report = run(checkpoints, safe);
            assertEquals(checkpoints.size(), report.count(Result.Passed.class), ConformText.of(report, safe));
        }
        Conform.Report shorter = run(checkpoints, EVERY_HANDOFF + " --load-shorter");
        assertFalse(unsafe(shorter).isEmpty(), ConformText.of(shorter, "--load-shorter"));
        assertTrue(
                unsafe(shorter).stream().allMatch(u -> u.findings().contains(SHORTER_LOAD)),
                ConformText.of(shorter, "--load-shorter"));
        Conform.Report sorted = run(checkpoints, EVERY_HANDOFF + " --sorted-table");
        assertFalse(unsafe(sorted).isEmpty(), ConformText.of(sorted, "--sorted-table"));
        assertTrue(
                unsafe(sorted).stream()
                        .allMatch(u -> u.findings().getFirst().contains(": published page is not attention chunk ")),
                ConformText.of(sorted, "--sorted-table"));
        Conform.Report latched = run(checkpoints, ConformTest.TOY_VARIANTS + "latched-hit --fixed");
        assertFalse(unsafe(latched).isEmpty(), ConformText.of(latched, "latched-hit"));
        assertTrue(
                unsafe(latched).stream()
                        .allMatch(
                                u ->
                                        u.findings()
                                                .getFirst()
                                                .contains(
                                                        "a hit to 6912 tokens, where the store holds no state of d1"
                                                                + " that the kit saw saved")),
                ConformText.of(latched, "latched-hit"));
    }

    @Test
    void aHitOfTheWholePromptIsTheLastTokenTwice() throws ConformException {
        Conform.Report report = run(EVERY_HANDOFF + " --token-twice");
        List<Result.Unsafe> unsafe = unsafe(report);
        assertEquals(1, unsafe.size(), ConformText.of(report, "--token-twice"));
        Result.Unsafe witness = unsafe.getFirst();
        assertEquals("restore/01-longest-published", witness.scenario().id());
        assertEquals(6, witness.event(), "the lookup of r4, whose prompt of 6912 tokens the store holds whole");
        assertEquals("{\"kind\":\"hit\",\"step\":2,\"id\":\"r4\",\"tokens\":6912}", witness.plan());
        assertTrue(witness.findings().getFirst().endsWith("(the last token twice)"), witness.findings().toString());
        String text = ConformText.of(report, "--token-twice");
        assertTrue(text.contains("unsafe answers: 1 scenario;") && text.contains("    the adapter answered:\n"), text);
    }

    @Test
    void aHitWhereOneRecurrentGroupLacksTheStateIsUnsafe() throws ConformException {
        Conform.Report report = run(EVERY_HANDOFF + " --group-lacks");
        List<Result.Unsafe> unsafe = unsafe(report);
        assertEquals(1, unsafe.size(), ConformText.of(report, "--group-lacks"));
        Result.Unsafe witness = unsafe.getFirst();
        assertEquals("restore/03-one-group-lacks", witness.scenario().id());
        assertEquals(4, witness.event());
        assertEquals(
                List.of(
                        "request r2 of prefix d1 (prompt 3000 tokens, vLLM has 0): a hit to 2048 tokens, where the"
                                + " store holds no state of d1 that the kit saw saved (it holds [4096])"),
                witness.findings());
    }

    @Test
    void aLoadOfTheAttentionAloneLeavesTheStateBlockToGarbage() throws ConformException {
        // the recurrent groups' blocks dropped from every load: attention restored without the state
        Conform.Report report = altered("load", line -> line.replaceAll(",\\[\\d+\\]", ",[]"));
        List<Result.Unsafe> unsafe = unsafe(report);
        assertEquals(3, unsafe.size(), ConformText.of(report, "attention only"));
        Result.Unsafe first =
                unsafe.stream()
                        .filter(u -> u.scenario().id().equals("restore/01-longest-published"))
                        .findFirst()
                        .orElseThrow();
        assertEquals(10, first.event(), "the step that schedules r3 with its hit");
        assertEquals(
                "request r3 of prefix d1, scheduled with 6912 tokens of the connector's hit (to 6912): loads into"
                        + " blocks [[61,62,63],[]], where the request's blocks for the restored tokens are"
                        + " [[61,62,63],[71]]",
                first.findings().getFirst());
        // the witness shows the step as the kit sent it: with the adapter's hit as external tokens
        assertTrue(
                first.sent().getLast().contains("\"computed\":6912,\"external\":6912,\"scheduled\":188"),
                first.sent().getLast());
    }

    @Test
    void aLoadOfAShorterPrefixOrNoLoadIsUnsafe() throws ConformException {
        Conform.Report shorter = altered("load", line -> line.replace("\"span\":6912", "\"span\":4608"));
        assertTrue(
                unsafe(shorter).stream().anyMatch(u -> u.findings().contains(SHORTER_LOAD)),
                ConformText.of(shorter, "shorter"));
        Conform.Report none =
                altered("load", line -> "{\"kind\":\"retired\",\"step\":1,\"id\":\"r3\",\"cause\":\"finished\"}");
        assertTrue(
                unsafe(none).stream()
                        .anyMatch(
                                u ->
                                        u.findings()
                                                .getFirst()
                                                .startsWith(
                                                        "request r3 of prefix d1, scheduled with 6912 tokens of the"
                                                            + " connector's hit (to 6912): no load: it computes on from"
                                                            + " blocks nothing loaded")),
                ConformText.of(none, "none"));
    }

    @Test
    void aShorterHitOfAnAdapterOfItsOwnPolicyIsAMissedHitAndTheStepIsSentWithIt() throws ConformException {
        UnaryOperator<String> own =
                line -> line.replace("\"kind\":\"hello\",", "\"kind\":\"hello\",\"connector_policy\":\"own\",");
        Conform.Report report =
                Conform.run(
                        restores,
                        () ->
                                new ConformTest.Altered(
                                        new ConformTest.Altered(new InProcessAdapter(), "hello", own),
                                        "hit",
                                        line -> line.replaceFirst("\"tokens\":\\d+", "\"tokens\":0")),
                        ConformTest.SETTINGS,
                        line -> {});
        // no hit, so vLLM computes the prompt from 0 and nothing is loaded: safe, and every scenario passes
        assertEquals(restores.size(), report.count(Result.Passed.class), ConformText.of(report, "no hits"));
        List<String> missed =
                report.results().stream()
                        .map(r -> (Result.Passed) r)
                        .flatMap(p -> p.missedHits().stream())
                        .sorted()
                        .toList();
        assertEquals(List.of("r3", "r3", "r3", "r5", "r6"), missed);
        assertTrue(ConformText.of(report, "no hits").contains("missed hits (not failures): in 3 scenarios"));
    }

    @Test
    void aHitOnASaveStillBeingCopiedIsUnsafe() throws ConformException {
        // the reference's plans made asynchronous copies, pinned, whose saved line never comes: the
        // store holds nothing yet when its hits restore them
        UnaryOperator<String> own =
                line -> line.replace("\"kind\":\"hello\",", "\"kind\":\"hello\",\"connector_policy\":\"own\",");
        Conform.Report report =
                Conform.run(
                        restores,
                        () ->
                                new ConformTest.Altered(
                                        new ConformTest.Altered(new InProcessAdapter(), "hello", own),
                                        "plan",
                                        line ->
                                                line.substring(0, line.length() - 1)
                                                        + ",\"copy\":\"async\",\"pinned\":true}"),
                        ConformTest.SETTINGS,
                        line -> {});
        List<Result.Unsafe> unsafe = unsafe(report);
        assertEquals(3, unsafe.size(), ConformText.of(report, "in flight"));
        Result.Unsafe first =
                unsafe.stream()
                        .filter(u -> u.scenario().id().equals("restore/01-longest-published"))
                        .findFirst()
                        .orElseThrow();
        assertEquals(
                List.of(
                        "request r3 of prefix d1 (prompt 7100 tokens, vLLM has 0): a hit to 6912 tokens, where the"
                                + " store holds no state of d1 that the kit saw saved (it holds none)"),
                first.findings());
    }

    @Test
    void aLookupAnsweredWithoutAHitOrAHitThatAnswersNoLookupCannotBeJudged() throws ConformException {
        Conform.Report silent =
                altered(
                        "hit",
                        line ->
                                line.replaceFirst(
                                        "\"kind\":\"hit\",(\"step\":\\d+,\"id\":\"r\\d+\"),\"tokens\":\\d+",
                                        "\"kind\":\"retired\",$1,\"cause\":\"finished\""));
        assertEquals(restores.size(), silent.count(Result.Errored.class), ConformText.of(silent, "silent"));
        assertTrue(
                silent.results().stream()
                        .allMatch(
                                r ->
                                        ((Result.Errored) r)
                                                .message()
                                                .contains("the adapter answered a lookup without a hit line")),
                ConformText.of(silent, "silent"));
        Conform.Report stray = altered("plan", line -> "{\"kind\":\"hit\",\"step\":2,\"id\":\"r1\",\"tokens\":0}");
        assertTrue(
                stray.results().stream()
                        .anyMatch(
                                r ->
                                        r instanceof Result.Errored e
                                                && e.message()
                                                        .contains(
                                                                "printed a hit for request \"r1\" in answer to an event"
                                                                        + " that is no lookup")),
                ConformText.of(stray, "stray"));
    }

    @Test
    void theKitSendsALookedUpRequestsFirstStepWithTheAdaptersHit() {
        Scenario scenario =
                restores.stream().filter(s -> s.id().equals("restore/01-longest-published")).findFirst().orElseThrow();
        int events = scenario.events().size();
        List<List<Line>> answers = new java.util.ArrayList<>();
        for (int k = 0; k < events; k++) {
            answers.add(List.of());
        }
        answers.set(4, List.of(new Line.Hit("r3", "2", "2304"))); // the lookup of r3, where the reference answers 6912
        List<String> sent = Lookups.sent(scenario, events, new Transcript(List.of(), answers, List.of()));
        assertTrue(
                sent.getLast()
                        .contains(
                                "{\"id\":\"r3\",\"digest\":\"d1\",\"prompt_tokens\":7100,\"computed\":2304,"
                                        + "\"external\":2304,\"scheduled\":4796,"),
                sent.getLast());
        // r6's lookup has no hit line here: vLLM takes none of its tokens, and computes on from its own 4608
        assertTrue(
                sent.getLast()
                        .contains(
                                "{\"id\":\"r6\",\"digest\":\"d1\",\"prompt_tokens\":9000,\"computed\":4608,"
                                        + "\"scheduled\":4392,"),
                sent.getLast());
        assertEquals(
                scenario.events().subList(0, events - 1).stream().map(Scenario.Event::line).toList(),
                sent.subList(0, events - 1));
    }

    @Test
    void aLookedUpRequestWhoseFirstStepStopsShortOfItsPromptIsRefused(@TempDir Path dir) throws IOException {
        List<String> log = Files.readAllLines(RESTORE.resolve("03-one-group-lacks.jsonl"));
        log.set(5, log.get(5).replace("\"scheduled\":3000", "\"scheduled\":2048"));
        Files.write(dir.resolve("short.jsonl"), log);
        Files.copy(RESTORE.resolve("03-one-group-lacks.expected"), dir.resolve("short.expected"));
        ConformException e = assertThrows(ConformException.class, () -> ScenarioReader.read(dir));
        assertEquals(
                dir.resolve("short.jsonl")
                        + ":6:1: request \"r2\" was looked up, and its first step does not compute its prompt of 3000"
                        + " tokens to the end (the kit sends it with the adapter's hit as computed, and the rest of the"
                        + " prompt as scheduled)",
                e.getMessage());
    }
}
