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
import java.time.Duration;
import java.util.List;

/**
 * Adapters that break the protocol: each is a specific error naming the scenario and the message it was answering,
 * never a pass and never a failure (docs/conformance.md, "Errors").
 */
class ConformBadAdapterTest {

    static final String ADAPTER = "python3 src/test/resources/adapters/bad_adapter.py ";

    /**
     * Answers the adapter does give may take as long as a loaded machine needs; only the modes that never answer meet a
     * short timeout, so no outcome here depends on the machine's speed.
     */
    static final Conform.Settings SETTINGS = new Conform.Settings(1, Conform.DEFAULT_PATIENCE, true, 10);

    static final Conform.Settings NEVER_ANSWERS = new Conform.Settings(1, Duration.ofSeconds(2), true, 10);
    static final java.util.Set<String> SILENT_MODES = java.util.Set.of("hang", "no-end-at-all");

    @TempDir static Path folder;
    static List<Scenario> scenarios;

    @BeforeAll
    static void scenario() throws IOException, ConformException {
        Files.writeString(
                folder.resolve("one.scenarios"),
                """
                # a scenario whose first event admits a request that then finishes
                topology {"kind":"topology","schema":"proofgate-events/v1","groups":[{"policy":"full","block_tokens":2304}]}

                scenario finished_r1
                event {"kind":"step","step":1,"new":[{"id":"r1","digest":"d1","prompt_tokens":6992,"computed":0,"scheduled":2304,"block_ids":[[1]]}]}
                ----
                pending r1 done=2304 table=[[1]] latch=[]
                counters plans=0 rejected=0 store_skipped_quorum=0 retired_finished=0

                event {"kind":"finished","id":"r1"}
                ----
                retired r1 cause=finished
                pending none
                counters plans=0 rejected=0 store_skipped_quorum=0 retired_finished=1
                """);
        scenarios = ScenarioReader.read(folder);
    }

    private static String error(String mode) throws ConformException {
        Conform.Report report =
                Conform.run(
                        scenarios,
                        () -> new ProcessAdapter(ADAPTER + mode, Path.of("").toAbsolutePath()),
                        SILENT_MODES.contains(mode) ? NEVER_ANSWERS : SETTINGS,
                        line -> {});
        assertEquals(1, report.results().size());
        Result result = report.results().getFirst();
        assertTrue(result instanceof Result.Errored, mode + ": " + result);
        return ((Result.Errored) result).message();
    }

    private static String refused(String mode) {
        return assertThrows(
                        ConformException.class,
                        () ->
                                Conform.run(
                                        scenarios,
                                        () -> new ProcessAdapter(ADAPTER + mode, Path.of("").toAbsolutePath()),
                                        SETTINGS,
                                        line -> {}))
                .getMessage();
    }

    @Test
    void theScenarioPassesWithTheReference() throws ConformException {
        Conform.Report report = Conform.run(scenarios, InProcessAdapter::new, SETTINGS, line -> {});
        assertEquals(1, report.count(Result.Passed.class), report.results().toString());
    }

    /**
     * Regression: an adapter of a policy of its own whose summary counted a plan it never printed passed: the plan was
     * never judged for safety, and nothing else of its answers is compared.
     */
    @Test
    void anOwnPolicysSummaryCountsThePlansItPrinted() throws ConformException {
        Conform.Report report =
                Conform.run(
                        scenarios,
                        () -> new ProcessAdapter(ADAPTER + "own-counts-a-plan-it-hides", Path.of("").toAbsolutePath()),
                        SETTINGS,
                        line -> {});
        assertEquals(1, report.count(Result.Failed.class), report.results().toString());
        assertTrue(
                report.results().getFirst().toString().contains("summary: plans counts other plans than the adapter"),
                report.results().toString());
    }

    /**
     * --max-errors stops the run; the scenarios it did not reach are errors of the report too, but the text says after
     * how many adapter errors it stopped and lists only the first errors.
     */
    @Test
    void aRunStoppedAfterMaxErrorsCountsTheAdapterErrorsAndListsTheFirst() throws ConformException {
        List<Scenario> many = java.util.Collections.nCopies(ConformText.LISTED + 20, scenarios.getFirst());
        Conform.Report report =
                Conform.run(
                        many,
                        () -> new ProcessAdapter(ADAPTER + "not-json", Path.of("").toAbsolutePath()),
                        new Conform.Settings(1, Conform.DEFAULT_PATIENCE, false, 2),
                        line -> {});
        assertEquals(2, report.stoppedAfter());
        assertEquals(many.size(), report.count(Result.Errored.class), "every scenario has a result, reached or not");
        String text = ConformText.of(report, "bad");
        assertTrue(text.contains("stopped after 2 adapter errors\n"), text);
        assertEquals(ConformText.LISTED, text.lines().filter(l -> l.startsWith("ERROR ")).count(), text);
        assertTrue(text.contains("... and 20 more errors (--junit FILE lists every scenario)"), text);
    }

