package io.proofgate.check;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fuzzing of the strict reader of spec/models.json (Jazzer): any text is a catalogue, or an error that names the file;
 * nothing else escapes (no library exception, no entry read half).
 */
@org.junit.jupiter.api.parallel.Isolated("Jazzer instruments the whole JVM")
class ModelsFileFuzzTest {

    private static final Path FILE;

    static {
        try {
            FILE = Files.createTempFile("models-fuzz", ".json");
            FILE.toFile().deleteOnExit();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @FuzzTest(maxDuration = "10s")
    void modelsFileReadsOrFailsWithItsName(byte[] bytes) throws IOException {
        String text = new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
        Files.writeString(FILE, text);
        try {
            ModelsFile file = ModelsFile.read(FILE);
            for (ModelsFile.Entry entry : file.entries()) {
                assertTrue(entry.name().matches("[a-z0-9][a-z0-9-]*") && entry.cfg() != null && entry.module() != null);
            }
        } catch (IOException e) {
            assertTrue(e.getMessage().startsWith(FILE.toString()), e.getMessage());
        }
    }
}
