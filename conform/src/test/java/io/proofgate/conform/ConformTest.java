package io.proofgate.conform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.words.Capability;
import io.proofgate.words.ConnectorPolicy;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * The kit end to end on the project's own scenarios: the reference adapter as an external process passes all of them,
 * the Python example's planted bug is found and shrunk, and each expectation the kit compares is shown to fail when an
 * adapter's answer is altered in it.
 */
class ConformTest {

    static final Path GENERATED = Path.of("../generated-tests/scenarios");
    static final Path HAND_WRITTEN = Path.of("../validator/src/test/resources/scenarios");
    static final Conform.Settings SETTINGS = new Conform.Settings(2, Conform.DEFAULT_PATIENCE, true, 10);

    static List<Scenario> all;

    @BeforeAll
    static void read() throws ConformException {
        all = new ArrayList<>(ScenarioReader.read(GENERATED));
        all.addAll(ScenarioReader.read(HAND_WRITTEN));
    }

    static String javaCommand(String mainClass) {
        String java = ProcessHandle.current().info().command().orElse("java");
        return "'" + java + "' -cp '" + System.getProperty("java.class.path") + "' " + mainClass;
    }

    @Test
    void everyScenarioIsReadWithItsExpectations() {
        long generated = all.stream().filter(s -> s.expected() instanceof Scenario.PerEvent).count();
        long handWritten = all.stream().filter(s -> s.expected() instanceof Scenario.WholeLog).count();
        assertEquals(16_189, generated, "the generated scenarios (generated-tests/COVERAGE.md)");
        assertEquals(16, handWritten, "the hand-written logs with .expected beside them");
        assertEquals(
                430,
                all.stream().filter(s -> s.expected() instanceof Scenario.BlockContents).count(),
                "the generated scenarios that state vLLM's block contents (gen-align, gen-align-interleaved)");
        assertEquals(generated + handWritten + 430, all.size(), "every scenario read is one of the three kinds");
        assertEquals(
                3,
                all.stream()
                        .filter(
                                s ->
                                        s.needs().contains(Capability.RESTORE)
                                                && s.expected() instanceof Scenario.WholeLog)
                        .count(),
                "the restore logs");
        assertEquals(
                LOOKUPS,
                all.stream().filter(s -> s.needs().contains(Capability.RESTORE)).count(),
                "the scenarios with lookups: the restore logs, gen-restore's and gen-restore-checkpoints'");
        assertTrue(all.stream().anyMatch(s -> s.needs().contains(Capability.SLIDING)));
        assertEquals(2, all.stream().filter(s -> s.needs().contains(Capability.WIDE_INTEGERS)).count());
    }

    @Test
    void theReferenceAdapterAsAProcessPassesEveryScenario() throws ConformException {
        Conform.Report report =
                Conform.run(
                        all,
                        () ->
                                new ProcessAdapter(
                                        javaCommand("io.proofgate.adapter.ReferenceAdapter"),
                                        Path.of("").toAbsolutePath()),
                        SETTINGS,
                        line -> {});
        assertEquals(List.of(), report.results().stream().filter(r -> !(r instanceof Result.Passed)).limit(3).toList());
        assertEquals(all.size(), report.count(Result.Passed.class));
    }

