package io.proofgate.scenario;

import static org.junit.jupiter.api.Assertions.assertFalse;

import io.proofgate.format.ScenarioBlock;
import io.proofgate.format.ScenarioFile;

import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Runs every scenario that {@code proofgate generate} wrote under {@code scenarios/}: one container per file
 * (model/topic), one test per scenario, each through {@link Scenario#run} on the store {@code -Dproofgate.store} names.
 * The folder is {@code -Dproofgate.scenarios} where set (the GPU scripts run the tests outside the module), else the
 * module's own.
 */
class GeneratedScenariosTest {

    static Path folder() {
        String set = System.getProperty("proofgate.scenarios");
        return set != null ? Path.of(set) : Path.of("scenarios");
    }

    @TestFactory
    Stream<DynamicNode> everyGeneratedScenarioPasses() throws IOException {
        Path root = folder();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(p -> p.getFileName().toString().endsWith(".scenarios")).sorted().toList();
        }
        assertFalse(files.isEmpty(), "no scenario files under " + root.toAbsolutePath());
        return files.stream()
                .map(
                        path -> {
                            ScenarioFile file;
                            try {
                                file = ScenarioFile.read(path.toString(), Files.readAllLines(path));
                            } catch (IOException e) {
                                throw new IllegalStateException(path + ": cannot be read: " + e.getMessage(), e);
                            }
                            String display = root.relativize(path).toString();
                            return DynamicContainer.dynamicContainer(
                                    display,
                                    path.toUri(),
                                    file.scenarios().stream()
                                            .map(
                                                    entry ->
                                                            DynamicTest.dynamicTest(
                                                                    entry.name(),
                                                                    URI.create(path.toUri() + "?line=" + entry.line()),
                                                                    () -> run(display, file.topology(), entry))));
                        });
    }

    private static void run(String file, String topology, ScenarioBlock entry) {
        try {
            Scenario.run(topology, entry.steps(), "topology " + topology + "\n" + entry.text());
        } catch (AssertionError e) {
            throw new AssertionError(
                    file + ":" + entry.line() + ": scenario " + entry.name() + ": " + e.getMessage(), e);
        }
    }
}
