package io.proofgate.mutate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.check.Model;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/** Mutants of a toy counter checked with TLC: killed, survived, not compilable, and the report. */
class MutationRunTest {

    /** The limits of these runs: each model's default state bound, and a guard against a hung TLC. */
    private static final MutantLimits LIMITS = new MutantLimits(Duration.ofSeconds(60), OptionalLong.empty());

    private static final Path TOY = Path.of("src/test/resources/mutate").toAbsolutePath();

    @TempDir Path work;

    private final List<MutationRun> runs = new java.util.ArrayList<>();

    private MutationRun closeLater(MutationRun run) {
        runs.add(run);
        return run;
    }

    @org.junit.jupiter.api.AfterEach
    void endWarmTlc() {
        runs.forEach(MutationRun::close);
    }

    /** A toy of a few states: a short run, as the small models of spec/models.json are. */
    private static Model model(String cfg) {
        return new Model(
                cfg,
                TOY.resolve("Toy.tla"),
                TOY.resolve(cfg + ".cfg"),
                new Model.Expected.Ok(),
                OptionalLong.empty(),
                "",
                TOY,
                true);
    }

    private List<MutantResult> run(String cfg, String text) throws Exception {
        return run(model(cfg), text);
    }

    /** Every mutant of the toy's Impl part on {@code model}, after its baseline. */
    private List<MutantResult> run(Model model, String text) throws Exception {
        TlaModule module = TlaModule.parse(text, "Toy.tla");
        List<Mutation> ms = module.part("Impl").stream().flatMap(d -> Mutator.mutations(d, text).stream()).toList();
        // one TLC run at a time: a second warm JVM costs its start and warm-up for a few toy mutants
        try (MutationRun run = new MutationRun(TOY, "Toy.tla", List.of(model), 1, LIMITS, work.resolve(model.name()))) {
            PrintStream quiet = new PrintStream(new ByteArrayOutputStream());
            run.checkBaseline(text, quiet);
            return run.run(text, ms, quiet);
        }
    }

    private static Map<String, String> byChange(List<MutantResult> results) {
        return results.stream()
                .collect(
                        Collectors.toMap(
                                r -> r.mutation().kind().wireName() + " " + r.mutation().change(),
                                r -> MutationRun.describe(r.outcome()),
                                (a, b) -> a + "; " + b));
    }

    @Test
    void anInvariantAloneLetsTheRuleChangeAndTheActionPropertyCatchesIt() throws Exception {
        String text = Files.readString(TOY.resolve("Toy.tla"));
        Map<String, String> safety = byChange(run("Safety", text));
        assertEquals("killed on Safety by Bounded", safety.get("relational < → <="), safety.toString());
        assertEquals("killed on Safety by Bounded", safety.get("boundary 3 → 4"), safety.toString());
        assertEquals("SURVIVED", safety.get("boundary 3 → 2"), safety.toString()); // stops at 2: still <= 3
        assertEquals("SURVIVED", safety.get("arithmetic + → -"), safety.toString()); // counts down
        assertEquals("SURVIVED", safety.get("skip-if v < 3 → FALSE"), safety.toString());

        Map<String, String> rules = byChange(run("Rules", text));
        assertEquals("killed on Rules by StepProp", rules.get("boundary 3 → 2"), rules.toString());
        assertEquals("killed on Rules by StepProp", rules.get("arithmetic + → -"), rules.toString());
        assertFalse(rules.containsValue("SURVIVED"), rules.toString());
    }

    /** The toy's Witness.cfg, which names DebugReachesThree, as a model expecting {@code expected}. */
    private static Model witness(String name, Model.Expected expected) {
        return new Model(
                name,
                TOY.resolve("Toy.tla"),
                TOY.resolve("Witness.cfg"),
                expected,
                OptionalLong.empty(),
                "",
                TOY,
                true);
    }

    @Test
    void aWitnessKillsAMutantThatNoLongerReachesItAndOnlyThat() throws Exception {
        String text = Files.readString(TOY.resolve("Toy.tla"));
        // the baseline passes only where the witness is reached as the module is
        Map<String, String> outcomes =
                byChange(run(witness("Witness", new Model.Expected.EachViolated(List.of("DebugReachesThree"))), text));
        // stops at 2, counts down, never moves: 3 is out of reach
        assertEquals(
                "killed on Witness by witness DebugReachesThree", outcomes.get("boundary 3 → 2"), outcomes.toString());
        assertEquals(
                "killed on Witness by witness DebugReachesThree",
                outcomes.get("arithmetic + → -"),
                outcomes.toString());
        assertEquals(
                "killed on Witness by witness DebugReachesThree",
                outcomes.get("skip-if v < 3 → FALSE"),
                outcomes.toString());
        // climbs past 3 or to 4: 3 is still reached, and only an invariant of another model sees it
        assertEquals("SURVIVED", outcomes.get("relational < → <="), outcomes.toString());
        assertEquals("SURVIVED", outcomes.get("boundary 3 → 4"), outcomes.toString());
    }

