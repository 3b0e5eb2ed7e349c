package io.proofgate.tlc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A warm TLC JVM runs one spec after the other and gives what a fresh JVM gives for each: the real TLC on the tiny
 * specs, every kind of ending, each run compared with its fresh twin.
 */
class WarmTlcPoolTest {

    private static Path copySpec(Path dir, String name) throws IOException {
        Files.createDirectories(dir);
        Files.copy(Samples.path(name + ".tla"), dir.resolve(name + ".tla"));
        Files.copy(Samples.path(name + ".cfg"), dir.resolve(name + ".cfg"));
        return dir.resolve(name + ".tla");
    }

    /** What a run found, without what differs from run to run (times, paths, the JVM's figures). */
    private static String found(TlcResult r) {
        TlcRun run = r.run();
        return "exit "
                + r.exitCode()
                + ", "
                + run.ending()
                + ", violated "
                + run.violatedName()
                + ", bound reached "
                + r.stateBoundReached()
                + ", timed out "
                + r.timedOut()
                + ", distinct "
                + run.statistics().distinctStates()
                + ", generated "
                + run.statistics().generatedStates()
                + ", problem "
                + run.parseProblem()
                + ", errors "
                + run.errors().stream().map(TlcMessage::text).toList()
                + ", trace "
                + run.trace();
    }

    private static TlcCommand command(Path spec, Path out, Optional<StateBound> bound) {
        TlcCommand command =
                TlcCommand.of(spec, out).withMaxHeap("256m").withTimeout(Duration.ofMinutes(1)).withoutDeadlockCheck();
        return bound.map(command::withStateBound).orElse(command);
    }

    @Test
    void oneWarmJvmRunsSpecAfterSpecAndFindsWhatAFreshJvmFinds(@TempDir Path dir) throws Exception {
        // a violation, a bounded run without end, a module SANY refuses, an evaluation error, a
        // liveness lasso, and the first two again: a run must not see what the runs before it
        // left (a bounded run after another run once read that run's checker and never stopped)
        List<String> specs = List.of("Tiny", "Forever", "SemanticError", "RuntimeError", "Lasso", "Forever", "Tiny");
        try (WarmTlcPool pool = new WarmTlcPool(dir.resolve("pool"), "256m")) {
            for (int i = 0; i < specs.size(); i++) {
                String name = specs.get(i);
                Optional<StateBound> bound =
                        name.equals("Forever") ? Optional.of(new StateBound(300)) : Optional.empty();
                Path spec = copySpec(dir.resolve(i + "-" + name), name);
                TlcResult fresh = TlcProcess.run(command(spec, dir.resolve(i + "-fresh"), bound), m -> {});
                TlcResult warm = pool.run(command(spec, dir.resolve(i + "-warm"), bound));
                assertEquals(found(fresh), found(warm), name);
                assertTrue(
                        Files.readString(warm.rawOutput()).contains("@!@!@STARTMSG"),
                        "TLC's -tool output, in the run's file");
            }
            assertEquals(1, pool.childrenStarted(), "every run in the one warm JVM");
        }
    }

    /**
     * A config in another folder than its module (check's one config per invariant, a user's models folder) is read as
     * a fresh JVM reads it. A warm child once answered such a run with TLC's "File not found" for the config: an error
     * where the fresh JVM found the violation.
     */
    @Test
    void aConfigOutsideItsModulesFolderIsReadAsAFreshJvmReadsIt(@TempDir Path dir) throws Exception {
        Path spec = copySpec(dir.resolve("module"), "Tiny");
        assertReadWarmAsFresh(
                dir, spec, configElsewhere(dir, spec), 2); // in a child's first run, and in one after another
    }

    @Test
    void aConfigOutsideAModuleFolderReachedThroughALinkIsReadWarm(@TempDir Path dir) throws Exception {
        // the link leads two folders deeper than it stands: a config named from the link's own
        // path would be looked for two folders too high once the system follows the link
        Path spec = copySpec(dir.resolve("deep/er/module"), "Tiny");
        Path config = configElsewhere(dir, spec);
        Files.createSymbolicLink(dir.resolve("link"), dir.resolve("deep/er"));
        assertReadWarmAsFresh(dir, dir.resolve("link/module/Tiny.tla"), config, 1);
    }

    /** Moves the spec's config to a folder of its own, {@code dir/configs}. */
    private static Path configElsewhere(Path dir, Path spec) throws IOException {
        Path config = dir.resolve("configs/Tiny.cfg");
        Files.createDirectories(config.getParent());
        Files.move(spec.resolveSibling("Tiny.cfg"), config);
        return config;
    }

