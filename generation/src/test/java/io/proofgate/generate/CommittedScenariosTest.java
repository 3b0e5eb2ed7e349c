package io.proofgate.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** The scenario folder is replaced whole, an interrupted run is cleaned up, and staleness is exact. */
class CommittedScenariosTest {

    @TempDir Path module;

    private static Generation.Output output(Map<String, String> files) {
        return new Generation.Output(files, new Generation.Summary(List.of(), Map.of()), Map.of());
    }

    private List<String> entries() throws IOException {
        try (Stream<Path> list = Files.list(module)) {
            return list.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void writingReplacesTheWholeFolder() throws IOException {
        CommittedScenarios.write(output(Map.of("ci/a.scenarios", "one\n", "ci/b.scenarios", "two\n")), module);
        CommittedScenarios.write(output(Map.of("ci/a.scenarios", "one\n")), module);
        assertEquals(Map.of("ci/a.scenarios", "one\n"), CommittedScenarios.read(module.resolve("scenarios")));
        assertEquals(List.of(), CommittedScenarios.staleness(output(Map.of("ci/a.scenarios", "one\n")), module));
        assertEquals(List.of(".generate-lock", "COVERAGE.md", "scenarios"), entries());
    }

    @Test
    void stalenessNamesAddedChangedAndRemovedFiles() throws IOException {
        CommittedScenarios.write(output(Map.of("ci/a.scenarios", "one\n", "ci/b.scenarios", "two\n")), module);
        List<String> stale =
                CommittedScenarios.staleness(
                        output(Map.of("ci/a.scenarios", "uno\n", "ci/c.scenarios", "x\n")), module);
        assertEquals(3, stale.size(), stale.toString());
        assertEquals(
                List.of(
                        "changed  ci/a.scenarios: scenarios 0 changed, 0 added, 0 removed"
                                + " (line 1: committed \"one\", generated \"uno\")",
                        "added    ci/c.scenarios",
                        "removed  ci/b.scenarios"),
                stale);
    }

    /** A file that differs in its line ends or its spaces only says where, with what a terminal would not show. */
    @Test
    void stalenessShowsLineEndsAndSpacesThatDiffer() throws IOException {
        CommittedScenarios.write(output(Map.of("ci/a.scenarios", "one\r\ntwo\n", "ci/b.scenarios", "x  \ny")), module);
        assertEquals(
                List.of(
                        "changed  ci/a.scenarios: scenarios 0 changed, 0 added, 0 removed"
                                + " (line 1: committed \"one\\r\", generated \"one\")",
                        "changed  ci/b.scenarios: scenarios 0 changed, 0 added, 0 removed"
                                + " (line 1: committed \"x  \", generated \"x\")"),
                CommittedScenarios.staleness(
                        output(Map.of("ci/a.scenarios", "one\ntwo\n", "ci/b.scenarios", "x\ny\n")), module));
    }

    @Test
    void stalenessCountsScenariosKeptChangedAddedAndRemoved() throws IOException {
        String before =
                "topology {}\n\nscenario a__x__1\nevent {}\n----\npending none\n\nscenario b__x__2\nevent {}\n----\n";
        String after =
                "topology {}\n\nscenario a__x__1\nevent {}\n----\nrejected r1\n\nscenario c__x__3\nevent {}\n----\n";
        CommittedScenarios.write(output(Map.of("ci/t.scenarios", before)), module);
        List<String> stale = CommittedScenarios.staleness(output(Map.of("ci/t.scenarios", after)), module);
        assertTrue(
                stale.getFirst().startsWith("changed  ci/t.scenarios: scenarios 1 changed, 1 added, 1 removed"),
                stale.getFirst());
    }

    @Test
    void aRunKilledBetweenTheTwoMovesIsRolledBackThenReplaced() throws IOException {
        CommittedScenarios.write(output(Map.of("ci/a.scenarios", "one\n")), module);
        // as a kill between "move the old folder aside" and "move the new one in" leaves it
        Files.move(module.resolve("scenarios"), module.resolve(".generate-123-old"));
        Files.createDirectories(module.resolve(".generate-123/ci"));
        Files.writeString(module.resolve(".generate-123/ci/a.scenarios"), "half");
        CommittedScenarios.write(output(Map.of("ci/a.scenarios", "two\n")), module);
        assertEquals(Map.of("ci/a.scenarios", "two\n"), CommittedScenarios.read(module.resolve("scenarios")));
        assertFalse(entries().stream().anyMatch(name -> name.startsWith(".generate-1")), entries().toString());
    }
}
