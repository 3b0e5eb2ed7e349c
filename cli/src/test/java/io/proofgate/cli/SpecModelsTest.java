package io.proofgate.cli;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.check.CheckOptions;
import io.proofgate.check.CheckReport;
import io.proofgate.check.Model;
import io.proofgate.check.ModelCatalog;
import io.proofgate.check.ModelCheck;
import io.proofgate.generate.CommittedScenarios;
import io.proofgate.generate.Generation;
import io.proofgate.tlc.TlcEnding;
import io.proofgate.tlc.WarmTlcPool;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * CI for the spec: every model spec/models.json lists (but those marked {@code "inCi": false}) gives the result it
 * records under TLC, so each broken variant is caught by its invariant and each Debug invariant is reachable (one run
 * each); and the committed generated scenarios are what {@code proofgate generate} writes today, from generation models
 * that pass with the distinct states models.json records.
 *
 * <p>It runs beside the module's other classes (src/test/resources/junit-platform.properties): it works only in folders
 * of its own and reads no shared property.
 */
@Execution(ExecutionMode.CONCURRENT)
class SpecModelsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /**
     * A model stops at its recorded bound (twice its recorded states), the same on every machine; the hour is a guard
     * against a hung TLC only, far above the slowest model on a loaded machine (interleaved or reachability, under a
     * minute quiet), so no outcome here depends on the machine's speed.
     */
    private static CheckOptions options(Model model, String name) {
        return new CheckOptions(
                Runtime.getRuntime().availableProcessors(),
                "2g",
                ROOT.resolve("target/proofgate/test").resolve(name),
                Duration.ofMinutes(60),
                model.recordedBound());
    }

    /**
     * The runs go to warm TLC JVMs, as mutate's runs do: most are a second or two of TLC after as long again starting a
     * JVM. What a run finds does not depend on the runs before it in the same JVM (docs/mutate.md, "Warm TLC JVMs").
     */
    private static final WarmTlcPool WARM = new WarmTlcPool(ROOT.resolve("target/proofgate/test/warm-tlc"), "2g");

    @AfterAll
    static void endWarmTlc() {
        WARM.close();
    }

    /**
     * The generation models are left to {@link #committedGeneratedTestsAreCurrent}: generating runs TLC on each with
     * its invariants and properties, and fails on anything but a pass.
     */
    @TestFactory
    Stream<DynamicTest> everyListedModelGivesItsRecordedResult() throws Exception {
        ModelCatalog catalog = ModelCatalog.of(ROOT.resolve("spec"));
        Set<String> generated = catalog.generationModels().stream().map(Model::name).collect(Collectors.toSet());
        return catalog.checkedInCi().stream()
                .filter(model -> !generated.contains(model.name()))
                .flatMap(
                        model -> {
                            if (model.expected() instanceof Model.Expected.EachViolated each) {
                                // one TLC run per invariant, as check runs them (in one warm JVM); each report is
                                // asserted, so every Debug invariant that is no longer reachable is named
                                return Stream.of(
                                        DynamicTest.dynamicTest(
                                                model.name(),
                                                () -> {
                                                    List<CheckReport> reports =
                                                            ModelCheck.runEach(
                                                                    model, options(model, model.name()), WARM);
                                                    assertEquals(
                                                            each.invariants(),
                                                            reports.stream()
                                                                    .map(
                                                                            r ->
                                                                                    ((Model.Expected.Violation)
                                                                                                    r.model()
                                                                                                            .expected())
                                                                                            .property())
                                                                    .toList());
                                                    assertAll(
                                                            reports.stream()
                                                                    .map(
                                                                            report ->
                                                                                    (Executable)
                                                                                            () ->
                                                                                                    assertAsExpected(
                                                                                                            report)));
                                                }));
                            }
                            return Stream.of(
                                    DynamicTest.dynamicTest(
                                            model.name(),
                                            () ->
                                                    assertAsExpected(
                                                            ModelCheck.run(
                                                                    model, options(model, model.name()), WARM))));
                        });
    }

    /**
     * The models too large for CI (deep and its parts) still parse and start: TLC explores each up to a bound of
     * distinct states, counted the same on every machine, and finds no violation on the way. A spec change that breaks
     * one of their configs (a renamed constant, an assumption it no longer meets) fails here, not on the day someone
     * runs it for an hour.
     */
    @TestFactory
    Stream<DynamicTest> everyModelOutsideCiStartsWithoutAViolation() throws Exception {
        ModelCatalog catalog = ModelCatalog.of(ROOT.resolve("spec"));
        Set<String> inCi = catalog.checkedInCi().stream().map(Model::name).collect(Collectors.toSet());
        List<Model> outside = catalog.listed().stream().filter(m -> !inCi.contains(m.name())).toList();
        assertFalse(outside.isEmpty(), "spec/models.json marks no model \"inCi\": false; drop this test");
        return outside.stream()
                .map(
                        model ->
                                DynamicTest.dynamicTest(
                                        model.name(),
                                        () -> {
                                            CheckOptions bounded =
                                                    new CheckOptions(
                                                            Runtime.getRuntime().availableProcessors(),
                                                            "2g",
                                                            ROOT.resolve("target/proofgate/test/outside-ci")
                                                                    .resolve(model.name()),
                                                            Duration.ofMinutes(60),
                                                            java.util.OptionalLong.of(OUTSIDE_CI_STATES));
                                            // a run bounded at a hundred states is a short run, whatever the model's
                                            // size
                                            Model start =
                                                    new Model(
                                                            model.name(),
                                                            model.module(),
                                                            model.config(),
                                                            model.expected(),
                                                            model.distinctStates(),
                                                            model.description(),
                                                            model.specDir(),
                                                            true);
                                            CheckReport report = ModelCheck.run(start, bounded, WARM);
                                            assertTrue(
                                                    report.result().stateBoundReached()
                                                            || report.ending() == TlcEnding.OK,
                                                    () ->
                                                            model.name()
                                                                    + ": TLC said "
                                                                    + report.ending()
                                                                    + " "
                                                                    + report.run()
                                                                            .violatedName()
                                                                            .or(
                                                                                    () ->
                                                                                            report
                                                                                                    .run()
                                                                                                    .errors()
                                                                                                    .stream()
                                                                                                    .map(
                                                                                                            m ->
                                                                                                                    m.text()
                                                                                                                            .strip())
                                                                                                    .findFirst())
                                                                            .orElse("")
                                                                    + " within "
                                                                    + OUTSIDE_CI_STATES
                                                                    + " distinct states (raw: "
                                                                    + report.result().rawOutput()
                                                                    + ")");
                                        }));
    }

    /**
     * Enough to parse the model, evaluate its assumptions and take the first steps; more would cost CI time for little
     * (most of each run is TLC starting and parsing the spec).
     */
    private static final long OUTSIDE_CI_STATES = 100;

    private static void assertAsExpected(CheckReport report) {
        Model model = report.model();
        assertFalse(
                report.result().stateBoundReached(),
                () ->
                        model.name()
                                + ": TLC found more than "
                                + report.options().maxStates().getAsLong()
                                + " distinct states, twice what spec/models.json records");
        assertTrue(
                report.asExpected(),
                () ->
                        model.name()
                                + ": expected "
                                + model.expected()
                                + ", TLC said "
                                + report.ending()
                                + " "
                                + report.run().violatedName().orElse("")
                                + " (raw: "
                                + report.result().rawOutput()
                                + ")");
        if (report.ending() == TlcEnding.OK && model.distinctStates().isPresent()) {
            assertEquals(
                    model.distinctStates().getAsLong(),
                    report.run().statistics().distinctStates().orElse(-1),
                    model.name() + ": distinct states differ from spec/models.json");
        }
    }

    @Test
    void committedGeneratedTestsAreCurrent() throws Exception {
        List<Model> models = ModelCatalog.of(ROOT.resolve("spec")).generationModels();
        Generation.Output output = CurrentGeneration.output();
        for (Model model : models) {
            Generation.ModelSummary summary =
                    output.summary().models().stream()
                            .filter(m -> m.model().equals(model.name()))
                            .findFirst()
                            .orElseThrow();
            if (model.distinctStates().isPresent()) {
                assertEquals(
                        model.distinctStates().getAsLong(),
                        summary.states(),
                        model.name() + ": distinct states differ from spec/models.json");
            }
        }
        List<String> stale = CommittedScenarios.staleness(output, ROOT.resolve("generated-tests"));
        assertEquals(List.of(), stale, "generated scenarios are stale: run ./proofgate generate and review the diff");
    }
}
