package io.proofgate.tlc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * TLC never outlives proofgate: not on SIGTERM (shutdown hook), not on SIGKILL (TlcChild and WarmTlc watch their
 * parent), whether TLC runs in a JVM of its own or in a warm one.
 */
class TlcChildTest {

    @TempDir Path work;

    private Process parent(String mode) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        return new ProcessBuilder(
                        List.of(
                                java.toString(),
                                "-cp",
                                System.getProperty("java.class.path"),
                                TlcParentForTest.class.getName(),
                                Samples.path("Forever.tla").toString(),
                                work.toString(),
                                Samples.path("Forever.cfg").toString(),
                                mode))
                .redirectErrorStream(true)
                .redirectOutput(work.resolve("parent.out").toFile())
                .start();
    }

    /**
     * The TLC child of {@code parent}, once it runs the spec: a warm one once TLC's output has begun (after its
     * warm-up), so that it is killed mid-run (at most 5 minutes: a guard, never waited out when all is well).
     */
    private ProcessHandle child(Process parent) throws Exception {
        Path output = work.resolve("Forever.out");
        for (int i = 0; i < 3000; i++) {
            Optional<ProcessHandle> child =
                    parent.children()
                            .filter(
                                    p ->
                                            p.info().commandLine().orElse("").contains(TlcChild.class.getName())
                                                    || p.info()
                                                            .commandLine()
                                                            .orElse("")
                                                            .contains(WarmTlc.class.getName()))
                            .findFirst();
            boolean warm =
                    child.map(p -> p.info().commandLine().orElse("").contains(WarmTlc.class.getName())).orElse(false);
            if (child.isPresent() && (!warm || (Files.exists(output) && Files.size(output) > 0))) {
                Thread.sleep(500); // let TLC get going
                return child.get();
            }
            assertTrue(parent.isAlive(), "the parent ended before starting TLC");
            Thread.sleep(100);
        }
        throw new AssertionError("no TLC child after 5 minutes");
    }

    private static void assertEnds(ProcessHandle child) throws Exception {
        try {
            child.onExit().get(5, TimeUnit.MINUTES);
        } catch (java.util.concurrent.TimeoutException e) {
            child.destroyForcibly();
            throw new AssertionError("TLC still ran 5 minutes after its parent was killed");
        }
        assertFalse(child.isAlive());
    }

    /** A fresh TLC (TlcChild) or a warm one (WarmTlc) ends with its parent, however the parent ends. */
    @ParameterizedTest(name = "{0} TLC, the parent ended by {1}")
    @CsvSource({"fresh, SIGKILL", "fresh, SIGTERM", "warm, SIGKILL", "warm, SIGTERM"})
    void tlcEndsWithItsParent(String mode, String signal) throws Exception {
        Process parent = parent(mode);
        ProcessHandle child = child(parent);
        if (signal.equals("SIGKILL")) {
            parent.destroyForcibly(); // no shutdown hook runs: the child sees its parent go
        } else {
            parent.destroy(); // the shutdown hook kills the child
        }
        parent.waitFor();
        assertEnds(child);
    }
}