    @Test
    void thePythonExamplesPlantedBugIsFoundUnsafeAndShrunkToAtMostThreeEvents() throws ConformException {
        Conform.Report report =
                Conform.run(
                        all,
                        () ->
                                new ProcessAdapter(
                                        "python3 ../examples/conform/toy_connector.py", Path.of("").toAbsolutePath()),
                        SETTINGS,
                        line -> {});
        List<Result.Failed> failed =
                report.results().stream()
                        .filter(Result.Failed.class::isInstance)
                        .map(Result.Failed.class::cast)
                        .toList();
        List<Result.Unsafe> unsafe =
                report.results().stream()
                        .filter(Result.Unsafe.class::isInstance)
                        .map(Result.Unsafe.class::cast)
                        .toList();
        assertEquals(0, report.count(Result.Errored.class));
        assertEquals(
                2,
                report.count(Result.NotRun.class),
                "the two wide-integer scenarios: it does not declare wide_integers");
        // the table's running block holds the state past the target wherever the request ran on
        assertTrue(unsafe.size() > 1000, "unsafe: " + unsafe.size());
        assertTrue(
                unsafe.stream()
                        .allMatch(
                                u ->
                                        u.findings().stream()
                                                .anyMatch(
                                                        f ->
                                                                f.contains(
                                                                                ": published page is not the"
                                                                                        + " recurrent state at ")
                                                                        && f.contains(
                                                                                " holds the recurrent state at "))),
                unsafe.getFirst().findings().toString());
        assertTrue(unsafe.stream().mapToInt(Result.Unsafe::event).min().orElseThrow() <= 2);
        assertTrue(ConformText.of(report, "toy").contains("\nUNSAFE "), "the report leads with the unsafe plans");
        // where the running block still holds the target state, the plan is safe but another than latch-at-target's
        assertTrue(failed.size() > 1000, "policy failures: " + failed.size());
        Map<String, Integer> rules = new TreeMap<>();
        failed.forEach(f -> rules.merge(f.mismatch().rule(), 1, Integer::sum));
        assertTrue(
                rules.keySet().stream()
                        .allMatch(
                                rule ->
                                        rule.equals("plan: blocks_by_group, recurrent differ")
                                                || rule.equals("plan -> rejected invalid_selection")),
                rules.toString());
        int shortest = failed.stream().mapToInt(Result.Failed::events).min().orElseThrow();
        assertTrue(shortest <= 3, "shrunk to " + shortest + " events");
        for (Result.Failed failure : failed) {
            assertTrue(failure.events() <= failure.scenario().events().size());
            assertTrue(failure.shortest().event() <= failure.events(), "the shrunk prefix fails at its own events");
        }
    }

    @Test
    void thePythonExampleWithoutItsBugPassesEveryScenarioItRuns() throws ConformException {
        Conform.Report report =
                Conform.run(
                        all,
                        () ->
                                new ProcessAdapter(
                                        "python3 ../examples/conform/toy_connector.py --fixed",
                                        Path.of("").toAbsolutePath()),
                        SETTINGS,
                        line -> {});
        // the restore logs included: it answers lookups as the reference does
        assertEquals(all.size() - 2, report.count(Result.Passed.class));
    }

    static final String TOY_VARIANTS = "python3 src/test/resources/adapters/toy_variants.py ";

    /** The scenarios that run every request through its hand-offs to its end. */
    private static List<Scenario> finished() {
        return all.stream().filter(s -> s.suite().equals("ci/finished")).toList();
    }

    /** The scenarios through an adapter process started in this module's folder. */
    private static Conform.Report process(List<Scenario> scenarios, String command) throws ConformException {
        return Conform.run(
                scenarios, () -> new ProcessAdapter(command, Path.of("").toAbsolutePath()), SETTINGS, line -> {});
    }

    private static <R extends Result> List<R> results(Conform.Report report, Class<R> kind) {
        return report.results().stream().filter(kind::isInstance).map(kind::cast).toList();
    }

    /**
     * A plan the adapter printed was published, whatever it says of the scenario afterwards: the toy with its planted
     * bug, saying at the summary request that the scenario does not apply to it, is unsafe where the toy is.
     */
    @Test
    void anUnsafePlanFailsItsScenarioEvenWhereTheAdapterThenSaysItDoesNotApply() throws ConformException {
        Conform.Report report = process(finished(), TOY_VARIANTS + "dodging");
        long unsafe = report.count(Result.Unsafe.class);
        assertTrue(unsafe > 0, ConformText.of(report, "dodging"));
        assertEquals(finished().size(), unsafe + report.count(Result.NotApplicable.class));
    }

    /**
     * A plan's {@code recurrent} pairs must be the recurrent groups' blocks of its {@code blocks_by_group}: a connector
     * of its own policy (nothing compared but safety) that states other blocks there is unsafe, its blocks_by_group
     * safe as they are.
     */
    @Test
    void aPlanWhoseRecurrentPairsAreNotItsRecurrentBlocksIsUnsafeUnderAnyPolicy() throws ConformException {
        Conform.Report report = process(finished(), TOY_VARIANTS + "misstated --fixed");
        List<Result.Unsafe> unsafe = results(report, Result.Unsafe.class);
        assertTrue(unsafe.size() > 100, ConformText.of(report, "misstated"));
        assertEquals(finished().size(), unsafe.size() + report.count(Result.Passed.class));
        assertTrue(
                unsafe.getFirst().findings().getFirst().startsWith("its recurrent \"[[1,"),
                unsafe.getFirst().findings().toString());
    }

