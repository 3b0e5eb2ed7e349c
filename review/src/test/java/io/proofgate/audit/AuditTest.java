package io.proofgate.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code proofgate audit} on the reference changes of docs/audit.md, each a commit of a repository the test builds
 * ({@link AuditFixtures}), on small models: a refactor, the seed's below-target change, the seed's reason change, a
 * validator change alone, a spec change the validator does not follow, and a change of the span rule. Each asserts what
 * a reviewer must be told, and that nothing else is reported.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuditTest {

    private static final long MAX_PAIRS = 1_000_000;
    private AuditFixtures repo;
    private String current;

    @BeforeAll
    void buildRepository() throws Exception {
        repo = AuditFixtures.create("audit-test");
        current = repo.head();
    }

    /** The SARIF report is valid SARIF 2.1.0 and has one result per finding, each with its fingerprint. */
    private static void assertValidSarif(Audit.Report report) throws Exception {
        String sarif = AuditSarif.write(report);
        com.networknt.schema.Schema schema;
        try (var in = AuditTest.class.getResourceAsStream("/sarif/sarif-schema-2.1.0.json")) {
            schema =
                    com.networknt.schema.SchemaRegistry.withDefaultDialect(
                                    com.networknt.schema.SpecificationVersion.DRAFT_4)
                            .getSchema(in);
        }
        var errors = schema.validate(sarif, com.networknt.schema.InputFormat.JSON);
        assertEquals(List.of(), errors, sarif);
        JsonNode results = new ObjectMapper().readTree(sarif).path("runs").path(0).path("results");
        long findings =
                report.broken().size()
                        + report.differences().size()
                        + report.implementationFindings().size()
                        + report.namespace().stream().filter(s -> s.changed() > 0).count()
                        + report.modelFindings().size();
        assertEquals(findings, results.size(), sarif);
        for (JsonNode result : results) {
            assertTrue(
                    result.path("partialFingerprints")
                            .path(AuditSarif.FINGERPRINT_KEY)
                            .asText()
                            .matches("[0-9a-f]{16}"));
            assertTrue(result.path("locations").size() > 0);
        }
    }

    private Audit.Report audit(String base, String head, String model) throws Exception {
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        Audit.Report report =
                Audit.run(
                        new Audit.Request(repo.dir(), base, head, List.of(model), 2, MAX_PAIRS),
                        new PrintStream(progress, true, StandardCharsets.UTF_8));
        lastProgress = progress.toString(StandardCharsets.UTF_8);
        assertTrue(lastProgress.contains("proofgate audit: ["), "progress goes to stderr");
        return report;
    }

    /** What the last {@link #audit} printed on its progress stream. */
    private String lastProgress = "";

    @Test
    void tlcInWarmJvmsFindsWhatFreshJvmsFind() throws Exception {
        String changed =
                repo.commitOn(
                        current, "below-target entries rejected (warm and fresh)", AuditFixtures.BELOW_TARGET_REJECTED);
        List<String> models = List.of("gen-edges", "gen-untracked", "gen-attention-field");
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        Audit.Report warm =
                Audit.run(
                        new Audit.Request(repo.dir(), current, changed, models, 2, MAX_PAIRS),
                        new PrintStream(progress, true, StandardCharsets.UTF_8));
        assertTrue(
                progress.toString(StandardCharsets.UTF_8).contains("state graphs dumped, in warm JVMs"),
                "three models or more run in warm JVMs");
        assertFalse(warm.differences().isEmpty(), "the change shows on these models");
        // the last model, run after the others in the same JVMs, against a fresh JVM's run: what an
        // earlier run could leave behind shows there (WarmTlcPoolTest compares every run of a pool)
        int i = models.size() - 1;
        progress.reset();
        Audit.Report fresh =
                Audit.run(
                        new Audit.Request(repo.dir(), current, changed, List.of(models.get(i)), 2, MAX_PAIRS),
                        new PrintStream(progress, true, StandardCharsets.UTF_8));
        assertFalse(progress.toString(StandardCharsets.UTF_8).contains("in warm JVMs"), "one model runs fresh");
        assertEquals(fresh.behaviour().getFirst(), warm.behaviour().get(i), models.get(i));
        assertEquals(fresh.implementation().getFirst(), warm.implementation().get(i), models.get(i));
        assertEquals(fresh.counts().getFirst(), warm.counts().get(i), models.get(i));
    }

    @Test
    void aRefactorOfTheSpecIsNoSemanticChange() throws Exception {
        String refactor = repo.commitOn(current, "refactor", AuditFixtures.REFACTOR);
        Audit.Report report = audit(current, refactor, "gen-edges");
        assertEquals(List.of(), report.differences(), AuditText.write(report));
        assertEquals(List.of(), report.implementationFindings());
        // one validator, and specs that agree on every log: no log can show a finding, none is replayed
        ImplementationCheck.Result run = report.implementation().getFirst();
        assertTrue(run.logs() > 0);
        assertEquals(0, run.replayed());
        assertTrue(
                AuditText.write(report)
                        .contains(
                                run.logs()
                                        + " logs; both revisions' validators are built from the same"
                                        + " sources, so only the 0 the specs answer differently went through them"),
                AuditText.write(report));
        assertFalse(report.namespaceImpact());
        assertEquals(List.of(), report.unaccepted());
        assertEquals(report.counts().getFirst().baseStates(), report.counts().getFirst().headStates());
        assertTrue(report.behaviour().getFirst().complete());
        assertFalse(new ObjectMapper().readTree(AuditJson.write(report)).path("semantic_change").asBoolean());
        assertEquals(List.of(), report.incomplete());

        // the same audit with a search stopped by --max-pairs has not answered: never "no change"
        Audit.Report stopped =
                Audit.run(
                        new Audit.Request(repo.dir(), current, refactor, List.of("gen-edges"), 2, 1),
                        new PrintStream(PrintStream.nullOutputStream()));
        assertEquals(List.of("gen-edges"), stopped.incomplete());
        assertTrue(
                AuditText.write(stopped)
                        .contains("Verdict: not judged: the behaviour search stopped at --max-pairs on gen-edges"),
                AuditText.write(stopped));
        // and so does every machine-readable form, which a CI gate reads
        var json = new ObjectMapper().readTree(AuditJson.write(stopped));
        assertFalse(json.path("judged").asBoolean(true), json.toString());
        assertTrue(
                AuditMarkdown.write(stopped)
                        .startsWith("## proofgate audit: not judged (the behaviour search stopped at --max-pairs)"),
                AuditMarkdown.write(stopped));
        var invocation =
                new ObjectMapper().readTree(AuditSarif.write(stopped)).path("runs").get(0).path("invocations").get(0);
        assertFalse(invocation.path("executionSuccessful").asBoolean(true), invocation.toString());
        assertTrue(
                invocation
                        .path("toolExecutionNotifications")
                        .get(0)
                        .path("message")
                        .path("text")
                        .asText()
                        .startsWith("not judged"),
                invocation.toString());
        assertTrue(
                new ObjectMapper()
                        .readTree(AuditSarif.write(report))
                        .path("runs")
                        .get(0)
                        .path("invocations")
                        .get(0)
                        .path("executionSuccessful")
                        .asBoolean(false));
    }

    @Test
    void theSeedsBelowTargetChangeIsOneVerdictClassWithAShortWitnessThatReplays() throws Exception {
        String before =
                repo.commitOn(current, "entries below the target rejected", AuditFixtures.BELOW_TARGET_REJECTED);
        Audit.Report report = audit(before, current, "ci");
        List<Difference> differences = report.differences();
        assertEquals(1, differences.size(), AuditText.write(report));
        Difference d = differences.getFirst();
        assertEquals(Difference.Kind.VERDICT, d.kind());
        assertEquals("rejected future_boundary -> not rejected", d.className());
        assertTrue(d.events() <= 3, "witness of " + d.events() + " events");
        assertTrue(
                d.baseVerdicts().getFirst().startsWith("rejected r1 code=future_boundary observed=2304"),
                d.baseVerdicts()::toString);
        assertEquals(List.of(), d.headVerdicts());
        // the head's validator follows the head's spec: replaying the witness prints no rejection
        repo.git("checkout", "-q", "--detach", current);
        try (RevisionValidator head =
                RevisionValidator.load(repo.dir(), repo.dir().resolve("target/validators"), "head")) {
            List<String> printed = ReplayWords.of(head.replay(String.join("\n", d.witness()) + "\n"));
            assertTrue(printed.stream().noneMatch(line -> line.contains(" rejected ")), printed::toString);
            assertTrue(printed.getLast().startsWith("summary plans=0 rejected=0"), printed::toString);
        }
        assertTrue(
                report.implementationFindings().stream().allMatch(f -> f.kind() == ImplementationCheck.Class.EXPLAINED),
                AuditText.write(report));
        assertEquals(List.of(d.fingerprint()), report.unaccepted());
        JsonNode json = new ObjectMapper().readTree(AuditJson.write(report));
        assertEquals(AuditJson.SCHEMA, json.path("schema").asText());
        assertTrue(json.path("semantic_change").asBoolean());
        assertEquals("topology", json.path("behaviour").path(0).path("witness").path(0).path("kind").asText());
        assertEquals("future_boundary", json.path("behaviour").path(0).path("base").path(0).path("code").asText());
    }

    @Test
    void theSeedsReasonChangeIsAReasonOnlyFinding() throws Exception {
        String before =
                repo.commitOn(
                        current, "future_boundary without group and block", AuditFixtures.FUTURE_REASON_WITHOUT_GROUP);
        Audit.Report report = audit(before, current, "gen-shapes");
        assertEquals(1, report.differences().size(), AuditText.write(report));
        Difference d = report.differences().getFirst();
        assertEquals(Difference.Kind.REASON, d.kind());
        assertEquals(
                "future_boundary reason: stating observed,target,entry -> stating observed,target,group,block,entry",
                d.className());
    }

    @Test
    void aValidatorChangeWithoutASpecChangeIsUnexplained() throws Exception {
        String changed =
                repo.commitOn(current, "same-block duplicate accepted", AuditFixtures.SAME_BLOCK_DUPLICATE_ACCEPTED);
        Audit.Report report = audit(current, changed, "gen-edges");
        assertEquals(List.of(), report.differences());
        List<ImplementationCheck.Finding> findings = report.implementationFindings();
        assertFalse(findings.isEmpty(), AuditText.write(report));
        assertTrue(
                findings.stream().allMatch(f -> f.kind() == ImplementationCheck.Class.UNEXPLAINED),
                AuditText.write(report));
        assertTrue(findings.getFirst().difference().contains("duplicate_group"), findings.getFirst()::difference);
        // the spec is the same file for file: one TLC run serves both sides
        assertTrue(
                lastProgress.contains("TLC once for both specs (the head's is the base's, file for file)"),
                lastProgress);
        assertFalse(lastProgress.contains("TLC on both specs"), lastProgress);
        assertEquals(
                1,
                lastProgress
                        .lines()
                        .filter(
                                l ->
                                        l.startsWith("proofgate: running TLC on gen-edges")
                                                || l.startsWith("proofgate: the state graph of gen-edges"))
                        .count(),
                "run or read once: " + lastProgress);
        ImplementationCheck.Result run = report.implementation().getFirst();
        assertEquals(run.logs() - run.oneSidedLogs(), run.replayed(), "two validators: every log goes through both");
        assertTrue(
                AuditText.write(report).contains(run.logs() + " logs through both validators"),
                AuditText.write(report));
        assertFalse(report.unaccepted().isEmpty());
        assertTrue(
                report.validatorChanges().stream()
                        .anyMatch(
                                l ->
                                        l.path().endsWith("EvidenceRules.java")
                                                && l.what().startsWith("method judgeEntry, ")),
                report.validatorChanges()::toString);
        assertValidSarif(report);
        String sarif = AuditSarif.write(report);
        assertTrue(sarif.contains("validator/src/main/java/io/proofgate/protocol/EvidenceRules.java"), sarif);
    }

    @Test
    void aValidatorChangeIsAuditedOnTheRestoreHalfsLogs() throws Exception {
        // the validators answer lookups with hit and load lines, which the audit reads as it reads the model's
        String changed =
                repo.commitOn(current, "same-block duplicate accepted", AuditFixtures.SAME_BLOCK_DUPLICATE_ACCEPTED);
        Audit.Report report = audit(current, changed, "gen-restore");
        ImplementationCheck.Result run = report.implementation().getFirst();
        assertTrue(run.replayed() > 0, AuditText.write(report));
        assertEquals(run.logs() - run.oneSidedLogs(), run.replayed(), "two validators: every log goes through both");
        assertEquals(List.of(), report.implementationFindings(), AuditText.write(report));
    }

    @Test
    void aSpecChangeTheValidatorDoesNotFollowIsNotFollowedAndCanBeAccepted() throws Exception {
        String changed =
                repo.commitOn(current, "below-target entries rejected again", AuditFixtures.BELOW_TARGET_REJECTED);
        Audit.Report report = audit(current, changed, "gen-edges");
        assertFalse(report.differences().isEmpty());
        List<ImplementationCheck.Finding> findings = report.implementationFindings();
        assertTrue(
                findings.stream().anyMatch(f -> f.kind() == ImplementationCheck.Class.NOT_FOLLOWED),
                AuditText.write(report));
        assertTrue(
                findings.stream().noneMatch(f -> f.kind() == ImplementationCheck.Class.UNEXPLAINED),
                AuditText.write(report));
        // one validator: only the logs the specs answer differently are replayed, and each finding's logs are among
        // them
        ImplementationCheck.Result run = report.implementation().getFirst();
        assertTrue(run.replayed() > 0 && run.replayed() < run.logs() - run.oneSidedLogs(), run::toString);
        assertTrue(
                findings.stream().mapToInt(ImplementationCheck.Finding::logs).sum() <= run.replayed(), run::toString);
        assertValidSarif(report);
        assertTrue(
                report.specChanges().stream().anyMatch(l -> l.what().equals("definition EntryCode")),
                report.specChanges()::toString);
        String markdown = AuditMarkdown.write(report);
        assertTrue(markdown.startsWith("## proofgate audit: "), markdown);
        assertTrue(markdown.contains("<details>") && markdown.length() < AuditMarkdown.LIMIT + 2000, markdown);

        // the change accepts its own findings: they are listed, and still unaccepted (acceptances are read from the
        // base)
        StringBuilder accepted = new StringBuilder("{\"schema\": \"" + Accepted.SCHEMA + "\", \"accepted\": [");
        for (String fingerprint : report.unaccepted()) {
            accepted.append("{\"fingerprint\": \"").append(fingerprint).append("\", \"justification\": \"intended\"},");
        }
        accepted.append("{\"fingerprint\": \"0000000000000000\", \"justification\": \"an old one\"}]}");
        String selfApproved =
                repo.commitFile(changed, Accepted.FILE, accepted.toString(), "the change approves itself");
        Audit.Report self = audit(current, selfApproved, "gen-edges");
        assertEquals(report.unaccepted(), self.unaccepted(), AuditText.write(self));
        assertEquals(report.unaccepted().stream().sorted().toList(), self.acceptedByChange());
        assertTrue(
                AuditText.write(self).contains("accepted by this change, needs a reviewer: "), AuditText.write(self));
        assertEquals(
                List.of(),
                Audit.run(
                                new Audit.Request(
                                        repo.dir(), current, selfApproved, List.of("gen-edges"), 2, MAX_PAIRS, true),
                                new PrintStream(PrintStream.nullOutputStream()))
                        .unaccepted(),
                "--accept-from-head takes them");

        // reviewers accept every finding at the base, and one that does not occur: the audit passes and names the stale
        // one
        String acceptingBase =
                repo.commitFile(current, Accepted.FILE, accepted.toString(), "accept ahead of the change");
        String approved =
                repo.commitOn(
                        acceptingBase, "below-target entries rejected again", AuditFixtures.BELOW_TARGET_REJECTED);
        Audit.Report again = audit(acceptingBase, approved, "gen-edges");
        assertEquals(List.of(), again.unaccepted(), AuditText.write(again));
        assertValidSarif(again);
        assertTrue(AuditSarif.write(again).contains("\"justification\" : \"intended\""));
        assertEquals(List.of("0000000000000000"), again.staleAcceptances());
        assertEquals(
                report.unaccepted().size(),
                again.differences().size()
                        + again.implementationFindings().stream()
                                .filter(f -> f.kind() != ImplementationCheck.Class.EXPLAINED)
                                .count()
                        + again.modelFindings().size(),
                "the same findings, by fingerprint");
    }

    @Test
    void aModelTheHeadShrinksIsAFinding() throws Exception {
        // the spec is unchanged, so on the base's model files nothing differs; the head's own model tracks no request
        String shrunk =
                repo.commitOn(
                        current,
                        "gen-edges tracks nothing",
                        List.of(new AuditFixtures.Change("spec/MCGenEdges.cfg", "MinSpan = 1024", "MinSpan = 100000")));
        Audit.Report report = audit(current, shrunk, "gen-edges");
        assertEquals(List.of(), report.differences(), AuditText.write(report));
        ModelSizes sizes = report.counts().getFirst();
        assertEquals(sizes.baseStates(), sizes.headOnBaseStates());
        assertTrue(sizes.headStates() < sizes.baseStates() && sizes.headEdges() < sizes.baseEdges(), sizes::toString);
        List<String> findings = report.modelFindings().stream().map(ModelSizes.Finding::what).toList();
        assertTrue(
                findings.contains("distinct states dropped: " + sizes.baseStates() + " -> " + sizes.headStates()),
                findings::toString);
        assertTrue(
                findings.contains(
                        "the head's spec/models.json records "
                                + sizes.baseStates()
                                + " distinct states; TLC finds "
                                + sizes.headStates()),
                findings::toString);
        assertTrue(
                report.unaccepted()
                        .containsAll(report.modelFindings().stream().map(ModelSizes.Finding::fingerprint).toList()));
        assertTrue(AuditText.write(report).contains("gen-edges: distinct states dropped: "), AuditText.write(report));
        assertValidSarif(report);
    }

    @Test
    void aChangeOfTheTargetRuleHasNamespaceImpact() throws Exception {
        String changed = repo.commitOn(current, "span at or below the prompt end", AuditFixtures.SPAN_AT_OR_BELOW);
        Audit.Report report = audit(current, changed, "gen-edges");
        assertTrue(report.namespaceImpact(), AuditText.write(report));
        Audit.SurfaceChange span =
                report.namespace().stream().filter(s -> s.name().equals("span")).findFirst().orElseThrow();
        assertTrue(span.changed() > 0 && span.changed() < span.probes(), span::toString);
        assertTrue(span.firstBase().startsWith("span/h1/p1/s0: span="), span::firstBase);
        assertTrue(report.unaccepted().contains(span.fingerprint()));
        assertTrue(AuditText.write(report).contains("Namespace impact: CHANGED"));
    }

    @Test
    void aChangeOfTheSnapshotLayoutHasNamespaceImpactThatNoRoundTripShows() throws Exception {
        String changed = repo.commitOn(current, "snapshot layers reversed", AuditFixtures.SNAPSHOT_LAYERS_REVERSED);
        Audit.Report report = audit(current, changed, "gen-attention");
        assertEquals(List.of(), report.differences());
        assertEquals(List.of(), report.implementationFindings(), "replay does not see page bytes");
        Audit.SurfaceChange snapshot =
                report.namespace().stream().filter(s -> s.name().equals("snapshot")).findFirst().orElseThrow();
        assertTrue(snapshot.changed() > 0, snapshot::toString);
        assertTrue(
                report.namespace().stream().filter(s -> !s.name().equals("snapshot")).allMatch(s -> s.changed() == 0));
        assertTrue(
                snapshot.firstBase().contains(" sha256=") && snapshot.firstHead().contains(" sha256="),
                snapshot::toString);
    }

    /**
     * A second audit of a change reads both sides' state graphs kept from the first (the key: the spec's files, the
     * model and TLC's code) and reports what the first reported, byte for byte.
     */
    @Test
    void aSecondAuditReadsTheKeptStateGraphsAndReportsTheSame() throws Exception {
        String change = repo.commitOn(current, "refactor-again", AuditFixtures.REFACTOR);
        java.util.function.Function<ByteArrayOutputStream, Audit.Report> audit =
                progress -> {
                    try {
                        return Audit.run(
                                new Audit.Request(repo.dir(), current, change, List.of("gen-untracked"), 2, MAX_PAIRS),
                                new PrintStream(progress, true, StandardCharsets.UTF_8));
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                };
        Path graphs = repo.dir().resolve("target/proofgate/audit/graphs");
        if (Files.isDirectory(graphs)) {
            try (var kept = Files.list(graphs)) {
                kept.forEach(p -> p.toFile().delete()); // graphs other tests kept
            }
        }
        ByteArrayOutputStream first = new ByteArrayOutputStream();
        ByteArrayOutputStream second = new ByteArrayOutputStream();
        Audit.Report before = audit.apply(first);
        Audit.Report after = audit.apply(second);
        String kept = "from an earlier run on the same spec";
        assertFalse(first.toString(StandardCharsets.UTF_8).contains(kept), first.toString(StandardCharsets.UTF_8));
        assertEquals(
                2,
                second.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains(kept)).count(),
                second.toString(StandardCharsets.UTF_8));
        assertEquals(AuditJson.write(before), AuditJson.write(after));
        assertEquals(AuditText.write(before), AuditText.write(after));
    }

    @Test
    void noChangeHasNoImpactOnAnySurface() throws Exception {
        Audit.Report report = audit(current, current, "gen-attention");
        assertFalse(report.namespaceImpact());
        assertTrue(report.namespace().stream().allMatch(s -> s.probes() > 0 && s.changed() == 0));
        assertTrue(
                AuditText.write(report)
                        .contains(
                                "Namespace impact: none (plan_selection 3180 probes, snapshot 5 probes, span 3180"
                                        + " probes of proofgate-namespace/v1"));
        // the answers are computed, not errors: spans and plans read from replay, snapshots hashed by the store
        try (RevisionValidator validator =
                RevisionValidator.load(AuditFixtures.ROOT, repo.dir().resolve("target/validators"), "project")) {
            List<java.util.Map<String, String>> answers = NamespaceVectors.of(validator);
            List<String> ids =
                    io.proofgate.namespace.NamespaceProbes.v1().stream()
                            .map(io.proofgate.namespace.NamespaceProbe::id)
                            .toList();
            java.util.function.BiFunction<String, String, String> value =
                    (probe, name) ->
                            io.proofgate.namespace.NamespaceImpact.shown(answers.get(ids.indexOf(probe)).get(name));
            assertEquals("span=6656", value.apply("span/h256/p6912/s0", "span"));
            assertEquals("span=771", value.apply("span/h257/p1024/s0", "span"));
            for (int i = 0; i < ids.size(); i++) {
                if (ids.get(i).startsWith("selection/")) {
                    assertTrue(value.apply(ids.get(i), "plan_selection").startsWith("plan span="), ids.get(i));
                }
            }
            assertEquals(5, answers.stream().filter(a -> a.containsKey("snapshot")).count());
            assertTrue(
                    value.apply("snapshot/1/s2", "snapshot").matches("bytes=\\d+ sha256=[0-9a-f]{64}"),
                    value.apply("snapshot/1/s2", "snapshot"));
        }
    }

    @Test
    void anUnknownRevisionIsAnError() {
        AuditException e = assertThrows(AuditException.class, () -> audit("no-such-branch", current, "ci"));
        assertEquals(
                "unknown revision \"no-such-branch\" (no commit of that name in " + repo.dir() + ")", e.getMessage());
    }

    @Test
    void aBaseWhoseModelsFileCannotBeReadIsAnError() throws Exception {
        String unreadable = repo.commitFile(current, "spec/models.json", "{\"models\": [", "models.json cut short");
        AuditException e = assertThrows(AuditException.class, () -> audit(unreadable, current, "ci"));
        assertTrue(
                e.getMessage().startsWith("the base's spec/models.json cannot be read: spec/models.json:1:"),
                e.getMessage());
    }

    @Test
    void aRevisionWithoutASpecIsAnError() throws Exception {
        String bare = repo.commitWithout(current, "spec", "no spec");
        AuditException e = assertThrows(AuditException.class, () -> audit(bare, current, "ci"));
        assertTrue(e.getMessage().contains("has no spec"), e.getMessage());
    }

    /**
     * vLLM's producer going from the exact-stop rule to the crossing rule changes no verdict the free evidence menu
     * reaches: only the producer model shows it, as a broken invariant whose counterexample publishes a block holding
     * the state past the boundary. It is a finding (exit 1), not an audit that could not run, and no acceptance makes
     * it pass.
     */
    @Test
    void aProducerChangeFromExactStopToCrossingIsABrokenInvariantWithACounterexample() throws Exception {
        String crossing = repo.commitOn(current, "crossing producer", AuditFixtures.CROSSING_PRODUCER);
        // producer-upstream: the same producer on 553 states, where producer has 20,406
        Audit.Report report = audit(current, crossing, "producer-upstream");
        String text = AuditText.write(report);
        assertEquals(1, report.broken().size(), text);
        Safety safety = report.broken().getFirst();
        Safety.Broken broken = safety.broken().orElseThrow();
        assertEquals("producer-upstream", safety.model());
        assertEquals("PublishedBlockHoldsTargetState", broken.property(), text);
        assertEquals(io.proofgate.tlc.Violation.Kind.INVARIANT, broken.kind());
        assertTrue(broken.counterexample().contains("lastVerdicts = <<[kind |-> \"plan\""), broken.counterexample());
        assertEquals(List.of(safety.fingerprint()), report.unaccepted(), text);
        assertEquals(List.of(), report.behaviour(), "no head graph to compare on the broken model");
        assertTrue(text.contains("BROKEN on 1 model of 1"), text);
        assertTrue(
                text.contains("definition ProducesBoundary")
                        || report.specChanges().stream().anyMatch(l -> l.what().equals("definition ProducesBoundary")),
                report.specChanges()::toString);
        assertTrue(AuditJson.write(report).contains("\"property\" : \"PublishedBlockHoldsTargetState\""));
        assertTrue(
                AuditMarkdown.write(report)
                        .contains("**broken** on producer-upstream (PublishedBlockHoldsTargetState)"));
        assertValidSarif(report);

        // an acceptance at the base does not make it pass: the head's spec is not a protocol to compare against
        Audit.Report acceptedAtBase =
                new Audit.Report(
                        report.base(),
                        report.head(),
                        report.models(),
                        report.modelFilesDiffer(),
                        report.safety(),
                        report.behaviour(),
                        report.implementation(),
                        report.namespace(),
                        report.counts(),
                        report.checked(),
                        new Approvals(
                                new Accepted(java.util.Map.of(safety.fingerprint(), "intended")), Accepted.NONE, false),
                        report.specChanges(),
                        report.validatorChanges());
        assertEquals(List.of(safety.fingerprint()), acceptedAtBase.unaccepted());
        assertFalse(acceptedAtBase.accepted(safety.fingerprint()));
        // nor at the head: and since no review can accept it, it is not listed as one awaiting a reviewer
        Audit.Report acceptedAtHead =
                new Audit.Report(
                        report.base(),
                        report.head(),
                        report.models(),
                        report.modelFilesDiffer(),
                        report.safety(),
                        report.behaviour(),
                        report.implementation(),
                        report.namespace(),
                        report.counts(),
                        report.checked(),
                        new Approvals(
                                Accepted.NONE, new Accepted(java.util.Map.of(safety.fingerprint(), "intended")), true),
                        report.specChanges(),
                        report.validatorChanges());
        assertEquals(List.of(safety.fingerprint()), acceptedAtHead.unaccepted());
        assertEquals(List.of(), acceptedAtHead.acceptedByChange());
    }

    /**
     * The head's spec is checked with its own definitions on the base's configs: a head that weakens an invariant (here
     * the one that catches the crossing producer), or whose own config checks one invariant fewer, shows no behaviour
     * difference and keeps every invariant, so each is a finding a reviewer accepts, never a silent pass.
     */
    @Test
    void aHeadThatWeakensAnInvariantOrChecksFewerIsAFinding() throws Exception {
        String weakened =
                repo.commitOn(
                        current,
                        "an invariant weakened",
                        List.of(
                                new AuditFixtures.Change(
                                        AuditFixtures.SPEC,
                                        "BlockContent(p.id, p.recurrent[i][2]) = p.span",
                                        "BlockContent(p.id, p.recurrent[i][2]) >= p.span")));
        Audit.Report report = audit(current, weakened, "gen-edges");
        String text = AuditText.write(report);
        assertEquals(List.of(), report.differences(), text);
        assertEquals(1, report.unaccepted().size(), text);
        // every model that checks it is named, the audited one among them
        String what = report.modelFindings().getFirst().what();
        assertTrue(
                what.startsWith("the head changes what invariant PublishedBlockHoldsTargetState means (checked on ")
                        && what.contains(" gen-edges,")
                        && what.contains("): PublishedBlockHoldsTargetState differs (the head's text "),
                text);
        String fewer =
                repo.commitOn(
                        current,
                        "one invariant fewer",
                        List.of(
                                new AuditFixtures.Change(
                                        "spec/MCGenEdges.cfg", "    PublishedBlockHoldsTargetState\n", "")));
        Audit.Report dropped = audit(current, fewer, "gen-edges");
        assertEquals(
                List.of("the head's MCGenEdges.cfg no longer checks PublishedBlockHoldsTargetState"),
                dropped.modelFindings().stream().map(ModelSizes.Finding::what).toList(),
                AuditText.write(dropped));
        assertEquals(1, dropped.unaccepted().size());
    }

    /**
     * What else checks less without changing what the models do: a property whose guard is never true (it holds of
     * every behaviour), an invariant a model's config replaces with one that always holds, and a models.json that drops
     * a mistake model, or takes a model out of CI. Each passed as no semantic change.
     */
    @Test
    void aVacuousPropertyAReplacedInvariantAndFewerModelsAreFindings() throws Exception {
        String vacuous =
                repo.commitOn(
                        current,
                        "a rule's guard never true",
                        List.of(
                                new AuditFixtures.Change(
                                        AuditFixtures.SPEC,
                                        "[][lastEvent'.kind = \"held\" => lastVerdicts' = <<>>",
                                        "[][lastEvent'.kind = \"held\" /\\ FALSE => lastVerdicts' = <<>>")));
        Audit.Report property = audit(current, vacuous, "gen-edges");
        assertEquals(List.of(), property.differences(), AuditText.write(property));
        assertEquals(
                List.of("HeldSaysNothingProp differs"),
                property.modelFindings().stream()
                        .map(f -> f.what().replaceAll(".*\\): (.*) \\(the head's text .*", "$1"))
                        .toList(),
                AuditText.write(property));
        assertTrue(
                property.modelFindings()
                        .getFirst()
                        .what()
                        .startsWith("the head changes what property HeldSaysNothingProp"),
                AuditText.write(property));

        String replaced =
                repo.commitOn(
                        current,
                        "an invariant replaced in a config",
                        List.of(
                                new AuditFixtures.Change(
                                        "spec/MCGenEdges.cfg",
                                        "CONSTANTS\n",
                                        "CONSTANTS\n    PublishedBlockHoldsTargetState <- AlwaysHolds\n"),
                                new AuditFixtures.Change(
                                        "spec/MCPublication.tla",
                                        "\n"
                                            + "=============================================================================",
                                        "\n"
                                            + "AlwaysHolds == TRUE\n"
                                            + "=============================================================================")));
        Audit.Report invariant = audit(current, replaced, "gen-edges");
        assertTrue(
                invariant.modelFindings().stream()
                        .anyMatch(
                                f ->
                                        f.what()
                                                        .startsWith(
                                                                "the head changes what invariant"
                                                                    + " PublishedBlockHoldsTargetState means (checked"
                                                                    + " on gen-edges): ")
                                                && f.what().contains("AlwaysHolds")),
                AuditText.write(invariant));

        String fewer =
                repo.commitOn(
                        current,
                        "a mistake model dropped, another out of CI",
                        List.of(
                                new AuditFixtures.Change(
                                        "spec/models.json",
                                        "      \"name\": \"mutant-table-slot\",",
                                        "      \"name\": \"mutant-table-slot-renamed\","),
                                new AuditFixtures.Change(
                                        "spec/models.json",
                                        "      \"name\": \"mutant-latch-kept\",\n",
                                        "      \"name\": \"mutant-latch-kept\",\n      \"inCi\": false,\n")));
        Audit.Report models = audit(current, fewer, "gen-edges");
        List<String> whats = models.modelFindings().stream().map(ModelSizes.Finding::what).toList();
        assertTrue(
                whats.contains("the head's spec/models.json no longer has model mutant-table-slot"), whats::toString);
        assertTrue(
                whats.contains("the head's spec/models.json no longer checks mutant-latch-kept in CI"),
                whats::toString);
    }

    /**
     * A model file that changes what the model sends, its counts the same: gen-restore-checkpoints without its tables
     * out of order has as many states, edges and scenarios, and what catches a connector that sorts a table is gone.
     * The head's spec on the base's files and on its own differ, and each class of difference is a finding.
     */
    @Test
    void aModelFileThatSendsOtherEventsIsAFindingWhereNoCountDrops() throws Exception {
        String ordered =
                repo.commitOn(
                        current,
                        "tables in order",
                        List.of(
                                new AuditFixtures.Change(
                                        "spec/MCGenRestoreCheckpoints.cfg",
                                        "TableFault <- CheckpointsFaults",
                                        "TableFault <- NoFaults")));
        Audit.Report report = audit(current, ordered, "gen-restore-checkpoints");
        String text = AuditText.write(report);
        assertEquals(List.of(), report.differences(), text);
        List<String> whats = report.modelFindings().stream().map(ModelSizes.Finding::what).toList();
        assertFalse(whats.isEmpty(), text);
        assertTrue(
                whats.stream()
                        .allMatch(
                                w ->
                                        w.startsWith(
                                                "the head's own model files change what gen-restore-checkpoints does"
                                                        + " (its spec on the base's files, then on its own): ")),
                text);
        assertEquals(whats.size(), report.unaccepted().size(), text);
    }

    @Test
    void theDefaultModelsAreTheGenerationModelsAndTheProducer() throws Exception {
        Revision base =
                Revision.materialise(
                        GitRepository.at(repo.dir()), current, repo.dir().getParent().resolve("default-models"));
        List<String> names = SpecGraphs.models(base, List.of()).stream().map(io.proofgate.check.Model::name).toList();
        assertTrue(names.contains("producer") && names.contains("gen-edges"), names::toString);
        assertEquals(names.stream().distinct().toList(), names);
    }

    @Test
    void aSpecThatDoesNotParseIsAnError() throws Exception {
        String broken =
                repo.commitOn(
                        current,
                        "broken",
                        List.of(
                                new AuditFixtures.Change(
                                        AuditFixtures.SPEC, "IsFuture(bd, S) == bd > S", "IsFuture(bd, S) == bd >")));
        AuditException e = assertThrows(AuditException.class, () -> audit(current, broken, "gen-attention"));
        assertTrue(e.getMessage().startsWith("the head "), e.getMessage());
        assertTrue(e.getMessage().contains("does not pass TLC on model gen-attention"), e.getMessage());
    }

    @Test
    void aBaseThatViolatesItsOwnRulesIsAnErrorAndAHeadThatDoesIsBroken() throws Exception {
        // the connector changed without the rule that states it: RejectionCodeProp is violated
        String violating = repo.commitOn(current, "connector alone", AuditFixtures.BELOW_TARGET_REJECTED.subList(0, 1));
        AuditException e = assertThrows(AuditException.class, () -> audit(violating, current, "gen-edges"));
        assertTrue(e.getMessage().startsWith("the base "), e.getMessage());
        assertTrue(e.getMessage().contains("violates"), e.getMessage());

        // the same change as the head: the base passes there, so the head's violation is the finding, with its trace
        Audit.Report report = audit(current, violating, "gen-edges");
        assertEquals(1, report.broken().size(), AuditText.write(report));
        Safety.Broken broken = report.broken().getFirst().broken().orElseThrow();
        assertEquals("RejectionCodeProp", broken.property());
        assertEquals(io.proofgate.tlc.Violation.Kind.ACTION_PROPERTY, broken.kind());
        assertTrue(broken.trace().size() >= 2, broken.counterexample());
        assertEquals(List.of(), report.differences(), "the broken model's behaviour is not compared");
    }

    @Test
    void aSpecWhoseStatesAreNotProofgatesIsAnErrorNotAStackTrace() throws Exception {
        // the spec still passes TLC, but its states no longer hold lastVerdicts, which the audit reads
        String text = Files.readString(repo.dir().resolve(AuditFixtures.SPEC));
        int times = text.split("lastVerdicts", -1).length - 1;
        String renamed =
                repo.commitOn(
                        current,
                        "outputs renamed",
                        List.of(new AuditFixtures.Change(AuditFixtures.SPEC, "lastVerdicts", "lastOutputs", times)));
        AuditException e = assertThrows(AuditException.class, () -> audit(current, renamed, "gen-attention"));
        assertTrue(
                e.getMessage().startsWith("the state graphs of model gen-attention are not ones the audit reads: "),
                e.getMessage());
        assertTrue(e.getMessage().contains("lastVerdicts"), e.getMessage());
    }

    @Test
    void aWorkingTreeWithUnmergedFilesIsAnError() throws Exception {
        AuditFixtures conflict = AuditFixtures.create("audit-conflict");
        String start = conflict.head();
        String ours = conflict.commitOn(start, "ours", AuditFixtures.REFACTOR);
        String theirs =
                conflict.commitOn(
                        start,
                        "theirs",
                        List.of(
                                new AuditFixtures.Change(
                                        AuditFixtures.SPEC, "IsFuture(bd, S) == bd > S", "IsFuture(bd, S) == S < bd")));
        conflict.git("checkout", "-q", "--detach", ours);
        conflict.git("merge", "-q", theirs);
        assertTrue(
                Files.readString(conflict.dir().resolve(AuditFixtures.SPEC)).contains("<<<<<<<"),
                "a conflict is under way");
        AuditException e =
                assertThrows(
                        AuditException.class,
                        () ->
                                Audit.run(
                                        new Audit.Request(conflict.dir(), start, null, List.of("ci"), 2, MAX_PAIRS),
                                        new PrintStream(PrintStream.nullOutputStream())));
        assertTrue(e.getMessage().startsWith("the working tree has unmerged files"), e.getMessage());
    }
}
