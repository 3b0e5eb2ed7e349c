package io.proofgate.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
 * Every structural error kind of a replay log: {@code invalid/NAME.jsonl} must fail with exactly the message in {@code
 * NAME.error} ({@code file:line:column: problem}) and leave no summary line.
 */
class InvalidLogsTest {

    @TestFactory
    Stream<DynamicTest> eachStructuralErrorIsLocatedAndStopsBeforeTheSummary() throws IOException, URISyntaxException {
        Path root = Path.of(InvalidLogsTest.class.getResource("/invalid").toURI());
        return Files.list(root)
                .filter(path -> path.toString().endsWith(".jsonl"))
                .sorted()
                .map(log -> DynamicTest.dynamicTest(log.getFileName().toString(), () -> check(log)));
    }

    private static void check(Path log) throws Exception {
        String name = log.getFileName().toString();
        String expected = Files.readString(log.resolveSibling(name.replace(".jsonl", ".error"))).strip();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ReplayException error;
        try (InputStream in = Files.newInputStream(log)) {
            error = assertThrows(ReplayException.class, () -> Replay.run(in, name, out));
        }
        assertEquals(expected, error.getMessage());
        assertFalse(out.toString(StandardCharsets.UTF_8).contains("\"summary\""), "no summary after an error");
    }
}
