package io.proofgate.tlc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.proofgate.parse.ParseException;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Each {@code invalid_*.out} in src/test/resources/tlc/ fails with the message in its {@code .errors} baseline (one
 * line: {@code file:line:column: detail}).
 */
class InvalidOutputTest {

    @TestFactory
    Stream<DynamicTest> invalidOutput_failsWithItsBaselineMessage() throws IOException {
        Path dir = Samples.path("Tiny.tla").getParent();
        try (Stream<Path> files = Files.list(dir)) {
            return files
                    .map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("invalid_") && n.endsWith(".out"))
                    .sorted()
                    .toList()
                    .stream()
                    .map(
                            name ->
                                    DynamicTest.dynamicTest(
                                            name,
                                            () -> {
                                                ParseException e =
                                                        assertThrows(ParseException.class, () -> Samples.output(name));
                                                String baseline = Samples.text(name.replace(".out", ".errors")).strip();
                                                assertEquals(baseline, e.getMessage());
                                            }));
        }
    }
}