    /** {@code runs} warm runs of the spec with the config find what a fresh JVM finds, all in one warm child. */
    private static void assertReadWarmAsFresh(Path dir, Path spec, Path config, int runs) throws Exception {
        TlcResult fresh =
                TlcProcess.run(command(spec, dir.resolve("fresh"), Optional.empty()).withConfig(config), m -> {});
        assertEquals(TlcEnding.VIOLATION, fresh.run().ending(), "the fresh JVM reads the config: " + found(fresh));
        try (WarmTlcPool pool = new WarmTlcPool(dir.resolve("pool"), "256m")) {
            for (int i = 0; i < runs; i++) {
                TlcResult warm = pool.run(command(spec, dir.resolve("warm-" + i), Optional.empty()).withConfig(config));
                assertEquals(found(fresh), found(warm), "run " + i);
            }
            assertEquals(1, pool.childrenStarted(), "the runs went to one warm child");
        }
    }

    @Test
    void theOrderOfStringsIsTheRunsOwnNotTheOneOfTheRunsBeforeIt(@TempDir Path dir) throws Exception {
        // TLC orders strings, and so sets and record fields, by when it first saw each: a warm JVM
        // that kept the first run's order would print the second's state differently
        try (WarmTlcPool pool = new WarmTlcPool(dir.resolve("pool"), "256m")) {
            for (String name : List.of("StringOrderZA", "StringOrderAZ")) {
                Path spec = copySpec(dir.resolve(name), name);
                TlcResult fresh =
                        TlcProcess.run(command(spec, dir.resolve(name + "-fresh"), Optional.empty()), m -> {});
                TlcResult warm = pool.run(command(spec, dir.resolve(name + "-warm"), Optional.empty()));
                assertEquals(found(fresh), found(warm), name);
            }
            assertEquals(1, pool.childrenStarted());
        }
    }

    @Test
    void aRunPastItsTimeLimitEndsItsJvmAndTheNextRunGetsAnother(@TempDir Path dir) throws Exception {
        Path forever = copySpec(dir.resolve("forever"), "Forever");
        Path tiny = copySpec(dir.resolve("tiny"), "Tiny");
        try (WarmTlcPool pool = new WarmTlcPool(dir.resolve("pool"), "256m")) {
            TlcResult stopped =
                    pool.run(
                            TlcCommand.of(forever, dir.resolve("out-forever"))
                                    .withMaxHeap("256m")
                                    .withoutDeadlockCheck()
                                    .withTimeout(Duration.ofSeconds(3)));
            assertTrue(stopped.timedOut());
            assertTrue(stopped.unfinished());
            TlcResult next = pool.run(command(tiny, dir.resolve("out-tiny"), Optional.empty()));
            assertEquals(Optional.of("SmallX"), next.run().violatedName());
            assertEquals(2, pool.childrenStarted());
            assertEquals(1, pool.childrenHeld(), "the ended child is forgotten");
        }
    }

    @Test
    void aRunThatMayHaveLoadedOneOfTlcsClassesIsItsJvmsLast(@TempDir Path dir) throws Exception {
        // a child that cannot tell which classes are loaded takes every run as having loaded one:
        // it answers the run, then ends, and each run gets a JVM of its own, with the same outcome
        try (WarmTlcPool pool = new WarmTlcPool(dir.resolve("pool"), "256m", false)) {
            for (int i = 0; i < 3; i++) {
                Path spec = copySpec(dir.resolve(i + "-Tiny"), "Tiny");
                TlcResult fresh = TlcProcess.run(command(spec, dir.resolve(i + "-fresh"), Optional.empty()), m -> {});
                TlcResult warm = pool.run(command(spec, dir.resolve(i + "-warm"), Optional.empty()));
                assertEquals(found(fresh), found(warm));
                assertEquals(i + 1, pool.childrenStarted(), "a JVM per run");
                // each child answered its run before it ended (a child that never became ready would also count one)
                assertTrue(
                        Files.readString(dir.resolve("pool/child-" + i + "/stderr.txt"))
                                .contains("the next run gets another JVM"),
                        "child " + i);
            }
        }
    }

    @Test
    void aWarmJvmThatEndedBetweenRunsCostsTimeNotAnOutcome(@TempDir Path dir) throws Exception {
        Path tiny = copySpec(dir.resolve("tiny"), "Tiny");
        try (WarmTlcPool pool = new WarmTlcPool(dir.resolve("pool"), "256m")) {
            TlcResult first = pool.run(command(tiny, dir.resolve("out-1"), Optional.empty()));
            ProcessHandle.current()
                    .children()
                    .filter(p -> p.info().commandLine().orElse("").contains(WarmTlc.class.getName()))
                    .forEach(
                            p -> {
                                p.destroyForcibly();
                                p.onExit().join();
                            });
            TlcResult second = pool.run(command(tiny, dir.resolve("out-2"), Optional.empty()));
            assertEquals(found(first), found(second));
            assertEquals(OptionalLong.of(5), second.run().statistics().distinctStates());
        }
    }
}
