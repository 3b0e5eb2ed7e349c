package io.proofgate.conform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The Python adapter library's own unit tests ({@code adapters/python/tests}, standard library {@code unittest}), run
 * by {@code mvn verify} so that CI runs them: exit 0 and "OK", or the failing tests' output in the assertion message.
 */
class PythonAdapterLibraryTest {

    @Test
    void theLibrarysUnitTestsPass() throws IOException, InterruptedException {
        Path library = Path.of("../adapters/python").toAbsolutePath().normalize();
        ProcessBuilder builder =
                new ProcessBuilder("python3", "-m", "unittest", "discover", "-s", "tests", "-t", "tests")
                        .directory(library.toFile())
                        .redirectErrorStream(true);
        builder.environment().put("PYTHONDONTWRITEBYTECODE", "1");
        Process process = builder.start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "python3 -m unittest did not end within 120 s");
        assertEquals(0, process.exitValue(), output);
        assertTrue(output.strip().endsWith("OK"), output);
        assertTrue(output.matches("(?s).*\\nRan [1-9]\\d* tests in .*"), output);
    }
}