    /**
     * A verdict says its event's step, under any policy: where the kit compares nothing but safety, a plan that says a
     * later step fails its scenario (it was judged at its event).
     */
    @Test
    void aVerdictOfAnotherStepThanItsEventsFailsUnderAnyPolicy() throws ConformException {
        Conform.Report report = process(finished(), TOY_VARIANTS + "misstepped --fixed");
        List<Result.Failed> failed = results(report, Result.Failed.class);
        assertTrue(failed.size() > 100, ConformText.of(report, "misstepped"));
        assertEquals(finished().size(), failed.size() + report.count(Result.Passed.class));
        assertTrue(failed.stream().allMatch(f -> f.mismatch().rule().equals("verdict: step is not its event's")));
    }

    /**
     * Through the vLLM driver a plan carries the key the connector files it under: the example without its bug, filing
     * every prefix under another prefix's key, is unsafe wherever it publishes (its pages hold the right prefix).
     */
    @Test
    void aVllmConnectorThatFilesAPrefixUnderAnothersKeyIsUnsafe() throws ConformException {
        Conform.Report report = process(finished(), "python3 src/test/resources/adapters/vllm_variants.py wrong-key");
        List<Result.Unsafe> unsafe = results(report, Result.Unsafe.class);
        assertTrue(unsafe.size() > 100, ConformText.of(report, "wrong key"));
        assertEquals(finished().size(), unsafe.size() + report.count(Result.Passed.class));
        assertTrue(
                unsafe.getFirst()
                        .findings()
                        .getFirst()
                        .contains(" published page is not attention chunk 0 of d1?wrong-key;"),
                unsafe.getFirst().findings().toString());
    }

    /**
     * A connector whose digest files two prefixes under one key (its first 1,024 tokens alone) agrees with the
     * mapping's prefix_key(), which asks that digest: the driver tells the second prefix a key is given for, and the
     * kit judges its pages as no prefix's. A lookup of either prefix would restore the other.
     */
    @Test
    void aVllmConnectorThatFilesTwoPrefixesUnderOneKeyIsUnsafe() throws ConformException {
        Conform.Report report = process(finished(), "python3 src/test/resources/adapters/vllm_variants.py shared-key");
        List<Result.Unsafe> unsafe = results(report, Result.Unsafe.class);
        assertFalse(unsafe.isEmpty(), ConformText.of(report, "shared key"));
        assertEquals(finished().size(), unsafe.size() + report.count(Result.Passed.class));
        assertTrue(
                unsafe.stream().allMatch(u -> u.findings().getFirst().contains("?shared-key;")),
                unsafe.getFirst().findings().toString());
    }

