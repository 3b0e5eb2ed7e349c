package io.proofgate.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import javax.xml.parsers.DocumentBuilderFactory;

/** {@code proofgate conform} as a user runs it: exit codes, the report on stdout, the JUnit file. */
class ConformCommandTest {

    private static final String HAND_WRITTEN = "../validator/src/test/resources/scenarios";

    @Test
    void theReferenceInProcessPassesWithExitZeroAndAJunitFile(@TempDir Path dir) throws Exception {
        Path junit = dir.resolve("reports/conform.xml");
        CliRun run = CliRun.of("conform", "--in-process", "--scenarios", HAND_WRITTEN, "--junit", junit.toString());
        assertEquals(Main.OK, run.exit(), run.err());
        assertTrue(run.out().contains("16 scenarios: 16 passed, 0 unsafe, 0 failed, 0 not run, 0 errors;"), run.out());
        Element suites =
                DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(junit.toFile()).getDocumentElement();
        assertEquals("16", suites.getAttribute("tests"));
        assertEquals("0", suites.getAttribute("failures"));
        assertEquals(16, suites.getElementsByTagName("testcase").getLength());
        try (var files = Files.list(junit.getParent())) {
            assertEquals(1, files.count(), "no temporary file left beside the report");
        }
    }

    @Test
    void thePlantedBugIsExitOneWithTheShrunkScenario(@TempDir Path dir) throws Exception {
        Path junit = dir.resolve("conform.xml");
        CliRun run =
                CliRun.of(
                        "conform",
                        "--exec",
                        "python3 ../examples/conform/toy_connector.py",
                        "--scenarios",
                        HAND_WRITTEN,
                        "--junit",
                        junit.toString());
        assertEquals(Main.FINDINGS, run.exit(), run.err());
        assertTrue(
                run.out()
                        .contains(
                                "FAIL seed/01-aligned-proof-then-absent: after event 2 (line 3): plan -> rejected"
                                        + " invalid_selection\n"),
                run.out());
        assertTrue(run.out().contains("shrunk to 2 events after the topology:"), run.out());
        assertTrue(run.out().contains("not compared: the facts of each rejection's reason"), run.out());
        Element suites =
                DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(junit.toFile()).getDocumentElement();
        assertFalse(suites.getAttribute("failures").equals("0"));
        assertEquals("2", suites.getAttribute("skipped"), "the wide-integer logs, without wide_integers");
    }

    @Test
    void anAdapterThatCannotStartIsExitTwoWithOneLineAndNoReport(@TempDir Path dir) throws Exception {
        Path junit = dir.resolve("conform.xml");
        Files.writeString(junit, "<testsuites tests=\"1\" failures=\"0\" errors=\"0\"/>"); // an earlier run's
        CliRun run = CliRun.of("conform", "--exec", "exit 4", "--scenarios", HAND_WRITTEN, "--junit", junit.toString());
        assertEquals(Main.USAGE, run.exit());
        assertEquals("", run.out());
        assertTrue(
                run.err()
                        .endsWith(
                                "\nproofgate conform: the adapter did not answer the hello: it closed its output"
                                        + " (it exited with status 4)\n"),
                run.err());
        assertFalse(Files.exists(junit));
    }

    /**
     * An adapter that fails after its last answer errs the run, and the JUnit file, whose scenarios all passed, says
     * so.
     */
    @Test
    void anAdapterThatFailsAfterItsLastAnswerIsAnErrorOfTheJunitFileToo(@TempDir Path dir) throws Exception {
        Path junit = dir.resolve("conform.xml");
        CliRun run =
                CliRun.of(
                        "conform",
                        "--exec",
                        "python3 ../examples/conform/toy_connector.py --fixed; exit 7",
                        "--scenarios",
                        HAND_WRITTEN,
                        "--jobs",
                        "1",
                        "--junit",
                        junit.toString());
        assertEquals(Main.USAGE, run.exit(), run.err());
        String xml = Files.readString(junit);
        assertTrue(xml.contains("<testsuite name=\"run\""), xml);
        assertTrue(xml.contains("exited with status 7"), xml);
        assertFalse(
                xml.contains("<testsuites name=\"proofgate conform\" tests=\"16\" failures=\"0\" errors=\"0\""), xml);
    }

