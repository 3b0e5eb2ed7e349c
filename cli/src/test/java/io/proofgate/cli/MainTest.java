package io.proofgate.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The command line's contract: exit codes, one-line errors on stderr, help on every command. */
class MainTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Main.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    /** Regression: `replay > /dev/full` and `synth > /dev/full` exited 0 with nothing written and nothing said. */
    @Test
    void aFailingStdoutIsAnErrorNotASilentSuccess() {
        PrintStream full =
                new PrintStream(
                        new java.io.OutputStream() {
                            @Override
                            public void write(int b) throws IOException {
                                throw new IOException("No space left on device");
                            }
                        },
                        true,
                        StandardCharsets.UTF_8);
        PrintStream errors = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertEquals(2, Main.run(new String[] {"replay", "../examples/hybrid-session.jsonl"}, full, errors));
        assertEquals(2, Main.run(new String[] {"synth", "--bytes", "1K"}, full, errors));
        assertEquals(
                """
                proofgate replay: cannot write to standard output (closed, or the disk is full); the output is incomplete
                proofgate synth: cannot write to standard output (closed, or the disk is full); the output is incomplete
                """,
                stderr());
    }

    @Test
    void replay_shippedExample_printsThePlanAndSummaryWithExitZero() {
        assertEquals(0, run("replay", "../examples/seed-aligned.jsonl"), stderr());
        assertEquals(
                """
                {"kind":"plan","step":2,"id":"r1","digest":"d1","span":6912,"blocks_by_group":[[11,12,13],[42]],"recurrent":[[1,42]]}
                {"kind":"summary","plans":1,"rejected":0,"store_skipped_quorum":0,"retired_finished":0,"pending":[],"latched":{}}
                """,
                stdout());
        assertEquals("", stderr());
    }

    @Test
    void replay_structuralError_isOneLocatedLineWithExitTwoAndNoSummary(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("bad.jsonl");
        Files.writeString(log, Files.readString(Path.of("../examples/seed-aligned.jsonl")) + "{\"kind\":\"stepp\"}\n");
        assertEquals(2, run("replay", log.toString()));
        assertEquals(
                "proofgate replay: " + log + ":4:9: unknown event kind \"stepp\" (expected step, finished, held)\n",
                stderr());
        assertFalse(stdout().contains("summary"));
        assertTrue(stdout().contains("\"kind\":\"plan\""), "verdicts decided before the error are still written");
    }

    @Test
    void replay_missingFile_exitsTwo() {
        assertEquals(2, run("replay", "no-such-file.jsonl"));
        assertEquals("proofgate replay: no-such-file.jsonl: no such file\n", stderr());
    }

    @Test
    void replay_usageErrors_exitTwo() {
        assertEquals(2, run("replay"));
        assertTrue(stderr().startsWith("proofgate replay: missing FILE"), stderr());
        assertEquals(2, run("replay", "--frobnicate"));
        // two logs are a run of several now; a shard of them without its result file is the usage error
        assertEquals(2, run("replay", "--shard", "1/2", "a.jsonl", "b.jsonl"));
        assertTrue(stderr().contains("--shard K/N writes its result file: give --out FILE"), stderr());
    }

    @Test
    void valuedOptions_readTheSameInEitherSpelling() {
        assertEquals(0, run("synth", "--bytes", "4K", "--seed", "5"), stderr());
        String spaced = stdout();
        out.reset();
        assertEquals(0, run("synth", "--bytes=4K", "--seed=5"), stderr());
        assertEquals(spaced, stdout());
        assertTrue(spaced.length() >= 4096, "synth wrote " + spaced.length() + " bytes");
        assertEquals(2, run("synth", "--frob=1"));
        assertEquals("proofgate synth: unknown option \"--frob=1\" (see proofgate synth --help)\n", stderr());
        err.reset();
        assertEquals(2, run("replay", "--store=", "-"));
        assertEquals("proofgate replay: missing value for --store (see proofgate replay --help)\n", stderr());
        err.reset();
        assertEquals(2, run("generate", "--check=yes"));
        assertEquals("proofgate generate: --check takes no value (see proofgate generate --help)\n", stderr());
    }

    @Test
    void optionErrors_nameTheOptionAndExitTwo() {
        assertEquals(2, run("synth", "--frob", "1"));
        assertEquals("proofgate synth: unknown option \"--frob\" (see proofgate synth --help)\n", stderr());
        err.reset();
        assertEquals(2, run("check", "--heap"));
        assertEquals("proofgate check: missing value for --heap (see proofgate check --help)\n", stderr());
        err.reset();
        assertEquals(2, run("generate", "--workers", "none"));
        assertTrue(stderr().contains("--workers expects an integer, got \"none\""), stderr());
        err.reset();
        // the whole value is quoted, not what is left once a suffix is taken off
        assertEquals(2, run("synth", "--bytes", "1.5K"));
        assertTrue(stderr().contains("--bytes expects an integer with an optional K, M or G, got \"1.5K\""), stderr());
        err.reset();
        // an argument is outside text: a control character in it reaches the terminal escaped, never raw
        assertEquals(2, run("synth", "--frob\u001b[2J"));
        assertEquals("proofgate synth: unknown option \"--frob\\u001b[2J\" (see proofgate synth --help)\n", stderr());
    }

    /**
     * Regression: an option given twice was the last one's, so {@code conform --scenarios bad --scenarios good} passed
     * without reading {@code bad}. Either spelling, a flag too, and before anything runs.
     */
    @Test
    void anOptionGivenTwiceIsRefused() {
        assertEquals(2, run("conform", "--in-process", "--scenarios", "missing", "--scenarios", "hand-written"));
        assertEquals("proofgate conform: --scenarios is given twice (see proofgate conform --help)\n", stderr());
        err.reset();
        assertEquals(2, run("synth", "--seed=1", "--seed", "2"));
        assertEquals("proofgate synth: --seed is given twice (see proofgate synth --help)\n", stderr());
        assertEquals("", stdout());
        err.reset();
        assertEquals(2, run("generate", "--check", "--check"));
        assertEquals("proofgate generate: --check is given twice (see proofgate generate --help)\n", stderr());
    }

    @Test
    void everyCommandHasHelp() {
        for (String name : Main.commands().keySet()) {
            out.reset();
            assertEquals(0, run(name, "--help"));
            assertTrue(stdout().startsWith("Usage: proofgate " + name), stdout());
        }
    }

    /**
     * Help with other arguments prints the help, but is no run that passed: a CI variable that expands to --help, or a
     * --help taken for an option's value, would otherwise end a check with 0 and nothing checked.
     */
    @Test
    void helpWithOtherArgumentsRunsNothingAndIsExitTwo() {
        assertEquals(2, run("audit-connector", "--exec", "x", "--repo", "r", "--base", "--help"));
        assertTrue(stdout().startsWith("Usage: proofgate audit-connector"), stdout());
        assertEquals("proofgate audit-connector: nothing ran: --help is given with other arguments\n", stderr());
        err.reset();
        assertEquals(2, run("conform", "-h", "--in-process"));
        assertEquals("proofgate conform: nothing ran: -h is given with other arguments\n", stderr());
    }

    @Test
    void unknownCommand_exitsTwo() {
        assertEquals(2, run("frobnicate"));
        assertTrue(stderr().contains("unknown command \"frobnicate\""), stderr());
    }

    @Test
    void versionAndTopLevelHelp() {
        assertEquals(0, run("--version"));
        assertTrue(stdout().startsWith("proofgate "));
        out.reset();
        assertEquals(0, run("--help"));
        assertTrue(stdout().contains("replay"));
    }

    /**
     * generate --model: one model's committed folder is checked, the others' left unread; writing one model's output,
     * which would replace every other model's scenarios, is refused.
     */
    @Test
    void generateChecksOneModelAndWritesOnlyAll() {
        String before = System.getProperty("proofgate.root");
        System.setProperty("proofgate.root", Path.of("..").toAbsolutePath().normalize().toString());
        try {
            assertEquals(2, run("generate", "--model", "gen-edges"));
            assertTrue(
                    stderr().startsWith("proofgate generate: --model checks one model's scenarios (with --check)"),
                    stderr());
            assertEquals(0, run("generate", "--check", "--model", "gen-edges"), stdout() + stderr());
            assertTrue(
                    stdout().startsWith("proofgate generate --check: the committed scenarios are up to date ("),
                    stdout());
        } finally {
            if (before == null) {
                System.clearProperty("proofgate.root");
            } else {
                System.setProperty("proofgate.root", before);
            }
        }
    }

    /** mutate: the mutants are listed without TLC; bad parts, shards and files are one-line errors, exit 2. */
    @Test
    void mutateListsItsMutantsAndRefusesBadInput() {
        String before = System.getProperty("proofgate.root");
        System.setProperty("proofgate.root", Path.of("..").toAbsolutePath().normalize().toString());
        try {
            mutateOnTheCheckout();
        } finally {
            if (before == null) {
                System.clearProperty("proofgate.root");
            } else {
                System.setProperty("proofgate.root", before);
            }
        }
    }

    private void mutateOnTheCheckout() {
        assertEquals(0, run("mutate", "--list"));
        assertTrue(
                stdout().lines().anyMatch(l -> l.matches("[0-9a-f]{10}  conflict-ignored  line [0-9]+  named  .*")),
                stdout());
        assertTrue(
                stdout().lines().anyMatch(l -> l.matches("[0-9a-f]{10}  Validate  line [0-9]+  relational  .*")),
                stdout());
        assertTrue(
                stderr().matches(
                                "proofgate mutate: [0-9]+ mutants of [0-9]+ definitions in Connector of"
                                        + " spec/Publication.tla\\s*"),
                stderr());
        err.reset();
        assertEquals(2, run("mutate", "--part", "Nope", "--list"));
        assertEquals(
                "proofgate mutate: spec/Publication.tla: no part \"Nope\": mark it with the comments"
                        + " \"\\* mutate-begin: Nope\" and \"\\* mutate-end: Nope\" (marked: Connector)",
                stderr().strip());
        err.reset();
        assertEquals(2, run("mutate", "--shard", "8/8", "--list"));
        assertEquals(
                "proofgate mutate: --shard must be K/N with 0 <= K < N, not \"8/8\" (see proofgate mutate --help)",
                stderr().strip());
        err.reset();
        assertEquals(2, run("mutate", "--operators", "NoSuchOp", "--list"));
        assertEquals("proofgate mutate: spec/Publication.tla: no definition named \"NoSuchOp\"", stderr().strip());
    }
}