    /**
     * A load is judged wherever it is printed, under any policy: in answer to an event that is no step (a finish, a
     * lookup), and in a scenario with no lookup, where no load is ever safe (the events were simulated only up to the
     * last plan, so such a load passed).
     */
    @Test
    void aLoadIsJudgedWhereverItIsPrinted() throws ConformException {
        UnaryOperator<String> own =
                line -> line.replace("\"kind\":\"hello\",", "\"kind\":\"hello\",\"connector_policy\":\"own\",");
        List<Scenario> restores = all.stream().filter(s -> s.needs().contains(Capability.RESTORE)).toList();
        for (String event : List.of("finished", "lookup")) {
            Conform.Report stray =
                    Conform.run(
                            restores,
                            () ->
                                    new Appended(
                                            new Altered(new InProcessAdapter(), "hello", own),
                                            event,
                                            (message, step) ->
                                                    "{\"kind\":\"load\",\"step\":"
                                                            + step
                                                            + ",\"id\":\""
                                                            + message.path("id").asText()
                                                            + "\",\"digest\":\"zz\",\"span\":2304,\"blocks_by_group\":[[999],[999]]}"),
                            SETTINGS,
                            line -> {});
            assertTrue(stray.count(Result.Unsafe.class) > 0, event + ": " + ConformText.of(stray, event));
            assertEquals(0, stray.count(Result.Errored.class), ConformText.of(stray, event));
            assertTrue(
                    stray.results().stream()
                            .filter(Result.Unsafe.class::isInstance)
                            .allMatch(
                                    r ->
                                            ((Result.Unsafe) r)
                                                    .findings()
                                                    .getFirst()
                                                    .startsWith("a load in answer to an event that is no step (")),
                    ConformText.of(stray, event));
        }
        List<Scenario> seed = all.stream().filter(s -> s.suite().equals("seed")).toList();
        Conform.Report noLookup =
                Conform.run(
                        seed,
                        () ->
                                new Appended(
                                        new Altered(new InProcessAdapter(), "hello", own),
                                        "step",
                                        (message, step) ->
                                                message.path("new").isEmpty()
                                                        ? null
                                                        : "{\"kind\":\"load\",\"step\":"
                                                                + step
                                                                + ",\"id\":\""
                                                                + message.path("new").get(0).path("id").asText()
                                                                + "\",\"digest\":\"zz\",\"span\":2304,\"blocks_by_group\":[[11],[41]]}"),
                        SETTINGS,
                        line -> {});
        assertTrue(noLookup.count(Result.Unsafe.class) > 0, ConformText.of(noLookup, "no lookup"));
        assertEquals(
                0,
                noLookup.count(Result.Passed.class) + noLookup.count(Result.Errored.class),
                ConformText.of(noLookup, "no lookup"));
    }

    static final String VLLM_EXAMPLE = "python3 ../examples/conform/vllm_connector/adapter.py";

    /** The scenarios with lookups, which an adapter without the restore capability does not run. */
    static final long LOOKUPS = 257;

    @Test
    void theVllmExampleWithoutItsBugPassesEveryScenarioItRuns() throws ConformException {
        Conform.Report report =
                Conform.run(
                        all,
                        () -> new ProcessAdapter(VLLM_EXAMPLE + " --fixed", Path.of("").toAbsolutePath()),
                        SETTINGS,
                        line -> {});
        assertEquals(
                List.of(),
                report.results().stream()
                        .filter(r -> !(r instanceof Result.Passed || r instanceof Result.NotRun))
                        .limit(3)
                        .toList());
        // not run: the two scenarios with integers beyond 64 bits, and those with lookups (no restore)
        assertEquals(all.size() - 2 - LOOKUPS, report.count(Result.Passed.class));
    }

    @Test
    void theVllmExamplesPlantedBugIsFoundAndShrunk() throws ConformException {
        List<Scenario> preemptions =
                all.stream().filter(s -> s.suite().equals("ci/step-preemption") || s.suite().equals("seed")).toList();
        Conform.Report report =
                Conform.run(
                        preemptions,
                        () -> new ProcessAdapter(VLLM_EXAMPLE, Path.of("").toAbsolutePath()),
                        SETTINGS,
                        line -> {});
        List<Result.Failed> failed =
                report.results().stream()
                        .filter(Result.Failed.class::isInstance)
                        .map(Result.Failed.class::cast)
                        .toList();
        assertEquals(0, report.count(Result.Errored.class));
        assertEquals(List.of("plan -> rejected conflict", "state: pending latch differs"), rules(report));
        assertTrue(failed.stream().anyMatch(f -> f.scenario().id().equals("seed/09-preempt-then-resume")));
        assertEquals(
                2,
                failed.stream().mapToInt(Result.Failed::events).min().orElseThrow(),
                "shrunk to the step that latches and the preemption");
        String text = ConformText.of(report, VLLM_EXAMPLE);
        assertTrue(text.contains("shrunk to 2 events after the topology:"), text);
        assertTrue(text.contains("summed over the 2 jobs)"), text);
    }

