package io.proofgate.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/** {@code proofgate conform} as a user runs it: exit codes, the report on stdout, the JUnit file. */
class ConformCommandTest {

    private static final String HAND_WRITTEN = "../validator/src/test/resources/scenarios";

    @Test
    void theReferenceInProcessPassesWithExitZeroAndAJunitFile(@TempDir Path dir) throws Exception {
        Path junit = dir.resolve("reports/conform.xml");
        CliRun run = CliRun.of("conform", "--in-process", "--scenarios", HAND_WRITTEN, "--junit", junit.toString());
        assertEquals(Main.OK, run.exit(), run.err());
        assertTrue(run.out().contains("13 scenarios: 13 passed, 0 failed, 0 not run, 0 errors;"), run.out());
        Element suites = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(junit.toFile()).getDocumentElement();
        assertEquals("13", suites.getAttribute("tests"));
        assertEquals("0", suites.getAttribute("failures"));
        assertEquals(13, suites.getElementsByTagName("testcase").getLength());
        try (var files = Files.list(junit.getParent())) {
            assertEquals(1, files.count(), "no temporary file left beside the report");
        }
    }

    @Test
    void thePlantedBugIsExitOneWithTheShrunkScenario(@TempDir Path dir) throws Exception {
        Path junit = dir.resolve("conform.xml");
        CliRun run = CliRun.of("conform", "--exec", "python3 ../examples/conform/toy_connector.py", "--scenarios",
                HAND_WRITTEN, "--junit", junit.toString());
        assertEquals(Main.FINDINGS, run.exit(), run.err());
        assertTrue(run.out().contains("FAIL seed/01-aligned-proof-then-absent: after event 2 (line 3): plan -> rejected invalid_selection\n"),
                run.out());
        assertTrue(run.out().contains("shrunk to 2 events after the topology:"), run.out());
        assertTrue(run.out().contains("not compared: the facts of each rejection's reason"), run.out());
        Element suites = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(junit.toFile()).getDocumentElement();
        assertFalse(suites.getAttribute("failures").equals("0"));
        assertEquals("2", suites.getAttribute("skipped"), "the wide-integer logs, without wide_integers");
    }

    @Test
    void anAdapterThatCannotStartIsExitTwoWithOneLineAndNoReport(@TempDir Path dir) {
        Path junit = dir.resolve("conform.xml");
        CliRun run = CliRun.of("conform", "--exec", "exit 4", "--scenarios", HAND_WRITTEN, "--junit", junit.toString());
        assertEquals(Main.USAGE, run.exit());
        assertEquals("", run.out());
        assertTrue(run.err().endsWith("\nproofgate conform: the adapter did not answer the greeting: it closed its output"
                + " (it exited with status 4)\n"), run.err());
        assertFalse(Files.exists(junit));
    }

    @Test
    void anAdapterThatBreaksTheProtocolMidRunIsExitTwo() {
        CliRun run = CliRun.of("conform", "--exec",
                "python3 ../conform/src/test/resources/adapters/bad_adapter.py unknown-request", "--scenarios", HAND_WRITTEN);
        assertEquals(Main.USAGE, run.exit());
        assertTrue(run.out().contains("ERROR scenario seed/01-aligned-proof-then-absent, event 1 ("), run.out());
        // every scenario of this adapter errs, so the run also stops at --max-errors, which the line names
        assertTrue(run.err().contains(": the run could not be judged (see ERROR in the report); it stopped at --max-errors 10"),
                run.err());
    }

    @Test
    void aMalformedScenarioFileIsExitTwoAtItsLine(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("bad.scenarios"), "topology {\"kind\":\"topology\"}\n\nscenario x\nevent {\"kind\":\"held\"}\n");
        assertEquals(new CliRun(Main.USAGE, "", "proofgate conform: " + dir.resolve("bad.scenarios")
                + ":5:1: an event line must be followed by ----\n"), CliRun.of("conform", "--in-process", "--scenarios", dir.toString()));
        Files.writeString(dir.resolve("bad.scenarios"), "topology {\"kind\":\"topology\"}\n\nscenario x\nevent {\"kind\":\"held\"}\n"
                + "----\nretired r1 cause=finished extra=1\ncounters plans=0 rejected=0 store_skipped_quorum=0 retired_finished=1\n");
        assertEquals(new CliRun(Main.USAGE, "", "proofgate conform: " + dir.resolve("bad.scenarios")
                + ":6:1: a retired line has 3 words, this one 4\n"), CliRun.of("conform", "--in-process", "--scenarios", dir.toString()));
    }

    @Test
    void usageErrorsAreExitTwo() {
        CliRun neither = CliRun.of("conform", "--scenarios", HAND_WRITTEN);
        assertEquals(Main.USAGE, neither.exit());
        assertTrue(neither.err().contains("give the adapter with --exec CMD, or --in-process"), neither.err());
        for (CliRun run : List.of(neither, CliRun.of("conform", "--in-process", "--exec", "x"),
                CliRun.of("conform", "--in-process", "--scenarios", "no/such/folder"), CliRun.of("conform", "--in-process", "--jobs", "0"))) {
            assertEquals(Main.USAGE, run.exit(), run.err());
            assertEquals("", run.out());
        }
    }

    /**
     * Regression: the kit held one answer's lines without limit, so an adapter that
     * floods verdicts before its end marker took 1 GB of RSS, or at a small heap an
     * OutOfMemoryError's text. Now the answer's limit is an error of the scenario, in a 48 MiB heap.
     */
    @Test
    void aFloodingAdapterIsAnErrorOfItsScenarioInASmallHeap(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("one.scenarios"), """
                topology {"kind":"topology","schema":"proofgate-events/v1","groups":[{"policy":"full","block_tokens":2304}]}

                scenario finished_r1
                event {"kind":"finished","id":"r1"}
                ----
                pending none
                counters plans=0 rejected=0 store_skipped_quorum=0 retired_finished=0
                """);
        String jvm = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(List.of(jvm, "-Xmx48m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "conform", "--exec", "python3 ../conform/src/test/resources/adapters/bad_adapter.py flood",
                "--scenarios", dir.toString(), "--jobs", "1", "--max-errors", "1"))
                .redirectErrorStream(true).start();
        // generous: a loaded machine is slow, and this only bounds a kit that hangs
        boolean done = child.waitFor(300, java.util.concurrent.TimeUnit.SECONDS);
        String output = new String(child.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!done) {
            child.destroyForcibly();
        }
        assertTrue(done, "the kit did not finish in 300 s: " + output);
        assertEquals(Main.USAGE, child.exitValue(), output);
        assertTrue(output.contains("scenario one/finished_r1, the topology: the adapter printed more than 10000 lines in one answer"
                + " without its end marker {\"kind\":\"end\"} (the limit of one answer; raise it with --max-answer-lines)"), output);
        assertFalse(output.contains("OutOfMemoryError"), output);
        assertTrue(output.contains("; it stopped at --max-errors 1, so 1 scenarios have no verdict"), output);
    }
}
