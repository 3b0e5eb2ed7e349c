package io.proofgate.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A connector audit stopped by SIGTERM or SIGINT (Ctrl-C) leaves nothing behind: not the folder both revisions were
 * written into, not a file of git's, and no adapter still running. The adapters here have started and written into
 * their revision's folder when the signal comes.
 */
class AuditSignalTest {

    @TempDir Path repo;
    @TempDir Path temporary;

    @ParameterizedTest
    @ValueSource(strings = {"TERM", "INT"})
    void aStoppedAuditRemovesItsFolders(String signal) throws Exception {
        // A process started with a signal ignored keeps it ignored, and so does the audit it starts:
        // that is what nohup, a background job of a script or a runner that ignores Ctrl-C asks for,
        // and no kill can end the audit then. Such a run says so instead of waiting two minutes.
        assumeFalse(
                ignoredHere(signal),
                "SIG"
                        + signal
                        + " is ignored in this test's process (its parent ignores it), so the audit inherits that");
        Files.writeString(repo.resolve("adapter.sh"), "#!/bin/sh\n");
        git("init", "-q");
        git("add", "-A");
        git("-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-qm", "base");
        // the adapter writes into its revision's folder, then waits as one slow to say hello
        String adapter = "mkdir -p cache && echo started > cache/started && exec sleep 600";
        String jvm = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process audit =
                new ProcessBuilder(
                                List.of(
                                        jvm,
                                        "-Djava.io.tmpdir=" + temporary,
                                        "-Dproofgate.root=" + Path.of("..").toAbsolutePath().normalize(),
                                        "-cp",
                                        System.getProperty("java.class.path"),
                                        Main.class.getName(),
                                        "audit-connector",
                                        "--exec",
                                        adapter,
                                        "--repo",
                                        repo.toString(),
                                        "--base",
                                        "HEAD",
                                        "--head",
                                        "HEAD",
                                        "--timeout",
                                        "600"))
                        .redirectErrorStream(true)
                        .redirectOutput(temporary.resolve("output.txt").toFile())
                        .start();
        try {
            // generous: only a kit that never starts its adapters ends this wait
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
            while (started().size() < 2 && System.nanoTime() < deadline && audit.isAlive()) {
                Thread.sleep(50);
            }
            assertEquals(2, started().size(), () -> "both adapters started: " + output());
            List<Long> adapters = adapterProcesses();
            new ProcessBuilder("kill", "-" + signal, Long.toString(audit.pid())).start().waitFor();
            assertTrue(audit.waitFor(120, TimeUnit.SECONDS), "the audit did not end on SIG" + signal);
            List<String> left = new ArrayList<>();
            try (Stream<Path> files = Files.list(temporary)) {
                files.map(p -> p.getFileName().toString())
                        .filter(name -> !name.equals("output.txt"))
                        .forEach(left::add);
            }
            assertEquals(List.of(), left, "left behind in the temporary folder after SIG" + signal);
            for (long pid : adapters) {
                assertTrue(
                        ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true),
                        "adapter process " + pid + " still runs");
            }
        } finally {
            audit.destroyForcibly();
        }
    }

    /** Whether this process was started with {@code signal} ignored (Linux's /proc; false where it cannot tell). */
    private static boolean ignoredHere(String signal) throws Exception {
        int number = signal.equals("INT") ? 2 : 15;
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return false;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("SigIgn:")) {
                long mask = Long.parseUnsignedLong(line.substring("SigIgn:".length()).strip(), 16);
                return (mask & (1L << (number - 1))) != 0;
            }
        }
        return false;
    }

    private String output() {
        try {
            return Files.readString(temporary.resolve("output.txt"));
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }

    /** The marker files the adapters wrote, one per revision. */
    private List<Path> started() throws Exception {
        try (Stream<Path> files = Files.walk(temporary)) {
            return files.filter(p -> p.getFileName().toString().equals("started")).toList();
        } catch (java.io.UncheckedIOException | java.nio.file.NoSuchFileException e) {
            return List.of(); // a folder went while it was walked
        }
    }

    private List<Long> adapterProcesses() {
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().orElse("").contains("sleep 600"))
                .map(ProcessHandle::pid)
                .toList();
    }

    private void git(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("git", "-C", repo.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), output);
    }
}