    @Test
    void aMappingThatRaisesIsARefusalOfItsScenarioGroupedByItsMessageAndTheRunGoesOn() throws ConformException {
        List<Scenario> seed = all.stream().filter(s -> s.suite().equals("seed")).toList();
        Conform.Report report =
                Conform.run(
                        seed,
                        () ->
                                new ProcessAdapter(
                                        "python3 ../conform/src/test/resources/adapters/raising_mapping.py",
                                        Path.of("").toAbsolutePath()),
                        new Conform.Settings(1, Conform.DEFAULT_PATIENCE, false, 10),
                        line -> {});
        assertEquals(
                0, report.count(Result.Errored.class), "a refusal is a failure of its scenario, not a broken adapter");
        assertEquals(
                List.of(
                        "refused an event: \"step event N: LookupError: no reader for the rejection of rN"
                                + " (raising_mapping.py:N in read_step)\"",
                        "refused an event: \"step event N: ValueError: an empty proof of"
                                + " empty is not logged (raising_mapping.py:N in read_step)\""),
                rules(report));
        assertEquals(seed.size() - 2, report.count(Result.Passed.class), "the other scenarios of the run pass");
        String text = ConformText.of(report, "raising_mapping.py");
        assertTrue(text.contains("), not shrunk (--no-shrink), 2 events after the topology:"), text);
        assertFalse(text.contains("shrunk to"), text);
        assertTrue(text.contains("(1 job; "), text);
        assertFalse(text.contains("summed over"), text);
    }

    static final String EVERY_HANDOFF = "python3 ../examples/conform/every_handoff_connector.py";

    @Test
    void theEveryHandoffExamplePassesSafetyOnEveryScenarioItRunsAndMissesOnlyAttentionOnlyPublications()
            throws ConformException {
        Conform.Report report =
                Conform.run(
                        all,
                        () -> new ProcessAdapter(EVERY_HANDOFF, Path.of("").toAbsolutePath()),
                        SETTINGS,
                        line -> {});
        assertEquals(
                List.of(),
                report.results().stream()
                        .filter(r -> !(r instanceof Result.Passed || r instanceof Result.NotRun))
                        .limit(3)
                        .toList());
        assertEquals(ConnectorPolicy.OWN, report.hello().policy());
        List<Result.Passed> missing =
                report.results().stream()
                        .filter(r -> r instanceof Result.Passed p && !p.missed().isEmpty())
                        .map(Result.Passed.class::cast)
                        .toList();
        // it publishes on hand-offs only, so a topology without recurrent groups gets nothing from it
        assertFalse(missing.isEmpty());
        assertTrue(
                missing.stream().allMatch(p -> p.scenario().suite().startsWith("gen-attention")),
                missing.getFirst().scenario().id());
        String text = ConformText.of(report, EVERY_HANDOFF);
        assertTrue(
                text.contains("connector policy: own, which the kit does not model, so nothing else is compared"),
                text);
        assertTrue(text.contains("missed publications (not failures): in " + missing.size() + " scenarios"), text);
    }

    @Test
    void theEveryHandoffExamplesPlantedVariantsFailSafetyWithAShrunkWitness() throws ConformException {
        // the finished scenarios are enough: every one runs a request through its hand-offs to its end
        List<Scenario> finished = all.stream().filter(s -> s.suite().equals("ci/finished")).toList();
        for (String variant : List.of("--positional", "--deferred", "--no-pin")) {
            Conform.Report report =
                    Conform.run(
                            finished,
                            () -> new ProcessAdapter(EVERY_HANDOFF + " " + variant, Path.of("").toAbsolutePath()),
                            SETTINGS,
                            line -> {});
            List<Result.Unsafe> unsafe =
                    report.results().stream()
                            .filter(Result.Unsafe.class::isInstance)
                            .map(Result.Unsafe.class::cast)
                            .toList();
            assertTrue(unsafe.size() > 100, variant + ": " + unsafe.size());
            assertEquals(0, report.count(Result.Failed.class) + report.count(Result.Errored.class), variant);
            Result.Unsafe shortest =
                    unsafe.stream().min(java.util.Comparator.comparingInt(Result.Unsafe::event)).orElseThrow();
            assertTrue(shortest.event() <= 3, variant + " shrunk to " + shortest.event());
            // the recurrent block among the wrong ones (at a finish the attention blocks are let go too)
            assertTrue(
                    shortest.findings().stream()
                            .anyMatch(
                                    witness ->
                                            witness.matches(
                                                    "(while its workers copy it: )?step \\d+ request r\\d group 1 block"
                                                        + " \\d+: published page is not the recurrent state at \\d+ of"
                                                        + " d1; block \\d+ (was never written|holds .*)")),
                    variant + ": " + shortest.findings());
        }
        // the same asynchronous copies, pinned: safe where the unpinned ones are not
        Conform.Report pinned =
                Conform.run(
                        finished,
                        () -> new ProcessAdapter(EVERY_HANDOFF + " --async", Path.of("").toAbsolutePath()),
                        SETTINGS,
                        line -> {});
        assertEquals(finished.size(), pinned.count(Result.Passed.class), ConformText.of(pinned, "--async"));
    }