    @Test
    void aModelThatExpectsOneViolationIsItsWitness() throws Exception {
        String text = Files.readString(TOY.resolve("Toy.tla"));
        Map<String, String> outcomes =
                byChange(run(witness("Refuted", new Model.Expected.Violation("DebugReachesThree")), text));
        assertEquals(
                "killed on Refuted by witness DebugReachesThree", outcomes.get("boundary 3 → 2"), outcomes.toString());
        assertEquals("SURVIVED", outcomes.get("boundary 3 → 4"), outcomes.toString());
    }

    @Test
    void aFirstModelIsCheckedFirstAndOnlyChangesWhichModelNamesTheKill() throws Exception {
        String text = Files.readString(TOY.resolve("Toy.tla"));
        List<Mutation> ms =
                TlaModule.parse(text, "Toy.tla").part("Impl").stream()
                        .flatMap(d -> Mutator.mutations(d, text).stream())
                        .filter(m -> m.change().equals("< → <="))
                        .toList();
        assertEquals(1, ms.size());
        MutationRun run =
                closeLater(
                        new MutationRun(
                                TOY,
                                "Toy.tla",
                                List.of(model("Safety"), model("Rules")),
                                1,
                                LIMITS,
                                work.resolve("order")));
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream());
        assertEquals(
                "killed on Safety by Bounded", MutationRun.describe(run.run(text, ms, quiet).getFirst().outcome()));
        Outcome hinted = run.run(text, ms, Map.of(ms.getFirst().id(), "Rules"), quiet).getFirst().outcome();
        assertTrue(hinted instanceof Outcome.Killed k && k.model().equals("Rules"), hinted.toString());
        Outcome stale = run.run(text, ms, Map.of(ms.getFirst().id(), "NoSuchModel"), quiet).getFirst().outcome();
        assertEquals("killed on Safety by Bounded", MutationRun.describe(stale));
    }

    @Test
    void aMutantThatDoesNotParseIsNotCompilableAndOutsideTheScore() throws Exception {
        String text = Files.readString(TOY.resolve("Toy.tla"));
        Mutation broken =
                new Mutation(
                        "0000000000",
                        "Step",
                        Mutation.Kind.CONSTANT,
                        text.indexOf("v + 1"),
                        text.indexOf("v + 1") + 5,
                        "v + 1",
                        "v + + 1",
                        7,
                        30);
        MutationRun run = closeLater(new MutationRun(TOY, "Toy.tla", List.of(model("Safety")), 1, LIMITS, work));
        List<MutantResult> results = run.run(text, List.of(broken), new PrintStream(new ByteArrayOutputStream()));
        assertTrue(
                results.getFirst().outcome() instanceof Outcome.NotCompilable n
                        && n.problem().startsWith("Toy.tla:7:32: Encountered \"1\" at line 7"),
                results.toString());
        MutationReport report =
                new MutationReport("Toy.tla", "Impl", List.of("Safety"), text, results, Equivalents.none());
        assertEquals(100.0, report.score());
        assertTrue(report.passesCheck());
    }

    @Test
    void modelsThatFailWithoutAMutationStopTheRun() {
        MutationRun run = closeLater(new MutationRun(TOY, "Toy.tla", List.of(model("Safety")), 1, LIMITS, work));
        String broken = readToy().replace("x <= 3", "x <= 2");
        var e =
                assertThrows(
                        MutationException.class,
                        () -> run.checkBaseline(broken, new PrintStream(new ByteArrayOutputStream())));
        assertEquals("Toy.tla: the models must pass before mutation, but model Safety fails: Bounded", e.getMessage());
    }

    /**
     * The bound that decides a mutant's outcome counts states, not seconds: the same mutants go over it on every
     * machine. A bound the unmutated module does not pass stops the run first.
     */
    @Test
    void aRunThatFindsMoreStatesThanTheBoundIsUnfinished() throws Exception {
        String text = readToy();
        MutationRun tight =
                closeLater(
                        new MutationRun(
                                TOY,
                                "Toy.tla",
                                List.of(model("Safety")),
                                1,
                                new MutantLimits(Duration.ofSeconds(60), OptionalLong.of(2)),
                                work.resolve("tight")));
        var e =
                assertThrows(
                        MutationException.class,
                        () -> tight.checkBaseline(text, new PrintStream(new ByteArrayOutputStream())));
        assertEquals(
                "Toy.tla: the models must pass before mutation, but model Safety found more than 2 distinct states"
                        + " (--max-states)",
                e.getMessage());
        List<Mutation> ms =
                TlaModule.parse(text, "Toy.tla").part("Impl").stream()
                        .flatMap(d -> Mutator.mutations(d, text).stream())
                        .filter(m -> m.change().equals("< → <="))
                        .toList();
        Outcome outcome = tight.run(text, ms, new PrintStream(new ByteArrayOutputStream())).getFirst().outcome();
        assertEquals(new Outcome.OverStateBound("Safety", 2), outcome);
        assertEquals("over the state bound on Safety (more than 2 distinct states)", MutationRun.describe(outcome));
        MutationReport report =
                new MutationReport(
                        "Toy.tla",
                        "Impl",
                        List.of("Safety"),
                        text,
                        List.of(new MutantResult(ms.getFirst(), outcome)),
                        Equivalents.none());
        assertEquals(0.0, report.score());
        assertEquals(1, report.unjudged().size());
    }

    /** Judgements: a survivor judged equivalent passes --check; a judgement of a killed mutant is stale. */
    @Test
    void judgementsSilenceSurvivorsAndGoStaleWhenTheirMutantIsKilled() throws Exception {
        String text = readToy();
        List<MutantResult> results = run("Safety", text);
        List<MutantResult> survivors = results.stream().filter(r -> r.outcome() instanceof Outcome.Survived).toList();
        MutantResult killed =
                results.stream().filter(r -> r.outcome() instanceof Outcome.Killed).findFirst().orElseThrow();
        MutationReport none =
                new MutationReport("Toy.tla", "Impl", List.of("Safety"), text, results, Equivalents.none());
        assertFalse(none.passesCheck());
        assertEquals(survivors.size(), none.unjudged().size());
        assertTrue(none.toText().contains("SURVIVED " + survivors.getFirst().mutation().id()), none.toText());
        assertTrue(none.toText().contains("-Step(v) == IF v < 3 THEN v + 1 ELSE v"), none.toText());

        Map<String, Equivalents.Entry> all =
                survivors.stream()
                        .collect(
                                Collectors.toMap(
                                        r -> r.mutation().id(),
                                        r ->
                                                new Equivalents.Entry(
                                                        r.mutation().id(),
                                                        "Step",
                                                        r.mutation().change(),
                                                        "for the test")));
        MutationReport judged =
                new MutationReport("Toy.tla", "Impl", List.of("Safety"), text, results, new Equivalents(all));
        assertTrue(judged.passesCheck(), judged.toText());
        assertEquals(100.0, judged.score());

        Map<String, Equivalents.Entry> wrong = new java.util.HashMap<>(all);
        wrong.put(killed.mutation().id(), new Equivalents.Entry(killed.mutation().id(), "Step", "", "wrong"));
        MutationReport stale =
                new MutationReport("Toy.tla", "Impl", List.of("Safety"), text, results, new Equivalents(wrong));
        assertFalse(stale.passesCheck());
        assertEquals(1, stale.staleJudgements().size(), stale.staleJudgements().toString());
        // a judgement without its change (optional in the file) says what it has, and no empty ": "
        assertTrue(
                stale.staleJudgements()
                        .getFirst()
                        .startsWith(killed.mutation().id() + " (Step): judged equivalent, but killed"),
                stale.staleJudgements().toString());
        wrong.put(killed.mutation().id(), new Equivalents.Entry(killed.mutation().id(), "", "", "wrong"));
        assertTrue(
                new MutationReport("Toy.tla", "Impl", List.of("Safety"), text, results, new Equivalents(wrong))
                        .staleJudgements()
                        .getFirst()
                        .startsWith(killed.mutation().id() + ": judged equivalent, but killed"));
        String json = stale.toJson();
        assertTrue(json.contains("\"schema\" : \"proofgate-mutate/v1\""), json);
        assertTrue(stale.toMarkdown().contains("| killed |"), stale.toMarkdown());
    }

    private static String readToy() {
        try {
            return Files.readString(TOY.resolve("Toy.tla"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