    /** A run where nothing ran is exit 2, and says why nothing ran: here not a capability, but the adapter's answer. */
    @Test
    void anAdapterThatFindsNoScenarioApplicableIsExitTwoInItsWords(@TempDir Path dir) throws Exception {
        Path junit = dir.resolve("conform.xml");
        CliRun run =
                CliRun.of(
                        "conform",
                        "--exec",
                        "python3 ../conform/src/test/resources/adapters/bad_adapter.py not-applicable",
                        "--scenarios",
                        HAND_WRITTEN,
                        "--junit",
                        junit.toString());
        // the JUnit file says so too: a file of skipped tests alone reads as a pass to most gates
        String xml = Files.readString(junit);
        assertTrue(
                xml.contains(
                        "<error message=\"no scenario ran (every one needs a capability the adapter does not declare,"
                                + " or the adapter answered not_applicable to it)\""),
                xml);
        assertTrue(xml.contains(" errors=\"1\""), xml);
        assertEquals(Main.USAGE, run.exit(), run.err());
        assertTrue(
                run.out().contains(" scenarios not applicable: \"a connector of attention layers only\""), run.out());
        assertTrue(
                run.err()
                        .endsWith(
                                "proofgate conform: no scenario ran (every one needs a capability the adapter does not"
                                        + " declare, or the adapter answered not_applicable to it)\n"),
                run.err());
    }

    @Test
    void anAdapterThatBreaksTheProtocolMidRunIsExitTwo() {
        CliRun run =
                CliRun.of(
                        "conform",
                        "--exec",
                        "python3 ../conform/src/test/resources/adapters/bad_adapter.py unknown-request",
                        "--scenarios",
                        HAND_WRITTEN);
        assertEquals(Main.USAGE, run.exit());
        assertTrue(run.out().contains("ERROR scenario seed/01-aligned-proof-then-absent, event 1 ("), run.out());
        // every scenario of this adapter errs, so the run also stops at --max-errors, which the line names
        assertTrue(
                run.err()
                        .contains(
                                ": the run could not be judged (see ERROR in the report); it stopped at --max-errors"
                                        + " 10"),
                run.err());
    }

