package io.proofgate.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.tlc.TlcEnding;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

/**
 * A model whose invariants must each be violated, as the reachability model's: one TLC run per invariant, in one warm
 * JVM from three invariants on, each finding what it finds in a fresh JVM.
 */
class RunEachTest {

    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    private static final String MODULE =
            """
            ---- MODULE Reach ----
            EXTENDS Integers
            VARIABLE x
            Init == x = 0
            Next == x < 5 /\\ x' = x + 1
            DebugOne == x # 1
            DebugTwo == x # 2
            DebugThree == x # 3
            DebugNever == x # 9
            ====
            """;

    /** The model {@code Reach} in {@code dir}, each of {@code invariants} expected violated. */
    private static Model model(Path dir, List<String> invariants) throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("Reach.tla"), MODULE);
        Files.writeString(
                dir.resolve("MCReach.cfg"),
                "INIT Init\nNEXT Next\nINVARIANTS\n    "
                        + String.join("\n    ", invariants)
                        + "\nCHECK_DEADLOCK FALSE\n");
        return new Model(
                "reach",
                dir.resolve("Reach.tla"),
                dir.resolve("MCReach.cfg"),
                new Model.Expected.EachViolated(invariants),
                OptionalLong.empty(),
                "",
                dir,
                true);
    }

    /** One worker: the same states in the same order, so a violation is found at the same count. */
    private static CheckOptions options(Path out) {
        return new CheckOptions(1, "256m", out, Duration.ofMinutes(2));
    }

    private static String found(CheckReport report) {
        return report.model().name()
                + ": "
                + report.ending()
                + " "
                + report.run().violatedName()
                + ", distinct "
                + report.run().statistics().distinctStates()
                + ", as expected "
                + report.asExpected();
    }

    @Test
    void threeInvariantsRunInOneWarmJvmAndFindWhatFreshJvmsFind(@TempDir Path dir) throws Exception {
        List<String> invariants = List.of("DebugOne", "DebugTwo", "DebugThree");
        List<CheckReport> warm =
                ModelCheck.runEach(model(dir.resolve("spec"), invariants), options(dir.resolve("warm")), QUIET);
        assertTrue(Files.isDirectory(dir.resolve("warm/warm-tlc/child-0")), "the runs went to a warm JVM");
        assertFalse(Files.exists(dir.resolve("warm/warm-tlc/child-1")), "one warm JVM ran them all");
        assertEquals(3, warm.size());
        for (int i = 0; i < invariants.size(); i++) {
            // alone, the model has one invariant: fewer than three run in a fresh JVM each
            List<CheckReport> fresh =
                    ModelCheck.runEach(
                            model(dir.resolve("spec-" + i), List.of(invariants.get(i))),
                            options(dir.resolve("fresh-" + i)),
                            QUIET);
            assertFalse(Files.exists(dir.resolve("fresh-" + i + "/warm-tlc")), "one run goes to a fresh JVM");
            assertEquals(found(fresh.getFirst()), found(warm.get(i)));
            assertEquals(TlcEnding.VIOLATION, warm.get(i).ending(), found(warm.get(i)));
            assertTrue(warm.get(i).asExpected(), found(warm.get(i)));
            assertEquals(i + 2, warm.get(i).run().statistics().distinctStates().orElse(-1), "x = 0 .. " + (i + 1));
        }
    }

    /** Also in a folder that holds an earlier run's files, as SpecModelsTest's does when mvn verify runs again. */
    @Test
    void anInvariantNoStateViolatesIsNotAsExpectedInAWarmJvm(@TempDir Path dir) throws Exception {
        Model model = model(dir.resolve("spec"), List.of("DebugOne", "DebugNever", "DebugThree"));
        for (int again = 0; again < 2; again++) {
            Files.deleteIfExists(dir.resolve("warm/warm-tlc/child-0/stderr.txt")); // this round's child writes it anew
            List<CheckReport> reports = ModelCheck.runEach(model, options(dir.resolve("warm")), QUIET);
            assertTrue(Files.exists(dir.resolve("warm/warm-tlc/child-0/stderr.txt")), "the runs went to a warm JVM");
            assertEquals(List.of(true, false, true), reports.stream().map(CheckReport::asExpected).toList());
            assertEquals(TlcEnding.OK, reports.get(1).ending(), found(reports.get(1)));
        }
    }
}
