package io.proofgate.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/** {@code proofgate conform} as a user runs it: exit codes, the report on stdout, the JUnit file. */
class ConformCommandTest {

    private static final String HAND_WRITTEN = "../validator/src/test/resources/scenarios";
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theReferenceInProcessPassesWithExitZeroAndAJunitFile(@TempDir Path dir) throws Exception {
        Path junit = dir.resolve("reports/conform.xml");
        assertEquals(Main.OK, run("conform", "--in-process", "--scenarios", HAND_WRITTEN, "--junit", junit.toString()), stderr());
        assertTrue(stdout().contains("13 scenarios: 13 passed, 0 failed, 0 not run, 0 errors;"), stdout());
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
        assertEquals(Main.FINDINGS, run("conform", "--exec", "python3 ../examples/conform/toy_connector.py", "--scenarios",
                HAND_WRITTEN, "--junit", junit.toString()), stderr());
        assertTrue(stdout().contains("FAIL seed/01-aligned-proof-then-absent: after event 2 (line 3): plan -> rejected invalid_selection\n"),
                stdout());
        assertTrue(stdout().contains("shrunk to 2 events after the topology:"), stdout());
        assertTrue(stdout().contains("not compared: the facts of each rejection's reason"), stdout());
        Element suites = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(junit.toFile()).getDocumentElement();
        assertFalse(suites.getAttribute("failures").equals("0"));
        assertEquals("2", suites.getAttribute("skipped"), "the wide-integer logs, without wide_integers");
    }

    @Test
    void anAdapterThatCannotStartIsExitTwoWithOneLineAndNoReport(@TempDir Path dir) {
        Path junit = dir.resolve("conform.xml");
        assertEquals(Main.USAGE, run("conform", "--exec", "exit 3", "--scenarios", HAND_WRITTEN, "--junit", junit.toString()));
        assertEquals("", stdout());
        assertTrue(stderr().endsWith("\nproofgate conform: the adapter did not answer the greeting: it closed its output"
                + " (it exited with status 3)\n") || stderr().endsWith("\nproofgate conform: the adapter did not answer the"
                + " greeting: it stopped reading its input (it exited with status 3)\n"), stderr());
        assertFalse(Files.exists(junit));
    }

    @Test
    void anAdapterThatBreaksTheProtocolMidRunIsExitTwo() {
        assertEquals(Main.USAGE, run("conform", "--exec",
                "python3 ../conform/src/test/resources/adapters/bad_adapter.py unknown-request", "--scenarios", HAND_WRITTEN));
        assertTrue(stdout().contains("ERROR scenario seed/01-aligned-proof-then-absent, event 1 ("), stdout());
        assertTrue(stderr().endsWith(": the run could not be judged (see ERROR in the report)\n"), stderr());
    }

    @Test
    void aMalformedScenarioFileIsExitTwoAtItsLine(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("bad.scenarios"), "topology {\"kind\":\"topology\"}\n\nscenario x\nevent {\"kind\":\"held\"}\n");
        assertEquals(Main.USAGE, run("conform", "--in-process", "--scenarios", dir.toString()));
        assertEquals("proofgate conform: " + dir.resolve("bad.scenarios") + ":5:1: an event line must be followed by ----\n",
                stderr());
        err.reset();
        Files.writeString(dir.resolve("bad.scenarios"), "topology {\"kind\":\"topology\"}\n\nscenario x\nevent {\"kind\":\"held\"}\n"
                + "----\nretired r1 cause=finished extra=1\ncounters plans=0 rejected=0 store_skipped_quorum=0 retired_finished=1\n");
        assertEquals(Main.USAGE, run("conform", "--in-process", "--scenarios", dir.toString()));
        assertEquals("proofgate conform: " + dir.resolve("bad.scenarios") + ":6:1: a retired line has 3 words, this one 4\n",
                stderr());
    }

    @Test
    void usageErrorsAreExitTwo() {
        assertEquals(Main.USAGE, run("conform", "--scenarios", HAND_WRITTEN));
        assertTrue(stderr().contains("give the adapter with --exec CMD, or --in-process"), stderr());
        assertEquals(Main.USAGE, run("conform", "--in-process", "--exec", "x"));
        assertEquals(Main.USAGE, run("conform", "--in-process", "--scenarios", "no/such/folder"));
        assertEquals(Main.USAGE, run("conform", "--in-process", "--jobs", "0"));
        assertEquals("", stdout());
    }
}
