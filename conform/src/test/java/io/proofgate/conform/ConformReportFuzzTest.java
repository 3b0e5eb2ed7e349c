package io.proofgate.conform;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.proofgate.words.Outside;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Fuzzing of the conformance report (Jazzer): whatever a scenario's folder and name, its event lines and an adapter's
 * words hold, every line of the report is plain (no control, format or line-breaking character reaches the terminal
 * raw), the FAIL line and the shortest witness included.
 */
@org.junit.jupiter.api.parallel.Isolated("Jazzer instruments the whole JVM")
class ConformReportFuzzTest {

    @FuzzTest(maxDuration = "10s")
    void everyLineOfTheReportIsPlain(byte[] bytes) {
        String[] parts = new String(bytes, StandardCharsets.UTF_8).split("\u0000", -1);
        String suite = part(parts, 0);
        String name = part(parts, 1);
        String event = part(parts, 2);
        String said = part(parts, 3);
        Scenario scenario =
                new Scenario(
                        suite,
                        name,
                        Path.of("scenarios", suite + ".scenarios"),
                        3,
                        "{\"kind\":\"topology\"}",
                        List.of(new Scenario.Event(event, 4, "1")),
                        new Scenario.WholeLog(List.of(), null),
                        Set.of(),
                        Map.of());
        Result.Mismatch mismatch = new Result.Mismatch(1, "plan: " + said, List.of(event), List.of(said));
        Conform.Report report =
                new Conform.Report(
                        new Line.Hello("proofgate-adapter/v1", said, Set.of()),
                        List.of(
                                new Result.Failed(scenario, mismatch, 1, mismatch, 0.1),
                                new Result.Errored(scenario, said, 0.1)),
                        List.of(said),
                        1.0,
                        0.5,
                        2,
                        1,
                        0,
                        true);
        for (String line : ConformText.of(report, said).split("\n", -1)) {
            assertTrue(Outside.isPlain(line), () -> "raw in the report: " + Outside.quoted(line));
        }
    }

    private static String part(String[] parts, int i) {
        return i < parts.length ? parts[i] : "";
    }
}