    /**
     * A connector that raises what the Python library may not catch (here KeyboardInterrupt in its step) ends its
     * adapter with the library's own status, and the kit's error says what that status means and quotes the library's
     * last line, which names the exception and where it was raised.
     */
    @Test
    void aConnectorThatRaisesWhatTheLibraryMayNotCatchIsNamed() throws ConformException {
        Conform.Report report =
                Conform.run(
                        scenarios,
                        () ->
                                new ProcessAdapter(
                                        "python3 src/test/resources/adapters/interrupted_adapter.py",
                                        Path.of("").toAbsolutePath()),
                        SETTINGS,
                        line -> {});
        String error = ((Result.Errored) report.results().getFirst()).message();
        assertTrue(
                error.contains(
                        "closed its output (it exited with status 3, which the Python library gives when the connector"
                                + " raised what the library may not catch); its stderr ends: "),
                error);
        assertTrue(
                error.endsWith(
                        "\"proofgate_adapter: the connector raised KeyboardInterrupt: stopped inside the connector"
                                + " (interrupted_adapter.py:24 in step), which the library may not catch; exiting with"
                                + " status 3\""),
                error);
    }

    @Test
    void anAdapterThatExitsAtOnce() {
        assertEquals(
                "the adapter did not answer the hello: it closed its output (it exited with status 4);"
                        + " its stderr ends: \"toy: cannot load the connector\"",
                refused("exit-at-start"));
    }

    @Test
    void anAdapterThatExitsInTheMiddle() throws ConformException {
        assertEquals(
                "scenario one/finished_r1, event 1 ("
                        + folder.resolve("one.scenarios")
                        + ":5): the adapter closed its output (it exited with status 4); its stderr ends: \"Traceback"
                        + " (most recent call last):\" | \"KeyError: 'new'\"",
                error("exit-mid-run"));
    }

    /**
     * The hello includes the adapter's start: a start slower than the patience is no hang. The patience is shorter than
     * the start (6 s) but long for the answers after it, so that a loaded machine answering slowly does not decide the
     * outcome.
     */
    @Test
    void anAdapterSlowerToStartThanThePatienceIsWaitedFor() throws ConformException {
        Conform.Settings slowStart = new Conform.Settings(1, Duration.ofSeconds(5), true, 10);
        Conform.Report report =
                Conform.run(
                        scenarios,
                        () -> new ProcessAdapter(ADAPTER + "slow-start", Path.of("").toAbsolutePath()),
                        slowStart,
                        line -> {});
        assertEquals(1, report.results().size());
        assertFalse(report.results().getFirst() instanceof Result.Errored, report.results().toString());
    }

    @Test
    void anAdapterThatHangs() throws ConformException {
        assertEquals(
                "scenario one/finished_r1, the topology: the adapter gave no answer within 2 s (it hangs)",
                error("hang"));
    }

    @Test
    void anAdapterThatPrintsSomethingElseThanJson() throws ConformException {
        assertEquals(
                "scenario one/finished_r1, the topology: the adapter printed a line that is not JSON (an unknown word"
                        + " \"connector\"): \"connector ready\"",
                error("not-json"));
    }

    @Test
    void anAdapterThatNamesARequestNoEventHad() throws ConformException {
        assertEquals(
                "scenario one/finished_r1, event 1 ("
                        + folder.resolve("one.scenarios")
                        + ":5): the adapter printed a"
                        + " verdict for request \"nobody\", which no event of the scenario has named so far",
                error("unknown-request"));
    }

    @Test
    void anAdapterThatNeverPrintsTheEndMarker() throws ConformException {
        // the kit sends a scenario's messages ahead, so the next answer's lines run into this one
        assertEquals(
                "scenario one/finished_r1, event 1 ("
                        + folder.resolve("one.scenarios")
                        + ":5): the adapter answered an"
                        + " event with a summary line (an answer ends with {\"kind\":\"end\"}: was one left out?)",
                error("no-end"));
        // and the last answer without one waits for it
        assertEquals(
                "scenario one/finished_r1, the summary request: the adapter printed 1 line but no end marker"
                        + " {\"kind\":\"end\"} within 2 s",
                error("no-end-at-all"));
    }

    @Test
    void anAdapterWhoseVerdictHasAFieldOfTheWrongType() throws ConformException {
        assertEquals(
                "scenario one/finished_r1, event 1 ("
                        + folder.resolve("one.scenarios")
                        + ":5): the adapter printed a retired line without an integer \"step\": \"{\\\"kind\\\":"
                        + " \\\"retired\\\", \\\"step\\\": \\\"1\\\", \\\"id\\\": \\\"r1\\\", \\\"cause\\\":"
                        + " \\\"finished\\\"}\"",
                error("bad-field"));
    }