    @Test
    void anAdapterOfItsOwnPolicyFailsOnARefusalAndOnAnUnsafePlanButNotOnAnotherSafePlan() throws ConformException {
        List<Scenario> seed = all.stream().filter(s -> s.suite().equals("seed")).toList();
        UnaryOperator<String> own =
                line -> line.replace("\"kind\":\"hello\",", "\"kind\":\"hello\",\"connector_policy\":\"own\",");
        // latch-at-target's own answers, judged on safety alone: every scenario passes
        Conform.Report same = altered("hello", own, seed);
        assertEquals(seed.size(), same.count(Result.Passed.class));
        // a refusal is never a pass, though nothing else is compared
        Conform.Report refusing =
                Conform.run(
                        seed,
                        () ->
                                new Altered(
                                        new Altered(new InProcessAdapter(), "hello", own),
                                        "plan",
                                        line -> "{\"kind\":\"error\",\"message\":\"no\"}"),
                        SETTINGS,
                        line -> {});
        assertTrue(refusing.count(Result.Failed.class) > 0);
        assertEquals(List.of("refused an event: \"no\""), rules(refusing));
        // its verdicts differ from latch-at-target's (each rejection's reason), but its plans are safe: it passes
        Conform.Report otherReasons =
                Conform.run(
                        seed,
                        () ->
                                new Altered(
                                        new Altered(new InProcessAdapter(), "hello", own),
                                        "rejected",
                                        line -> line.replaceFirst("\"reason\":\"[^\"]*\"", "\"reason\":\"another\"")),
                        SETTINGS,
                        line -> {});
        assertEquals(seed.size(), otherReasons.count(Result.Passed.class));
        assertTrue(
                altered("rejected", line -> line.replaceFirst("\"reason\":\"[^\"]*\"", "\"reason\":\"another\""), seed)
                                .count(Result.Failed.class)
                        > 0,
                "under latch-at-target the same answers fail: the alteration reaches a compared verdict");
        // the same plan with its recurrent block taken from the attention table is unsafe
        Conform.Report unsafe =
                Conform.run(
                        seed,
                        () ->
                                new Altered(
                                        new Altered(new InProcessAdapter(), "hello", own),
                                        "plan",
                                        line ->
                                                line.replaceFirst(
                                                        "\\],\\[\\d+\\]\\],\"recurrent\":\\[\\[1,\\d+\\]\\]",
                                                        "],[11]],\"recurrent\":[[1,11]]")),
                        SETTINGS,
                        line -> {});
        assertTrue(unsafe.count(Result.Unsafe.class) > 0, ConformText.of(unsafe, "unsafe"));
    }

