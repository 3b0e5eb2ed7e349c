package io.proofgate.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * {@code proofgate audit} as a user runs it, on this repository: exit codes and where output goes. The audit's findings
 * are tested on fixture changes in model-checker's AuditTest.
 */
class AuditCommandTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Main.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void aRevisionAgainstItselfIsNoChangeWithExitZeroAndTheJsonOnStdout() throws Exception {
        int exit =
                run(
                        "audit",
                        "--repo",
                        ROOT.toString(),
                        "--base",
                        "HEAD",
                        "--head",
                        "HEAD",
                        "--model",
                        "gen-attention",
                        "--format",
                        "json");
        String stderr = err.toString(StandardCharsets.UTF_8);
        assertEquals(Main.OK, exit, stderr);
        JsonNode report = new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
        assertEquals("proofgate-audit/v1", report.path("schema").asText());
        assertEquals(false, report.path("semantic_change").asBoolean(true));
        assertEquals(report.path("base").asText(), report.path("head").asText());
        assertTrue(
                stderr.contains("proofgate audit: [")
                        && stderr.endsWith("proofgate audit: no unaccepted semantic change\n"),
                stderr);
    }

    /**
     * The two audits are commands of their own: each refuses the other's options by name, and its help names only its
     * own.
     */
    @Test
    void eachAuditTakesOnlyItsOwnOptions() {
        assertEquals(Main.USAGE, run("audit", "--exec", "python3 a.py", "--base", "HEAD"));
        assertEquals(
                "proofgate audit: --exec is an option of the audit of a connector change: proofgate audit-connector"
                        + " (see proofgate audit --help)\n",
                err.toString(StandardCharsets.UTF_8));
        err.reset();
        assertEquals(Main.USAGE, run("audit-connector", "--exec", "python3 a.py", "--base", "HEAD", "--model", "ci"));
        assertEquals(
                "proofgate audit-connector: --model is an option of the audit of a spec change: proofgate audit"
                        + " (see proofgate audit-connector --help)\n",
                err.toString(StandardCharsets.UTF_8));
        assertEquals(Main.OK, run("audit", "--help"));
        String spec = out.toString(StandardCharsets.UTF_8);
        out.reset();
        assertEquals(Main.OK, run("audit-connector", "--help"));
        String connector = out.toString(StandardCharsets.UTF_8);
        assertTrue(spec.contains("--max-pairs") && !spec.contains("--exec") && !spec.contains("--jobs"), spec);
        assertTrue(
                connector.contains("--exec-base")
                        && !connector.contains("--max-pairs")
                        && !connector.contains("--model"),
                connector);
    }

    @Test
    void anUnknownRevisionIsExitTwoWithOneLine() {
        assertEquals(Main.USAGE, run("audit", "--repo", ROOT.toString(), "--base", "no-such-revision-here"));
        assertEquals(
                "proofgate audit: unknown revision \"no-such-revision-here\" (no commit of that name in "
                        + ROOT
                        + ")\n",
                err.toString(StandardCharsets.UTF_8));
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void usageErrorsAreExitTwo() {
        assertEquals(Main.USAGE, run("audit"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--base REV is required"));
        assertEquals(Main.USAGE, run("audit", "--base", "HEAD", "--format", "yaml"));
        assertEquals(Main.USAGE, run("audit", "--base", "HEAD", "--max-pairs", "0"));
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }

    /**
     * The scenarios are read while both revisions are written: one that cannot be read still stops the audit, located.
     */
    @Test
    void aConnectorAuditWithAnUnreadableScenarioIsExitTwoWithItsPlace(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        Path file = dir.resolve("broken.scenarios");
        java.nio.file.Files.writeString(file, "topology {\"kind\":\"topology\"}\n\nscenario one\nevent {not json\n");
        String root = System.getProperty("proofgate.root");
        System.setProperty(
                "proofgate.root", ROOT.toString()); // as the launcher sets it: the committed scenarios are read too
        int exit;
        try {
            exit =
                    run(
                            "audit-connector",
                            "--exec",
                            "python3 examples/conform/toy_connector.py",
                            "--repo",
                            ROOT.toString(),
                            "--base",
                            "HEAD",
                            "--head",
                            "HEAD",
                            "--scenarios",
                            dir.toString());
        } finally {
            if (root == null) {
                System.clearProperty("proofgate.root");
            } else {
                System.setProperty("proofgate.root", root);
            }
        }
        String stderr = err.toString(StandardCharsets.UTF_8);
        assertEquals(Main.USAGE, exit, stderr);
        assertTrue(stderr.contains("proofgate audit-connector: " + file + ":"), stderr);
        assertTrue(!stderr.contains("scenarios through both revisions") && !stderr.contains("Exception"), stderr);
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aFolderOutsideGitIsExitTwo(@org.junit.jupiter.api.io.TempDir Path dir) {
        assertEquals(Main.USAGE, run("audit", "--repo", dir.toString(), "--base", "HEAD"));
        assertTrue(
                err.toString(StandardCharsets.UTF_8)
                        .startsWith("proofgate audit: " + dir + " is not inside a git repository"),
                err.toString(StandardCharsets.UTF_8));
    }
}