    /** Every answer given, then a crash when its input closes: its answers do not show it, the run does. */
    @Test
    void anAdapterThatExitsWithAFailureAfterItsLastAnswerIsAnErrorOfTheRun() throws ConformException {
        assertEquals(
                List.of(
                        "the adapter exited with status 7 after its last answer; its stderr ends: \"Segmentation fault"
                                + " in the connector's teardown\""),
                problemsAfterTheLastAnswer("exit-at-end"));
    }

    @Test
    void anAdapterThatPrintsAfterItsLastAnswerIsAnErrorOfTheRun() throws ConformException {
        assertEquals(
                List.of(
                        "the adapter printed after its last answer: \"{\\\"kind\\\": \\\"retired\\\", \\\"step\\\": 1,"
                                + " \\\"id\\\": \\\"r1\\\", \\\"cause\\\": \\\"finished\\\"}\""),
                problemsAfterTheLastAnswer("late-line"));
    }

    /**
     * One that does not exit when its input closes is stopped, and what it prints as it is stopped is read: no line it
     * writes goes unread (before, the kit waited two seconds more without reading, then stopped it).
     */
    @Test
    void anAdapterThatPrintsWhenTheKitStopsItIsAnErrorOfTheRun() throws ConformException {
        assertEquals(
                List.of(
                        "the adapter printed after its last answer: \"{\\\"kind\\\": \\\"retired\\\", \\\"step\\\": 1,"
                                + " \\\"id\\\": \\\"r1\\\", \\\"cause\\\": \\\"finished\\\"}\""),
                problemsAfterTheLastAnswer("says-on-stop"));
    }

    /** One that lingers silently is stopped; its exit status is then the kit's signal, not a failure of its own. */
    @Test
    void anAdapterThatLingersSilentlyAfterItsInputClosesIsStoppedWithoutAnError() throws ConformException {
        Conform.Report report =
                Conform.run(
                        scenarios,
                        () -> new ProcessAdapter(ADAPTER + "lingers", Path.of("").toAbsolutePath()),
                        SETTINGS,
                        line -> {});
        assertEquals(1, report.count(Result.Passed.class), report.results().toString());
        assertEquals(List.of(), report.late());
    }

    /**
     * The run's problems after the adapter's last answer, where its one scenario passed and the run still has an error.
     */
    private List<String> problemsAfterTheLastAnswer(String mode) throws ConformException {
        Conform.Report report =
                Conform.run(
                        scenarios,
                        () -> new ProcessAdapter(ADAPTER + mode, Path.of("").toAbsolutePath()),
                        SETTINGS,
                        line -> {});
        assertEquals(1, report.count(Result.Passed.class), report.results().toString());
        assertTrue(ConformText.of(report, mode).contains("0 failed, 0 not run, 1 errors"));
        return report.late();
    }

    @Test
    void anExceptionOfTheKitItselfIsAnErrorOfTheScenarioNeverADroppedOne() throws ConformException {
        Conform.Report report =
                Conform.run(
                        scenarios,
                        () ->
                                new Adapter() {
                                    private final InProcessAdapter inner = new InProcessAdapter();
                                    private int answers;

                                    @Override
                                    public void send(String message) {
                                        inner.send(message);
                                    }

                                    @Override
                                    public String receive(Duration patience) {
                                        if (++answers > 3) {
                                            throw new IllegalStateException("boom");
                                        }
                                        return inner.receive(patience);
                                    }

                                    @Override
                                    public String leftover(Duration patience) {
                                        return null;
                                    }

                                    @Override
                                    public long waitedNanos() {
                                        return 0;
                                    }

                                    @Override
                                    public void close() {}
                                },
                        SETTINGS,
                        line -> {});
        assertEquals(1, report.results().size());
        assertTrue(
                report.results().getFirst() instanceof Result.Errored e
                        && e.message()
                                .equals("scenario one/finished_r1: could not be judged: IllegalStateException: boom"),
                report.results().toString());
    }

    @Test
    void anAdapterOfAnotherProtocolOrWithAnUnknownCapability() {
        assertEquals(
                "the adapter speaks \"proofgate-adapter/v0\"; the kit speaks proofgate-adapter/v1",
                refused("wrong-protocol"));
        assertEquals(
                "the adapter did not answer the hello: it declared an unknown capability \"reason_fact\""
                        + " (known: reason_facts, state, sliding, wide_integers, restore, namespace)",
                refused("unknown-capability"));
    }

    @Test
    void aCommandThatDoesNotExist() {
        String message =
                assertThrows(
                                ConformException.class,
                                () ->
                                        Conform.run(
                                                scenarios,
                                                () ->
                                                        new ProcessAdapter(
                                                                "no-such-adapter-command",
                                                                Path.of("").toAbsolutePath()),
                                                SETTINGS,
                                                line -> {}))
                        .getMessage();
        assertTrue(
                message.startsWith("the adapter did not answer the hello: it ")
                        && message.contains("(it exited with status 127)")
                        && message.contains("not found"),
                message);
    }
}