    /**
     * An asynchronous copy is judged after its plan's event and every later one up to its saved line: unpinned, a
     * preemption or finish meanwhile leaves garbage in the block it copies; pinned, the block keeps its state. The
     * finished scenarios end every request after its plan.
     */
    @Test
    void anAsynchronousCopyIsJudgedUntilItsSavedLineAndItsPinKeepsItsBlocks() throws ConformException {
        List<Scenario> finished = all.stream().filter(s -> s.suite().equals("ci/finished")).toList();
        UnaryOperator<String> own =
                line -> line.replace("\"kind\":\"hello\",", "\"kind\":\"hello\",\"connector_policy\":\"own\",");
        Conform.Report pinned = copied(finished, own, ",\"copy\":\"async\",\"pinned\":true");
        assertEquals(finished.size(), pinned.count(Result.Passed.class), ConformText.of(pinned, "pinned"));
        Conform.Report unpinned = copied(finished, own, ",\"copy\":\"async\"");
        List<Result.Unsafe> unsafe =
                unpinned.results().stream()
                        .filter(Result.Unsafe.class::isInstance)
                        .map(Result.Unsafe.class::cast)
                        .toList();
        assertTrue(unsafe.size() > 100, "unsafe: " + unsafe.size());
        assertTrue(
                unsafe.stream()
                        .allMatch(
                                u ->
                                        u.plan().contains("\"copy\":\"async\"")
                                                && u.findings().stream()
                                                        .anyMatch(f -> f.contains("holds garbage (released by r"))),
                unsafe.getFirst().findings().toString());
        // each found after an event that let the block go, later than the plan's own (where the pinned copy passes)
        assertTrue(
                unsafe.stream().allMatch(u -> u.findings().getFirst().startsWith("while its workers copy it: step ")),
                unsafe.getFirst().toString());
        // a saved line that ends no plan being copied (here in place of the plan) is the adapter's error, never a pass
        Conform.Report stray =
                Conform.run(
                        finished,
                        () ->
                                new Altered(
                                        new Altered(new InProcessAdapter(), "hello", own),
                                        "plan",
                                        line ->
                                                "{\"kind\":\"saved\",\"step\":1,\"id\":\"r1\",\"digest\":\"d1\",\"span\":6912}"),
                        SETTINGS,
                        line -> {});
        assertEquals(
                0,
                stray.count(Result.Passed.class)
                        - finished.size()
                        + stray.count(Result.Errored.class)
                        + stray.count(Result.NotRun.class),
                ConformText.of(stray, "stray"));
        assertTrue(stray.count(Result.Errored.class) > 0, ConformText.of(stray, "stray"));
        assertTrue(
                ConformText.of(stray, "stray")
                        .contains(
                                "printed a saved line for request \"r1\" digest \"d1\" span 6912, which ends no"
                                        + " asynchronous plan of that request, digest and span still being copied"),
                ConformText.of(stray, "stray"));
    }

    /** The in-process validator of policy own, its plans given {@code fields}. */
    private static Conform.Report copied(List<Scenario> scenarios, UnaryOperator<String> own, String fields)
            throws ConformException {
        return Conform.run(
                scenarios,
                () ->
                        new Altered(
                                new Altered(new InProcessAdapter(), "hello", own),
                                "plan",
                                line -> line.substring(0, line.length() - 1) + fields + "}"),
                SETTINGS,
                line -> {});
    }

    @Test
    void aScenarioTheAdapterSaysDoesNotApplyIsNotRunWithItsReasonNeverPassed() throws ConformException {
        List<Scenario> seed = all.stream().filter(s -> s.suite().equals("seed")).toList();
        Conform.Report report =
                altered("plan", line -> "{\"kind\":\"not_applicable\",\"reason\":\"no field for it\"}", seed);
        List<Result.NotApplicable> inapplicable =
                report.results().stream()
                        .filter(Result.NotApplicable.class::isInstance)
                        .map(Result.NotApplicable.class::cast)
                        .toList();
        assertFalse(inapplicable.isEmpty());
        assertTrue(inapplicable.stream().allMatch(n -> n.reason().equals("no field for it")));
        assertEquals(seed.size(), report.count(Result.Passed.class) + inapplicable.size());
        String text = ConformText.of(report, "inapplicable");
        assertTrue(
                text.contains("not run: " + inapplicable.size() + " scenarios not applicable: \"no field for it\""),
                text);
    }

    /** The in-process validator with one kind of answer line rewritten. */
    private static Conform.Report altered(String kind, UnaryOperator<String> change, List<Scenario> scenarios)
            throws ConformException {
        return Conform.run(scenarios, () -> new Altered(new InProcessAdapter(), kind, change), SETTINGS, line -> {});
    }

    /** An adapter around another, which it sends every message to and reads every answer of. */
    abstract static class Wrapped implements Adapter {
        final Adapter inner;

        Wrapped(Adapter inner) {
            this.inner = inner;
        }

        @Override
        public void send(String message) {
            inner.send(message);
        }

        @Override
        public String leftover(Duration patience) {
            return inner.leftover(patience);
        }

        @Override
        public long waitedNanos() {
            return 0;
        }

        @Override
        public void close() {}
    }

    /** An adapter whose lines of one kind are changed as they are read. */
    static final class Altered extends Wrapped {
        private final String kind;
        private final UnaryOperator<String> change;

