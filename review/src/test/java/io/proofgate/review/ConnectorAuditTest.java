package io.proofgate.review;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.audit.Approvals;
import io.proofgate.conform.ConformException;
import io.proofgate.conform.Scenario;
import io.proofgate.conform.ScenarioReader;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The connector audit on a git repository this test builds: the Python example (examples/conform/toy_connector.py, with
 * its planted bug) at revisions that fix the bug, plant a new one, change a reason's text only, reorder one step's
 * verdicts, rename and comment only, crash, and approve themselves. Each revision is one edit of the example, checked
 * to apply.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConnectorAuditTest {

    private static final String TOY = "examples/conform/toy_connector.py";
    private static final String COMMAND = "python3 " + TOY;

    /** Generous: an answer's time never decides an outcome here, however loaded the machine. */
    private static final ConnectorAudit.Settings SETTINGS = new ConnectorAudit.Settings(1, Duration.ofSeconds(120), 10);

    @TempDir static Path repo;
    private List<Scenario> scenarios;

    @BeforeAll
    void build() throws Exception {
        scenarios = scenarios();
        copy(Path.of("..", "examples"), repo.resolve("examples"));
        if (Files.isDirectory(Path.of("..", "adapters"))) {
            copy(Path.of("..", "adapters"), repo.resolve("adapters"));
        }
        git("init", "-q");
        commit("base: the example with its planted bug", "bug");
        edit("FIXED = \"--fixed\" in sys.argv[1:]", "FIXED = True");
        commit("the planted bug fixed", "fixed");
        revision("fixed", "regression", "if block <= 0:", "if block < 0:");
        revision(
                "fixed",
                "reason",
                "out.append({\"kind\": \"rejected\", \"step\": step, \"id\": request_id, \"code\": code})",
                "out.append({\"kind\": \"rejected\", \"step\": step, \"id\": request_id, \"code\": code, \"reason\":"
                        + " \"rejected: \" + code})");
        revision(
                "fixed",
                "reordered",
                "    def publish(self, step, request_id, out):",
                "        out.reverse()\n\n    def publish(self, step, request_id, out):");
        revision("fixed", "renamed", "full_quorum", "at_full_quorum");
        revision("fixed", "salted", "DIGEST_SALT = b\"toy-connector/v1\"", "DIGEST_SALT = b\"toy-connector/v2\"");
        revision(
                "fixed",
                "crash",
                "    def held_by(self, event):\n",
                "    def held_by(self, event):\n        raise SystemExit(3)\n");
        revision("fixed", "unstartable", "FIXED = True", "FIXED = True\nimport proofgate_no_such_module");
        revision(
                "fixed",
                "refusing",
                "    def step(self, step):\n        out = []\n",
                "    def step(self, step):\n        raise RuntimeError(\"no backend\")\n");
        revision("refusing", "refusing-too", "RuntimeError(\"no backend\")", "RuntimeError(\"still no backend\")");
        revision(
                "fixed",
                "probes-refused",
                "    def namespace(self, probe):\n",
                "    def namespace(self, probe):\n        raise RuntimeError(\"no namespace\")\n");
        revision(
                "probes-refused",
                "probes-refused-too",
                "RuntimeError(\"no namespace\")",
                "RuntimeError(\"still no namespace\")");
        revision(
                "fixed",
                "token-twice",
                "if event.computed < s < event.prompt_tokens",
                "if event.computed < s <= event.prompt_tokens");
        revision(
                "fixed",
                "own-policy",
                "capabilities = (\"state\", \"sliding\", \"restore\", \"namespace\")",
                "capabilities = (\"state\", \"sliding\", \"restore\", \"namespace\")\n    connector_policy = \"own\"");
        revision(
                "fixed",
                "no-sliding",
                "capabilities = (\"state\", \"sliding\", \"restore\", \"namespace\")",
                "capabilities = (\"state\", \"restore\", \"namespace\")");
        revision(
                "fixed",
                "late",
                "FIXED = True",
                "FIXED = True\n"
                    + "import atexit\n"
                    + "atexit.register(lambda: os.write(1, b'{\"kind\":\"plan\",\"note\":\"after the last answer\"}\\n"
                    + "'))");
        // a connector that says, at the summary request, that no scenario applies to it (it declares no state, so the
        // state is asked for only there), without its bug and with it
        git("checkout", "-q", "fixed");
        edit(
                "capabilities = (\"state\", \"sliding\", \"restore\", \"namespace\")",
                "capabilities = (\"sliding\", \"restore\", \"namespace\")");
        edit("from proofgate_adapter import Adapter,", "from proofgate_adapter import NotApplicable, Adapter,");
        edit(
                "    def state(self):\n        return self.connector.state()\n",
                "    def state(self):\n        raise NotApplicable(\"no summary\")\n");
        commit("dodging", "dodging");
        revision("dodging", "dodging-bug", "FIXED = True", "FIXED = \"--fixed\" in sys.argv[1:]");
        // answers that change from run to run, with the same code at both revisions: a plan now and
        // then left out, and a digest salted once per process
        revision(
                "fixed",
                "flaky",
                "        self.counters.plans += 1\n",
                "        if os.urandom(1)[0] < 32:\n            return\n        self.counters.plans += 1\n");
        revision(
                "fixed",
                "nonce",
                "DIGEST_SALT = b\"toy-connector/v1\"",
                "DIGEST_SALT = b\"toy-connector/v1\" + os.urandom(8)");
        // the every-handoff example copying asynchronously: pinned, then unpinned, then unpinned for longer
        git("checkout", "-q", "fixed");
        edit(EVERY_HANDOFF, "ASYNC = \"--async\" in sys.argv[1:] or NO_PIN", "ASYNC = True");
        commit("async", "async");
        git("checkout", "-q", "async");
        edit(EVERY_HANDOFF, "NO_PIN = \"--no-pin\" in sys.argv[1:]", "NO_PIN = True");
        commit("unpinned", "unpinned");
        git("checkout", "-q", "unpinned");
        edit(EVERY_HANDOFF, "COPY_STEPS = 4 if \"--slow\" in sys.argv[1:] else 2", "COPY_STEPS = 4");
        commit("unpinned-slower", "unpinned-slower");
        git("checkout", "-q", "fixed");
    }

    private static final String EVERY_HANDOFF = "examples/conform/every_handoff_connector.py";

    /**
     * Dropping the pin of an asynchronous copy changes only the plan's "pinned" where it is printed, and the copy turns
     * unsafe at a later event (a finish before the workers are done): a safety regression all the same. Copies that end
     * later change only the saved lines: a difference too, never "the same".
     */
    @Test
    void anUnpinnedCopyIsASafetyRegressionAndALongerOneADifference() throws Exception {
        List<Scenario> finished = generated("ci", "finished");
        assertTrue(finished.size() > 1000, "scenarios: " + finished.size());
        String command = "python3 " + EVERY_HANDOFF;
        ConnectorAuditReport unpinned =
                ConnectorChange.run(
                        new ConnectorChange.Request(
                                repo, "async", "unpinned", command, command, finished, SETTINGS, false),
                        line -> {});
        String text = ConnectorAuditText.write(unpinned);
        assertEquals(ConnectorAuditReport.DIFFERENCES, unpinned.exitCode(), text);
        Comparison.Differs first = unpinned.classes().getFirst().first();
        assertEquals(ModelJudgement.SAFETY_REGRESSION, first.judgement(), text);
        assertEquals("plan: how its blocks are copied differs (copy, pinned)", first.rule(), text);
        assertTrue(
                first.model().stream()
                        .anyMatch(
                                m ->
                                        m.startsWith("(unsafe at the head: while its workers copy it: step ")
                                                && m.contains(" holds garbage (released by r")),
                text);

        // no scenario compared is nothing judged, never "no unaccepted difference"
        ConnectorAuditReport none =
                ConnectorChange.run(
                        new ConnectorChange.Request(
                                repo, "async", "unpinned", command, command, List.of(), SETTINGS, false),
                        line -> {});
        assertEquals(ConnectorAuditReport.NOT_JUDGED, none.exitCode(), ConnectorAuditText.write(none));
        assertTrue(none.verdict().contains("no scenario was compared"), none.verdict());

        ConnectorAuditReport slower =
                ConnectorChange.run(
                        new ConnectorChange.Request(
                                repo, "unpinned", "unpinned-slower", command, command, finished, SETTINGS, false),
                        line -> {});
        text = ConnectorAuditText.write(slower);
        assertEquals(ConnectorAuditReport.DIFFERENCES, slower.exitCode(), text);
        assertTrue(
                slower.classes().stream()
                        .allMatch(c -> c.first().rule().equals("saved: the copies that end here differ")),
                text);
    }

    /** The generated scenarios of one model's topic file (every file for the empty topic). */
    private static List<Scenario> generated(String model, String topic) throws Exception {
        return ScenarioReader.read(Path.of("..", "generated-tests", "scenarios", model)).stream()
                .filter(s -> s.suite().endsWith(topic))
                .toList();
    }

    /**
     * A change of the restore half is read and classified like one of plans: a hit that may now reach the prompt's end
     * is a safety regression (the last token applied twice), on the generated lookups, with the unsafe hit in the
     * model's lines.
     */
    @Test
    void aHitReachingThePromptsEndIsASafetyRegression() throws Exception {
        List<Scenario> lookups = generated("gen-restore", "");
        assertTrue(lookups.size() > 100, "scenarios: " + lookups.size());
        String command = "python3 examples/conform/toy_connector.py";
        ConnectorAuditReport report =
                ConnectorChange.run(
                        new ConnectorChange.Request(
                                repo, "fixed", "token-twice", command, command, lookups, SETTINGS, false),
                        line -> {});
        String text = ConnectorAuditText.write(report);
        assertEquals(ConnectorAuditReport.DIFFERENCES, report.exitCode(), text);
        Comparison.Differs first = report.classes().getFirst().first();
        assertEquals(ModelJudgement.SAFETY_REGRESSION, first.judgement(), text);
        assertTrue(
                first.head().stream()
                        .anyMatch(line -> line.contains("\"kind\":\"hit\"") && line.contains("\"tokens\":6912")),
                text);
        assertTrue(first.model().stream().anyMatch(m -> m.contains("the last token twice")), text);
    }

    /**
     * An adapter whose answers do not repeat makes no difference to accept: the same code at both revisions, yet the
     * first run differs; run again, the differences do not repeat, and the audit cannot judge, naming the first
     * scenario or probe that showed it.
     */
    @Test
    void answersThatDoNotRepeatAreNotJudged() throws Exception {
        // a few hundred scenarios are enough for one plan in eight left out to show
        List<Scenario> some = scenarios.subList(0, 300);
        ConnectorAuditReport flaky =
                ConnectorChange.run(
                        new ConnectorChange.Request(repo, "flaky", "flaky", COMMAND, COMMAND, some, SETTINGS, false),
                        line -> {});
        assertEquals(ConnectorAuditReport.NOT_JUDGED, flaky.exitCode(), ConnectorAuditText.write(flaky));
        assertTrue(flaky.classes().isEmpty(), ConnectorAuditText.write(flaky));
        assertTrue(
                flaky.verdict().startsWith("could not be judged: answers are not reproducible (scenario "),
                flaky.verdict());
        assertTrue(flaky.verdict().contains("; run again, "), flaky.verdict());

        ConnectorAuditReport nonce =
                ConnectorChange.run(
                        new ConnectorChange.Request(
                                repo, "nonce", "nonce", COMMAND, COMMAND, scenarios.subList(0, 20), SETTINGS, false),
                        line -> {});
        assertEquals(ConnectorAuditReport.NOT_JUDGED, nonce.exitCode(), ConnectorAuditText.write(nonce));
        assertTrue(
                nonce.verdict().startsWith("could not be judged: answers are not reproducible (namespace probe "),
                nonce.verdict());
        assertTrue(nonce.verdict().contains("revision's adapter answered"), nonce.verdict());
    }

    @Test
    void theFixIsASafetyFixFirstWithAShortWitness() throws Exception {
        ConnectorAuditReport report = theFix();
        assertEquals(ConnectorAuditReport.DIFFERENCES, report.exitCode(), ConnectorAuditText.write(report));
        // every unaccepted class is an error in SARIF, fixes too: a check that fails on errors fails with the exit
        var sarif = new com.fasterxml.jackson.databind.ObjectMapper().readTree(ConnectorAuditSarif.write(report));
        var results = sarif.path("runs").get(0).path("results");
        assertFalse(results.isEmpty());
        results.forEach(r -> assertEquals("error", r.path("level").asText(), r.toString()));
        // where the planted plan published a block that no longer held the target state, the fix is a
        // safety fix, ranked first; where the block still held it, a fix of policy
        assertEquals(
                ModelJudgement.SAFETY_FIX,
                report.classes().getFirst().first().judgement(),
                ConnectorAuditText.write(report));
        DifferenceClass fix =
                report.classes().stream()
                        .filter(
                                c ->
                                        c.first().judgement() == ModelJudgement.SAFETY_FIX
                                                && c.first().rule().equals("plan: blocks_by_group, recurrent differ"))
                        .findFirst()
                        .orElseThrow();
        assertEquals(DifferenceKind.VERDICT, fix.first().kind());
        assertTrue(fix.events() <= 3, "witness of " + fix.events() + " events");
        assertTrue(
                fix.first().model().getLast().startsWith("(unsafe at the base: step "), fix.first().model().toString());
        assertTrue(
                report.classes().stream()
                        .allMatch(
                                c ->
                                        c.first().judgement() == ModelJudgement.SAFETY_FIX
                                                || c.first().judgement() == ModelJudgement.FIX),
                ConnectorAuditText.write(report));
        assertTrue(report.classes().stream().anyMatch(c -> c.first().judgement() == ModelJudgement.FIX));
        // the second: in a restore log the planted bug rejects one plan and publishes another unsafe one in one step
        assertTrue(
                ConnectorAuditText.write(report).contains("(0 safety regression, 2 safety fix, "),
                ConnectorAuditText.write(report));
        assertEquals(List.of(TOY), report.changedFiles());
        assertValidSarif(report);
        String markdown = ConnectorAuditMarkdown.write(report);
        assertTrue(markdown.startsWith("## proofgate audit: " + report.verdict() + "\n"), markdown);
        assertTrue(
                markdown.contains(
                        "| `"
                                + fix.fingerprint()
                                + "` plan: blocks_by_group, recurrent differ | verdict | safety fix | "),
                markdown);
        com.fasterxml.jackson.databind.JsonNode json =
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(ConnectorAuditJson.write(report));
        assertEquals("safety_fix", json.path("classes").path(0).path("model").asText());
        assertEquals("verdict", json.path("classes").path(0).path("kind").asText());
        int at = report.classes().indexOf(fix);
        assertEquals(fix.events() + 1, json.path("classes").path(at).path("witness").size());
    }

    /**
     * The SARIF report is valid SARIF 2.1.0, one result per class, changed namespace name and dropped declaration, each
     * with its fingerprint.
     */
    private static void assertValidSarif(ConnectorAuditReport report) throws Exception {
        String sarif = ConnectorAuditSarif.write(report);
        com.networknt.schema.Schema schema;
        try (var in = Files.newInputStream(Path.of("src", "test", "resources", "sarif", "sarif-schema-2.1.0.json"))) {
            schema =
                    com.networknt.schema.SchemaRegistry.withDefaultDialect(
                                    com.networknt.schema.SpecificationVersion.DRAFT_4)
                            .getSchema(in);
        }
        assertEquals(List.of(), schema.validate(sarif, com.networknt.schema.InputFormat.JSON), sarif);
        com.fasterxml.jackson.databind.JsonNode results =
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(sarif).path("runs").path(0).path("results");
        assertEquals(
                report.classes().size() + report.namespace().changed().size() + report.dropped().size(),
                results.size(),
                sarif);
        for (com.fasterxml.jackson.databind.JsonNode result : results) {
            assertTrue(
                    result.path("partialFingerprints").path("proofgateFinding/v1").asText().matches("[0-9a-f]{16}"),
                    sarif);
        }
    }

    @Test
    void aNewBugIsARegression() throws Exception {
        ConnectorAuditReport report = audit("fixed", "regression", false);
        assertEquals(ConnectorAuditReport.DIFFERENCES, report.exitCode());
        assertFalse(report.classes().isEmpty());
        assertTrue(
                report.classes().stream()
                        .allMatch(
                                c ->
                                        c.first().judgement() == ModelJudgement.REGRESSION
                                                && c.first().kind() == DifferenceKind.VERDICT),
                ConnectorAuditText.write(report));
        assertTrue(
                report.classes().stream().anyMatch(c -> c.first().rule().startsWith("rejected null_block -> ")),
                ConnectorAuditText.write(report));
    }

    /**
     * A plan printed before the adapter says the scenario does not apply to its connector was published all the same:
     * the planted bug, at a head that dodges every scenario so, is a safety regression, never a scenario neither
     * revision ran.
     */
    @Test
    void anUnsafePlanIsASafetyRegressionEvenWhereTheScenarioThenSaysNotToApply() throws Exception {
        ConnectorAuditReport report = audit("dodging", "dodging-bug", false);
        String text = ConnectorAuditText.write(report);
        assertEquals(ConnectorAuditReport.DIFFERENCES, report.exitCode(), text);
        assertTrue(
                report.classes().stream().anyMatch(c -> c.first().judgement() == ModelJudgement.SAFETY_REGRESSION),
                text);
    }

    /**
     * A head that says at the summary request that the scenario does not apply cannot be compared there, and the report
     * names that message (a scenario's events, then its summary request), not the topology's.
     */
    @Test
    void aScenarioOneRevisionSaysNotToApplyIsRefusedAtTheMessageItAnswered() throws Exception {
        ConnectorAuditReport report = audit("fixed", "dodging", false);
        String text = ConnectorAuditText.write(report);
        assertEquals(ConnectorAuditReport.NOT_JUDGED, report.exitCode(), text);
        Scenario first = report.refusedByOne().getFirst().scenario();
        assertTrue(
                text.contains(
                        first.id()
                                + ": the head revision refused message "
                                + (first.events().size() + 1)
                                + ": \"not applicable: no summary\""),
                text);
    }

    @Test
    void aReasonsTextIsAReasonOnlyDifference() throws Exception {
        ConnectorAuditReport report = audit("fixed", "reason", false);
        assertFalse(report.classes().isEmpty());
        assertTrue(
                report.classes().stream()
                        .allMatch(
                                c ->
                                        c.first().kind() == DifferenceKind.REASON_ONLY
                                                && c.first().judgement() == ModelJudgement.MODEL_SILENT),
                ConnectorAuditText.write(report));
        assertTrue(report.classes().getFirst().first().rule().endsWith(": reason text differs"));
    }

    @Test
    void reorderedVerdictsAreAnOrderOnlyDifference() throws Exception {
        ConnectorAuditReport report = audit("fixed", "reordered", false);
        assertFalse(report.classes().isEmpty());
        assertTrue(
                report.classes().stream().allMatch(c -> c.first().kind() == DifferenceKind.ORDER_ONLY),
                ConnectorAuditText.write(report));
        // the protocol fixes the order (new requests, then cached ones): the head breaks it
        assertTrue(
                report.classes().stream().allMatch(c -> c.first().judgement() == ModelJudgement.REGRESSION),
                ConnectorAuditText.write(report));
    }

    @Test
    void aDigestSaltIsNamespaceImpactAndNothingElse() throws Exception {
        ConnectorAuditReport report = audit("fixed", "salted", false);
        assertTrue(report.classes().isEmpty(), ConnectorAuditText.write(report));
        assertTrue(report.namespace().computed());
        assertEquals(
                List.of("prefix_digest"),
                report.namespace().changed().stream().map(n -> n.name()).toList(),
                ConnectorAuditText.write(report));
        var digest = report.namespace().changed().getFirst();
        assertEquals(digest.probes(), digest.changed(), "the salt is in every digest");
        assertEquals("span/h1/p1/s0", digest.firstProbe());
        assertTrue(
                report.namespace().names().stream()
                        .filter(n -> !n.name().equals("prefix_digest"))
                        .allMatch(n -> n.changed() == 0));
        assertEquals(ConnectorAuditReport.DIFFERENCES, report.exitCode());
        assertEquals("1 unaccepted namespace change", report.verdict());
        assertTrue(
                ConnectorAuditText.write(report).contains("prefix_digest: changed on "),
                ConnectorAuditText.write(report));
        assertValidSarif(report);
    }

    @Test
    void renamesAndCommentsAreNothing() throws Exception {
        ConnectorAuditReport report = audit("fixed", "renamed", false);
        assertEquals(ConnectorAuditReport.CLEAN, report.exitCode(), ConnectorAuditText.write(report));
        assertTrue(report.classes().isEmpty());
        assertEquals(scenarios.size() - report.run().count(Outcome.NotRun.class), report.same());
        assertTrue(
                report.namespace().computed() && report.namespace().changed().isEmpty(),
                ConnectorAuditText.write(report));
    }

    @Test
    void anAdapterThatCrashesAtHeadCannotBeJudged() throws Exception {
        // two errors are enough to show where they are charged; each costs a fresh adapter
        ConnectorAuditReport report =
                ConnectorChange.run(
                        new ConnectorChange.Request(
                                repo,
                                "fixed",
                                "crash",
                                COMMAND,
                                COMMAND,
                                scenarios,
                                new ConnectorAudit.Settings(1, SETTINGS.patience(), 2),
                                false),
                        line -> {});
        assertEquals(ConnectorAuditReport.NOT_JUDGED, report.exitCode());
        assertFalse(report.errors().isEmpty());
        Outcome.Errored first = report.errors().getFirst();
        assertEquals("head", first.side());
        assertTrue(first.message().contains("scenario " + first.scenario().id()), first.message());
        assertTrue(ConnectorAuditText.write(report).contains(first.scenario().id()));
        // each error is charged to a scenario with a held event (where the head exits), never to the
        // scenario before it, whose answers the exit also lost when the next was sent ahead
        List<Outcome.Errored> charged = report.errors().stream().filter(e -> !e.side().equals("run")).toList();
        assertFalse(charged.isEmpty());
        for (Outcome.Errored error : charged) {
            assertTrue(
                    error.scenario().events().stream().anyMatch(e -> e.line().contains("\"kind\":\"held\"")),
                    error.scenario().id() + " has no held event but was charged: " + error.message());
        }
        assertTrue(report.verdict().startsWith("could not be judged"), report.verdict());
        // a SARIF log of no results says it is not a clean run
        var invocation =
                new com.fasterxml.jackson.databind.ObjectMapper()
                        .readTree(ConnectorAuditSarif.write(report))
                        .path("runs")
                        .get(0)
                        .path("invocations")
                        .get(0);
        assertFalse(invocation.path("executionSuccessful").asBoolean(true), invocation.toString());
    }

    /**
     * The revision's folder is the audit's own and gone when the message is read: the adapter's stderr names its files
     * from the revision's root, as the author finds them in their repository.
     */
    @Test
    void anAdapterThatCannotStartNamesItsFilesFromTheRevisionsRoot() throws Exception {
        ConformException e = assertThrows(ConformException.class, () -> audit("fixed", "unstartable", false));
        assertTrue(e.getMessage().startsWith("the head revision's adapter did not answer the hello"), e.getMessage());
        assertTrue(e.getMessage().contains("its stderr ends (paths from the root of its revision): "), e.getMessage());
        assertTrue(e.getMessage().contains("File \\\"" + TOY + "\\\", line "), e.getMessage());
        assertTrue(e.getMessage().contains("No module named 'proofgate_no_such_module'"), e.getMessage());
        assertFalse(e.getMessage().contains("proofgate-audit-"), e.getMessage());
    }

    /**
     * An adapter run from the working tree (an absolute path, an installed package, PYTHONPATH) runs the same connector
     * at both revisions, and the audit would compare it with itself: the adapter is told both folders, and the library
     * refuses to run such code.
     */
    @Test
    void anAdapterRunFromTheWorkingTreeInsteadOfTheRevisionIsRefused() throws Exception {
        String fromTheWorkingTree = "python3 " + repo.resolve(TOY).toAbsolutePath();
        ConformException e =
                assertThrows(
                        ConformException.class,
                        () ->
                                ConnectorChange.run(
                                        new ConnectorChange.Request(
                                                repo,
                                                "bug",
                                                "fixed",
                                                fromTheWorkingTree,
                                                fromTheWorkingTree,
                                                scenarios,
                                                SETTINGS,
                                                false),
                                        line -> {}));
        assertTrue(e.getMessage().contains("adapter did not answer the hello"), e.getMessage());
        assertTrue(
                e.getMessage()
                        .contains("module __main__ is the working tree's " + TOY + ", not the audited revision's"),
                e.getMessage());
        assertTrue(e.getMessage().contains("run the adapter by a path relative to the repository"), e.getMessage());
    }

    /**
     * Both revisions refuse every step alike (a connector that cannot run at either): nothing is compared after a
     * refusal, so that is no "the same" and no clean audit.
     */
    @Test
    void scenariosBothRevisionsRefuseAreNotJudged() throws Exception {
        ConnectorAuditReport report = audit("refusing", "refusing-too", false);
        assertEquals(ConnectorAuditReport.NOT_JUDGED, report.exitCode(), ConnectorAuditText.write(report));
        assertFalse(report.refusedByBoth().isEmpty());
        assertEquals(0, report.same(), "a scenario with a step was counted the same");
        assertTrue(report.verdict().contains("both revisions refused"), report.verdict());
        String text = ConnectorAuditText.write(report);
        assertTrue(text.contains("Refused by both revisions (not compared): "), text);
        assertTrue(text.contains("still no backend"), text);
    }

    /** The same for namespace probes: two empty answers compare equal, but no name was compared. */
    @Test
    void namespaceProbesBothRevisionsRefuseAreNotJudged() throws Exception {
        ConnectorAuditReport report = audit("probes-refused", "probes-refused-too", false);
        assertEquals(ConnectorAuditReport.NOT_JUDGED, report.exitCode(), ConnectorAuditText.write(report));
        assertEquals(report.namespace().probes(), report.namespace().refusedByBoth().size());
        assertTrue(report.verdict().contains("namespace probes both revisions refused"), report.verdict());
        assertTrue(ConnectorAuditText.write(report).contains("  not compared: "), ConnectorAuditText.write(report));
    }

    /**
     * A head that stops declaring a capability switches off what it gates (here every sliding scenario goes unrun):
     * that is a difference to accept, never a clean audit by itself.
     */
    @Test
    void aCapabilityTheHeadNoLongerDeclaresIsADifferenceToAccept() throws Exception {
        ConnectorAuditReport report = audit("fixed", "no-sliding", false);
        assertEquals(List.of(new ConnectorAuditReport.Dropped("capability", "sliding")), report.dropped());
        assertEquals(ConnectorAuditReport.DIFFERENCES, report.exitCode(), ConnectorAuditText.write(report));
        assertEquals("1 unaccepted declaration the head drops", report.verdict());
        String fingerprint = report.dropped().getFirst().fingerprint();
        assertTrue(
                ConnectorAuditText.write(report).contains("[" + fingerprint + "] capability sliding: "),
                ConnectorAuditText.write(report));
        assertTrue(ConnectorAuditSarif.write(report).contains(fingerprint));

        git("checkout", "-q", "fixed");
        Files.writeString(
                repo.resolve("audit-accepted.json"),
                "{\"schema\":\"proofgate-audit-accepted/v1\",\"accepted\":["
                        + "{\"fingerprint\":\""
                        + fingerprint
                        + "\",\"justification\":\"sliding windows are no longer offered\"}]}");
        commit("the reviewers accept that sliding goes", "accepting-no-sliding");
        revision(
                "accepting-no-sliding",
                "no-sliding-accepted",
                "capabilities = (\"state\", \"sliding\", \"restore\", \"namespace\")",
                "capabilities = (\"state\", \"restore\", \"namespace\")");
        ConnectorAuditReport accepted = audit("accepting-no-sliding", "no-sliding-accepted", false);
        assertEquals(ConnectorAuditReport.CLEAN, accepted.exitCode(), ConnectorAuditText.write(accepted));
        git("checkout", "-q", "fixed");
    }

    /**
     * A head that declares a connector policy of its own is no longer compared with the kit's policy, only judged on
     * safety: a difference to accept, even where every answer is the same, as for a dropped capability.
     */
    @Test
    void aConnectorPolicyTheHeadNoLongerDeclaresIsADifferenceToAccept() throws Exception {
        ConnectorAuditReport report = audit("fixed", "own-policy", false);
        String text = ConnectorAuditText.write(report);
        assertTrue(report.classes().isEmpty(), "the answers are the same: " + text);
        assertEquals(
                List.of(new ConnectorAuditReport.Dropped("connector_policy", "latch-at-target")), report.dropped());
        assertEquals(ConnectorAuditReport.DIFFERENCES, report.exitCode(), text);
        assertEquals("1 unaccepted declaration the head drops", report.verdict());
        String fingerprint = report.dropped().getFirst().fingerprint();
        assertTrue(text.contains("[" + fingerprint + "] connector_policy latch-at-target: not accepted"), text);
        com.fasterxml.jackson.databind.JsonNode json =
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(ConnectorAuditJson.write(report));
        assertEquals(
                "latch-at-target", json.path("dropped").path(0).path("connector_policy").asText(), json.toString());
        assertTrue(json.path("dropped").path(0).path("unaccepted").asBoolean(), json.toString());
        assertTrue(ConnectorAuditSarif.write(report).contains(fingerprint));
        assertValidSarif(report);
    }

    /** As conform: output after an adapter's last answer is output nothing compared, never a clean audit. */
    @Test
    void anAdapterThatPrintsAfterItsLastAnswerCannotBeJudged() throws Exception {
        ConnectorAuditReport report = audit("fixed", "late", false);
        assertEquals(ConnectorAuditReport.NOT_JUDGED, report.exitCode(), ConnectorAuditText.write(report));
        assertEquals(1, report.errors().size(), report.errors().toString());
        Outcome.Errored error = report.errors().getFirst();
        assertEquals("head", error.side());
        assertTrue(
                error.message()
                        .startsWith(
                                "scenario "
                                        + error.scenario().id()
                                        + ": the head revision's adapter printed"
                                        + " after its last answer: "),
                error.message());
        assertTrue(error.message().contains("after the last answer"), error.message());
    }

    @Test
    void theWorkingTreeIsTheDefaultHead() throws Exception {
        edit("FIXED = True", "FIXED = \"--fixed\" in sys.argv[1:]");
        try {
            ConnectorAuditReport report = audit("fixed", null, false);
            assertEquals(Checkout.WORKTREE, report.head().name());
            assertEquals(List.of(TOY), report.head().uncommitted());
            // the planted bug back: unsafe where its block no longer holds the target state, ranked first
            assertFalse(report.classes().isEmpty());
            assertEquals(
                    ModelJudgement.SAFETY_REGRESSION,
                    report.classes().getFirst().first().judgement(),
                    ConnectorAuditText.write(report));
            assertTrue(
                    report.classes().stream()
                            .allMatch(
                                    c ->
                                            c.first().judgement() == ModelJudgement.REGRESSION
                                                    || c.first().judgement() == ModelJudgement.SAFETY_REGRESSION),
                    ConnectorAuditText.write(report));
        } finally {
            git("checkout", "-q", "--", TOY);
        }
    }

    @Test
    void aChangeCannotApproveItself() throws Exception {
        ConnectorAuditReport first = theFix();
        String accepted = acceptance(first);
        git("checkout", "-q", "fixed");
        Files.writeString(repo.resolve("audit-accepted.json"), accepted);
        commit("the fix approves itself", "self-approved");
        ConnectorAuditReport report = audit("bug", "self-approved", false);
        assertEquals(ConnectorAuditReport.DIFFERENCES, report.exitCode(), ConnectorAuditText.write(report));
        assertTrue(
                report.classes().stream()
                        .allMatch(c -> report.approvals().of(c.fingerprint()) instanceof Approvals.ByChange));
        assertTrue(ConnectorAuditText.write(report).contains("Accepted by this change, needs a reviewer: "));
        assertEquals(ConnectorAuditReport.CLEAN, audit("bug", "self-approved", true).exitCode());

        // accepted at the base, the same differences pass
        git("checkout", "-q", "bug");
        Files.writeString(repo.resolve("audit-accepted.json"), accepted);
        commit("the reviewers accept the fix ahead of it", "bug-accepting");
        edit("FIXED = \"--fixed\" in sys.argv[1:]", "FIXED = True");
        commit("the fix, accepted at its base", "fixed-accepted");
        ConnectorAuditReport approved = audit("bug-accepting", "fixed-accepted", false);
        assertEquals(ConnectorAuditReport.CLEAN, approved.exitCode(), ConnectorAuditText.write(approved));
        git("checkout", "-q", "fixed");
    }

    /**
     * No acceptance removes a safety regression (as none removes a broken invariant in the spec audit): the planted bug
     * put back, every finding of it accepted at the base, is still exit 1 on its safety regressions alone.
     */
    @Test
    void aSafetyRegressionCannotBeAccepted() throws Exception {
        ConnectorAuditReport regression = audit("fixed", "bug", false);
        assertTrue(
                regression.classes().stream().anyMatch(c -> c.first().judgement() == ModelJudgement.SAFETY_REGRESSION),
                ConnectorAuditText.write(regression));
        git("checkout", "-q", "fixed");
        Files.writeString(repo.resolve("audit-accepted.json"), acceptance(regression));
        commit("the reviewers accept the planted bug ahead of it", "fixed-accepting");
        edit("FIXED = True", "FIXED = \"--fixed\" in sys.argv[1:]");
        commit("the planted bug, accepted at its base", "bug-accepted");
        ConnectorAuditReport report = audit("fixed-accepting", "bug-accepted", false);
        String text = ConnectorAuditText.write(report);
        assertEquals(ConnectorAuditReport.DIFFERENCES, report.exitCode(), text);
        assertFalse(report.open().isEmpty(), text);
        assertTrue(
                report.open().stream().allMatch(c -> c.first().judgement() == ModelJudgement.SAFETY_REGRESSION), text);
        assertEquals(
                regression.classes().stream()
                        .filter(c -> c.first().judgement() == ModelJudgement.SAFETY_REGRESSION)
                        .count(),
                report.open().size(),
                text);
        assertTrue(text.contains("not accepted: a safety regression, which no acceptance removes"), text);
        // the namespace changes it accepts are accepted, and the JSON says by what, as it does for a class
        com.fasterxml.jackson.databind.JsonNode json =
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(ConnectorAuditJson.write(report));
        List<com.fasterxml.jackson.databind.JsonNode> changed = new ArrayList<>();
        json.path("namespace")
                .path("names")
                .forEach(
                        n -> {
                            if (n.path("changed").asInt() > 0) {
                                changed.add(n);
                            }
                        });
        assertFalse(changed.isEmpty(), text);
        for (com.fasterxml.jackson.databind.JsonNode name : changed) {
            assertEquals("the planted bug is fixed", name.path("accepted").asText(), name.toString());
            assertFalse(name.path("unaccepted").asBoolean(), name.toString());
        }
        git("checkout", "-q", "fixed");
    }

    private static String acceptance(ConnectorAuditReport report) {
        // the differences, and the namespace names the fix changes (the toy's plan_selection goes through the planted
        // bug)
        List<String> fingerprints =
                new ArrayList<>(report.classes().stream().map(DifferenceClass::fingerprint).toList());
        report.namespace().changed().forEach(n -> fingerprints.add(NamespaceRun.Result.fingerprint(n)));
        StringBuilder json = new StringBuilder("{\"schema\":\"proofgate-audit-accepted/v1\",\"accepted\":[");
        for (int i = 0; i < fingerprints.size(); i++) {
            json.append(i == 0 ? "" : ",")
                    .append("{\"fingerprint\":\"")
                    .append(fingerprints.get(i))
                    .append("\",\"justification\":\"the planted bug is fixed\"}");
        }
        return json.append("]}").toString();
    }

    private ConnectorAuditReport fix;

    /** The audit of the planted bug's fix, which two tests read: made once (revisions are fixed commits). */
    private ConnectorAuditReport theFix() throws Exception {
        if (fix == null) {
            fix = audit("bug", "fixed", false);
        }
        return fix;
    }

    private ConnectorAuditReport audit(String base, String head, boolean acceptFromHead) throws Exception {
        return ConnectorChange.run(
                new ConnectorChange.Request(repo, base, head, COMMAND, COMMAND, scenarios, SETTINGS, acceptFromHead),
                line -> {});
    }

    /**
     * A thousand scenarios that reach what the revisions change: the hand-written logs, every edge of gen-edges, and
     * gen-batch's steps with several requests (order).
     */
    private static List<Scenario> scenarios() throws Exception {
        List<Scenario> all =
                new ArrayList<>(
                        ScenarioReader.read(Path.of("..", "validator", "src", "test", "resources", "scenarios")));
        all.addAll(ScenarioReader.read(Path.of("..", "generated-tests", "scenarios", "gen-edges")));
        all.addAll(
                ScenarioReader.read(Path.of("..", "generated-tests", "scenarios", "gen-batch")).stream()
                        .filter(s -> s.suite().endsWith("value-empty") || s.suite().endsWith("entry-intermediate"))
                        .toList());
        return all;
    }

    private void revision(String from, String tag, String old, String replacement) throws Exception {
        git("checkout", "-q", from);
        edit(old, replacement);
        commit(tag, tag);
    }

    private void edit(String old, String replacement) throws IOException {
        edit(TOY, old, replacement);
    }

    private void edit(String path, String old, String replacement) throws IOException {
        Path file = repo.resolve(path);
        String text = Files.readString(file);
        assertTrue(text.contains(old), "the example no longer holds " + old);
        Files.writeString(file, text.replace(old, replacement));
    }

    private void commit(String message, String tag) throws Exception {
        git("add", "-A");
        git("-c", "user.name=proofgate test", "-c", "user.email=test@proofgate.invalid", "commit", "-q", "-m", message);
        git("tag", tag);
    }

    private void git(String... args) throws Exception {
        GitCommand.run(repo, args);
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path path : paths.toList()) {
                if (path.toString().contains("__pycache__")) {
                    continue;
                }
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target);
                }
            }
        }
    }
}
