package io.proofgate.conform;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.proofgate.json.JsonWords;
import io.proofgate.words.Outside;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Fuzzing of the reader of generated scenario files (Jazzer): a folder given to {@code --scenarios} is outside input,
 * so any file reads as scenarios, or is refused with {@code FILE:LINE:COLUMN: problem} in words fit for a terminal;
 * nothing else escapes, and no scenario states both a connector's verdicts and vLLM's block contents.
 */
@org.junit.jupiter.api.parallel.Isolated("Jazzer instruments the whole JVM")
class ScenarioFileFuzzTest {

    private static final Path DIR = folder();
    private static final Path FILE = DIR.resolve("fuzz.scenarios");
    private static final Pattern LOCATED =
            Pattern.compile(Pattern.quote(FILE.toString()) + ":[1-9][0-9]*:[1-9][0-9]*: .+", Pattern.DOTALL);

    private static Path folder() {
        try {
            Path dir = Files.createTempDirectory("proofgate-scenario-fuzz-");
            dir.toFile().deleteOnExit();
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FuzzTest(maxDuration = "10s")
    void anyScenarioFileReadsOrIsRefusedAtItsPlace(byte[] bytes) throws IOException {
        Files.write(FILE, bytes);
        try {
            for (Scenario scenario : ScenarioReader.read(DIR)) {
                int after =
                        switch (scenario.expected()) {
                            case Scenario.PerEvent perEvent -> perEvent.after().size();
                            case Scenario.BlockContents stated -> stated.after().size();
                            case Scenario.WholeLog whole -> scenario.events().size();
                        };
                assertTrue(after == scenario.events().size(), scenario.id());
            }
        } catch (ConformException e) {
            assertTrue(
                    LOCATED.matcher(e.getMessage()).matches() || e.getMessage().startsWith(FILE.toString() + ": "),
                    Outside.quoted(e.getMessage()));
            assertTrue(JsonWords.fitForATerminal(e.getMessage()), Outside.quoted(e.getMessage()));
        } finally {
            Files.deleteIfExists(FILE);
        }
    }
}