    @Test
    void aMalformedScenarioFileIsExitTwoAtItsLine(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("bad.scenarios"),
                "topology {\"kind\":\"topology\"}\n\nscenario x\nevent {\"kind\":\"held\"}\n");
        assertEquals(
                new CliRun(
                        Main.USAGE,
                        "",
                        "proofgate conform: "
                                + dir.resolve("bad.scenarios")
                                + ":5:1: an event line must be followed by ----\n"),
                CliRun.of("conform", "--in-process", "--scenarios", dir.toString()));
        Files.writeString(
                dir.resolve("bad.scenarios"),
                "topology {\"kind\":\"topology\"}\n\n"
                        + "scenario x\n"
                        + "event {\"kind\":\"held\"}\n"
                        + "----\n"
                        + "retired r1 cause=finished extra=1\n"
                        + "counters plans=0 rejected=0 store_skipped_quorum=0 retired_finished=1\n");
        assertEquals(
                new CliRun(
                        Main.USAGE,
                        "",
                        "proofgate conform: "
                                + dir.resolve("bad.scenarios")
                                + ":6:1: a retired line has 3 words, this one 4\n"),
                CliRun.of("conform", "--in-process", "--scenarios", dir.toString()));
    }

    @Test
    void usageErrorsAreExitTwo() {
        CliRun neither = CliRun.of("conform", "--scenarios", HAND_WRITTEN);
        assertEquals(Main.USAGE, neither.exit());
        assertTrue(neither.err().contains("give the adapter with --exec CMD, or --in-process"), neither.err());
        for (CliRun run :
                List.of(
                        neither,
                        CliRun.of("conform", "--in-process", "--exec", "x"),
                        CliRun.of("conform", "--in-process", "--scenarios", "no/such/folder"),
                        CliRun.of("conform", "--in-process", "--jobs", "0"))) {
            assertEquals(Main.USAGE, run.exit(), run.err());
            assertEquals("", run.out());
        }
    }

    /**
     * Regression: the kit held one answer's lines without limit, so an adapter that floods verdicts before its end
     * marker took 1 GB of RSS, or at a small heap an OutOfMemoryError's text. Now the answer's limit is an error of the
     * scenario, in a 48 MiB heap.
     */
    @Test
    void aFloodingAdapterIsAnErrorOfItsScenarioInASmallHeap(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("one.scenarios"),
                """
                topology {"kind":"topology","schema":"proofgate-events/v1","groups":[{"policy":"full","block_tokens":2304}]}

                scenario finished_r1
                event {"kind":"finished","id":"r1"}
                ----
                pending none
                counters plans=0 rejected=0 store_skipped_quorum=0 retired_finished=0
                """);
        Child child =
                Child.run(
                        "-Xmx48m",
                        "conform",
                        "--exec",
                        "python3 ../conform/src/test/resources/adapters/bad_adapter.py flood",
                        "--scenarios",
                        dir.toString(),
                        "--jobs",
                        "1",
                        "--max-errors",
                        "1");
        String output = child.output();
        assertEquals(Main.USAGE, child.exit(), output);
        assertTrue(
                output.contains(
                        "scenario one/finished_r1, the topology: the adapter printed more than 10000 lines in one"
                                + " answer without its end marker {\"kind\":\"end\"} (the limit of one answer; raise it"
                                + " with --max-answer-lines)"),
                output);
        assertFalse(output.contains("OutOfMemoryError"), output);
        assertTrue(output.contains("; it stopped at --max-errors 1, so 1 scenarios have no verdict"), output);
    }

    /**
     * Scenario files over the documented limits are refused before they are read, at their place, with exit 2: a file
     * of more than 256 MiB (sparse here, as the hostile probe's was), a line of more than 4 MiB. Before, the file was
     * read whole: at a small heap the kit exited 1, as if scenarios had failed, with Java's OutOfMemoryError.
     */
    @Test
    void scenarioFilesOverTheLimitsAreRefusedLocated(@TempDir Path dir) throws Exception {
        Path huge = dir.resolve("huge").resolve("huge.scenarios");
        Files.createDirectories(huge.getParent());
        try (java.io.RandomAccessFile file = new java.io.RandomAccessFile(huge.toFile(), "rw")) {
            file.setLength(300L << 20);
        }
        CliRun run = CliRun.of("conform", "--exec", "true", "--scenarios", huge.getParent().toString());
        assertEquals(Main.USAGE, run.exit(), run.err());
        assertEquals(
                "proofgate conform: "
                        + huge
                        + ": 314,572,800 bytes, over the limit of 256 MiB for a scenario file"
                        + " (every scenario is held in memory for the run)\n",
                run.err());
        Path log = dir.resolve("long").resolve("log.jsonl");
        Files.createDirectories(log.getParent());
        Files.writeString(log, "{\"kind\":\"topology\"}\n{\"kind\":\"step\",\"x\":\"" + "x".repeat(5 << 20) + "\"}\n");
        Files.writeString(dir.resolve("long").resolve("log.expected"), "");
        CliRun line = CliRun.of("conform", "--exec", "true", "--scenarios", log.getParent().toString());
        assertEquals(Main.USAGE, line.exit(), line.err());
        assertEquals(
                "proofgate conform: "
                        + log
                        + ":2:1: a line of more than 4 MiB, over the limit for a line of a scenario file\n",
                line.err());
    }

    /**
     * Scenarios within the limits that still do not fit the heap end in the project's words and exit 2, never an
     * OutOfMemoryError's text or a run that looks judged.
     */
    @Test
    void scenariosThatDoNotFitTheHeapAreExitTwoInWords(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("big").resolve("log.jsonl");
        Files.createDirectories(log.getParent());
        try (java.io.Writer out = Files.newBufferedWriter(log)) {
            out.write(
                    "{\"kind\":\"topology\",\"schema\":\"proofgate-events/v1\",\"groups\":[{\"policy\":\"full\",\"block_tokens\":2304}]}\n");
            for (int i = 0; i < 400_000; i++) {
                out.write("{\"kind\":\"finished\",\"id\":\"request-" + i + "-with-a-long-name-to-fill-the-heap\"}\n");
            }
        }
        Files.writeString(dir.resolve("big").resolve("log.expected"), "");
        Child child = Child.run("-Xmx24m", "conform", "--exec", "true", "--scenarios", log.getParent().toString());
        String output = child.output();
        assertEquals(Main.USAGE, child.exit(), output);
        assertTrue(output.startsWith("proofgate conform: out of memory (a heap of "), output);
        assertTrue(
                output.endsWith(
                        "nothing was judged and any report above is incomplete; raise the heap with"
                                + " PROOFGATE_JVM_OPTS=-Xmx...\n"),
                output);
        assertFalse(output.contains("OutOfMemoryError") || output.contains("\tat "), output);
    }

    /**
     * The command line run in a JVM of its own with {@code heap}: its exit and its output, stdout and stderr together.
     */
    private record Child(int exit, String output) {
        static Child run(String heap, String... args) throws Exception {
            List<String> command =
                    new java.util.ArrayList<>(
                            List.of(
                                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                    heap,
                                    "-XX:+UseSerialGC",
                                    "-cp",
                                    System.getProperty("java.class.path"),
                                    Main.class.getName()));
            command.addAll(List.of(args));
            Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
            // generous: a loaded machine is slow, and this only bounds a kit that hangs
            boolean done = child.waitFor(300, java.util.concurrent.TimeUnit.SECONDS);
            String output = new String(child.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (!done) {
                child.destroyForcibly();
            }
            assertTrue(done, "the kit did not finish in 300 s: " + output);
            return new Child(child.exitValue(), output);
        }
    }
}
