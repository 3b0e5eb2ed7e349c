package io.proofgate.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.check.CheckOptions;
import io.proofgate.check.CheckReport;
import io.proofgate.check.Model;
import io.proofgate.check.ModelCatalog;
import io.proofgate.check.ModelCheck;
import io.proofgate.generate.Generation;
import io.proofgate.tlc.Verdict;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * CI for the spec: every model spec/models.json lists (but deep, which needs a bigger machine)
 * gives the result it records under TLC, so each broken variant is caught with its invariant;
 * and the committed generated tests are what {@code proofgate generate} writes today.
 */
class SpecModelsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final PrintStream QUIET = new PrintStream(PrintStream.nullOutputStream());

    private static CheckOptions options(String name) {
        return new CheckOptions(Runtime.getRuntime().availableProcessors(), "2g",
                ROOT.resolve("target/proofgate/test").resolve(name), Duration.ofMinutes(10));
    }

    @TestFactory
    Stream<DynamicTest> everyListedModelGivesItsRecordedResult() throws Exception {
        ModelCatalog catalog = ModelCatalog.of(ROOT.resolve("spec"));
        List<Model> models = catalog.listed().stream()
                .filter(m -> !m.config().getFileName().toString().equals("MCPublicationDeep.cfg"))
                .toList();
        return models.stream().map(model -> DynamicTest.dynamicTest(model.name(), () -> {
            CheckReport report = ModelCheck.run(model, options(model.name()), QUIET);
            assertTrue(report.asExpected(), () -> model.name() + ": expected " + model.expected() + ", TLC said "
                    + report.verdict() + " " + report.run().violatedName().orElse("") + " (raw: "
                    + report.result().rawOutput() + ")");
            if (report.verdict() == Verdict.OK && model.distinctStates().isPresent()) {
                assertEquals(model.distinctStates().getAsLong(), report.run().statistics().distinctStates().orElse(-1),
                        model.name() + ": distinct states differ from spec/models.json");
            }
        }));
    }

    @Test
    void committedGeneratedTestsAreCurrent() throws Exception {
        List<Model> models = ModelCatalog.of(ROOT.resolve("spec")).generationModels();
        Generation.Output output = Generation.build(GenerateCommand.sources(models, ROOT, 2), QUIET);
        List<String> stale = Generation.staleness(output, ROOT.resolve("generated-tests"),
                ROOT.resolve("generated-tests/src/test/java"));
        assertEquals(List.of(), stale, "generated tests are stale: run ./proofgate generate and review the diff");
    }
}