        Altered(Adapter inner, String kind, UnaryOperator<String> change) {
            super(inner);
            this.kind = kind;
            this.change = change;
        }

        @Override
        public String receive(Duration patience) throws AdapterException {
            String line = inner.receive(patience);
            return line != null && line.startsWith("{\"kind\":\"" + kind + "\"") ? change.apply(line) : line;
        }
    }

    /**
     * An adapter that adds a line to its answer to each message of one kind, before the answer's state line or its end:
     * the line is made from the message and the step of the last step event, or null for none.
     */
    static final class Appended extends Wrapped {
        private final String kind;
        private final java.util.function.BiFunction<com.fasterxml.jackson.databind.JsonNode, String, String> line;
        private final java.util.ArrayDeque<String> sent = new java.util.ArrayDeque<>();
        private String step = "0";
        private String held; // the line the added one goes before
        private boolean added; // to the answer now read

        Appended(
                Adapter inner,
                String kind,
                java.util.function.BiFunction<com.fasterxml.jackson.databind.JsonNode, String, String> line) {
            super(inner);
            this.kind = kind;
            this.line = line;
        }

        @Override
        public void send(String message) {
            sent.add(message);
            inner.send(message);
        }

        @Override
        public String receive(Duration patience) throws AdapterException {
            if (held != null) {
                String next = held;
                held = null;
                return next;
            }
            String next = inner.receive(patience);
            if (next == null) {
                return null;
            }
            boolean end = next.equals("{\"kind\":\"end\"}");
            if (!added && (end || next.startsWith("{\"kind\":\"state\""))) {
                added = true;
                String extra = extra(sent.peek());
                if (extra != null) {
                    held = next;
                    next = extra;
                }
            }
            if (end && held == null) {
                sent.poll();
                added = false;
            } else if (held != null && held.equals("{\"kind\":\"end\"}")) {
                sent.poll();
                added = false;
            }
            return next;
        }

        private String extra(String message) {
            try {
                com.fasterxml.jackson.databind.JsonNode node = Json.tree(message);
                if (node.path("kind").asText().equals("step")) {
                    step = node.path("step").asText();
                }
                return node.path("kind").asText().equals(kind) ? line.apply(node, step) : null;
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    private static List<String> rules(Conform.Report report) {
        return report.results().stream()
                .filter(Result.Failed.class::isInstance)
                .map(r -> ((Result.Failed) r).mismatch().rule())
                .distinct()
                .sorted()
                .toList();
    }

    @Test
    void eachComparedExpectationFailsWhenTheAnswerDiffersInIt() throws ConformException {
        List<Scenario> seed = all.stream().filter(s -> s.suite().equals("seed")).toList();
        List<Scenario> ci = all.stream().filter(s -> s.suite().startsWith("ci/")).limit(400).toList();
        // a fact of a reason
        assertTrue(
                rules(altered("rejected", line -> line.replace("entry=0", "entry=1"), seed))
                        .contains("rejected future_boundary: reason facts differ"));
        // a verdict left out
        assertEquals(List.of("plan -> no verdict"), rules(altered("plan", line -> "", seed)));
        // a verdict's step
        assertTrue(
                rules(
                                altered(
                                        "retired",
                                        line -> line.replaceFirst("\"step\":\\d+", "\"step\":99"),
                                        all.stream().filter(s -> s.suite().equals("ci/finished")).limit(50).toList()))
                        .contains("retired finished: step differs"));
        // the state: a latch
        assertTrue(
                rules(altered("state", line -> line.replace("\"latch\":[[1,", "\"latch\":[[2,"), ci))
                        .contains("state: pending latch differs"));
        // the summary
        assertTrue(
                rules(altered("summary", line -> line.replace("\"plans\":1", "\"plans\":2"), seed))
                        .contains("summary: plans differs"));
        // a rejection for a reason of the connector's own: its behaviour, a difference from the model, never an error
        Conform.Report own =
                altered(
                        "rejected",
                        line -> line.replaceFirst("\"code\":\"[a-z_]+\"", "\"code\":\"no_boundary_mapping\""),
                        seed);
        assertEquals(0, own.count(Result.Errored.class));
        assertTrue(
                rules(own).stream().anyMatch(rule -> rule.endsWith("-> rejected no_boundary_mapping")),
                rules(own).toString());
    }
}
