package io.proofgate.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Replays every {@code scenarios/**.jsonl} and compares stdout with the {@code .expected} beside it. The expected files
 * were checked by hand against protocol §3; {@code -Dproofgate.rewrite=true} rewrites them (commit the diff only if you
 * understand it).
 */
class ScenarioFilesTest {

    @TestFactory
    Stream<DynamicTest> seedScenariosReplayToTheirExpectedOutput() throws IOException, URISyntaxException {
        return logsIn("/scenarios");
    }

    private static Stream<DynamicTest> logsIn(String folder) throws IOException, URISyntaxException {
        Path root = Path.of(ScenarioFilesTest.class.getResource(folder).toURI());
        return Files.walk(root)
                .filter(path -> path.toString().endsWith(".jsonl"))
                .sorted()
                .map(log -> DynamicTest.dynamicTest(root.relativize(log).toString(), () -> check(log)));
    }

    private static void check(Path log) throws Exception {
        Path expectedFile = log.resolveSibling(log.getFileName().toString().replace(".jsonl", ".expected"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = Files.newInputStream(log)) {
            Replay.run(in, log.getFileName().toString(), out);
        }
        String actual = out.toString(StandardCharsets.UTF_8);
        if (Boolean.getBoolean("proofgate.rewrite")) {
            Path resources = Path.of(ScenarioFilesTest.class.getResource("/").toURI());
            Path source = Path.of("src/test/resources").resolve(resources.relativize(expectedFile));
            Files.writeString(source, actual);
            return;
        }
        assertEquals(Files.readString(expectedFile), actual, "replay output of " + log.getFileName());
    }
}
