package io.proofgate.cli;

import io.proofgate.check.ModelCatalog;
import io.proofgate.generate.Generation;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The generation of the spec as it is, computed once per test JVM: the staleness check (SpecModelsTest) and the
 * locality baseline (GenerationLocalityTest) need the same TLC runs, and each costs about forty seconds of CI.
 */
final class CurrentGeneration {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static Generation.Output output;

    private CurrentGeneration() {}

    static synchronized Generation.Output output() throws IOException, InterruptedException {
        if (output == null) {
            ModelCatalog catalog = ModelCatalog.of(ROOT.resolve("spec"));
            output =
                    GenerateCommand.generate(
                            catalog.generationModels(),
                            ROOT,
                            ROOT.resolve("target/proofgate/test/generate"),
                            2,
                            new PrintStream(PrintStream.nullOutputStream()));
        }
        return output;
    }
}
