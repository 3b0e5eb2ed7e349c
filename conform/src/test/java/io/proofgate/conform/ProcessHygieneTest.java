package io.proofgate.conform;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Nothing an adapter started outlives the run: a child in its process group, and a daemon that double-forked and called
 * setsid (so it is neither in the group nor a descendant any more).
 */
class ProcessHygieneTest {

    @TempDir Path pids;

    @TempDir Path folder;

    /** ConformBadAdapterTest's scenario: one request admitted, then finished. */
    private java.util.List<Scenario> scenarios() throws Exception {
        Files.writeString(
                folder.resolve("one.scenarios"),
                """
                topology {"kind":"topology","schema":"proofgate-events/v1","groups":[{"policy":"full","block_tokens":2304}]}

                scenario finished_r1
                event {"kind":"step","step":1,"new":[{"id":"r1","digest":"d1","prompt_tokens":6992,"computed":0,"scheduled":2304,"block_ids":[[1]]}]}
                ----
                pending r1 done=2304 table=[[1]] latch=[]
                counters plans=0 rejected=0 store_skipped_quorum=0 retired_finished=0

                event {"kind":"finished","id":"r1"}
                ----
                retired r1 cause=finished
                pending none
                counters plans=0 rejected=0 store_skipped_quorum=0 retired_finished=1
                """);
        return ScenarioReader.read(folder);
    }

    /** Generous, and only ever waited out when something is wrong: never a measure of speed. */
    /**
     * How long a wait for a process to appear or end may last: it returns as soon as it has, so only a failure waits it
     * out.
     */
    private static final Duration PATIENCE = Duration.ofMinutes(5);

    private static long pid(Path file) throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!Files.exists(file)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(file + " was never written");
            }
            Thread.sleep(20);
        }
        return Long.parseLong(Files.readString(file).strip());
    }

    /** Running, not a zombie (a zombie has ended; whoever reaps it is not the kit). */
    private static boolean running(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean endsWithin(long pid) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (running(pid)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    /**
     * Regression: the kit killed the descendants it sampled when it closed an adapter, so a daemon the adapter
     * double-forked (reparented, in a session of its own) outlived the run.
     */
    @Test
    void aChildAndADoubleForkedDaemonEndWithTheRun() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self")), "needs /proc (Linux)");
        Conform.Report report =
                Conform.run(
                        scenarios(),
                        () ->
                                new ProcessAdapter(
                                        ConformBadAdapterTest.ADAPTER + "spawn " + pids, Path.of("").toAbsolutePath()),
                        ConformBadAdapterTest.SETTINGS,
                        line -> {});
        assertFalse(report.results().isEmpty());
        long child = pid(pids.resolve("child.pid"));
        long daemon = pid(pids.resolve("daemon.pid"));
        boolean childEnded = endsWithin(child);
        boolean daemonEnded = endsWithin(daemon);
        // whatever the verdict, nothing is left behind by this test
        for (long pid : new long[] {child, daemon}) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
        assertTrue(childEnded, "the adapter's child " + child + " outlived the run");
        assertTrue(daemonEnded, "the adapter's double-forked daemon " + daemon + " outlived the run");
    }
}
