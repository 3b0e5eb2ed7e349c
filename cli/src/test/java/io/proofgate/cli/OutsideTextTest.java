package io.proofgate.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.json.JsonWords;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Text from outside reaches the terminal escaped (protocol §6): a log's bytes, a file name, the messages a replay shard
 * carries. Each case wrote raw control bytes to stderr before.
 */
class OutsideTextTest {

    @TempDir Path dir;

    private static final String TOPOLOGY =
            "{\"kind\":\"topology\",\"schema\":\"proofgate-events/v1\",\"tp_degree\":1,\"hash_block_size\":256,\"min_span_tokens\":1024,\"groups\":[{\"policy\":\"full\",\"block_tokens\":2304}]}\n";

    private static void assertFit(CliRun run) {
        assertTrue(JsonWords.fitForATerminal(run.err().replace("\n", " ")), run.err());
    }

    @Test
    void aLogsControlBytesAndUnknownWordAreQuotedEscaped() throws Exception {
        Path log = dir.resolve("esc.jsonl");
        Files.writeString(log, TOPOLOGY + "{\"kind\":\"step\",\"step\":1,\"new\":[nope\u001bc]}\n");
        CliRun run = CliRun.of("replay", log.toString());
        assertEquals(2, run.exit());
        assertEquals("proofgate replay: " + log + ":2:32: invalid JSON: an unknown word \"nope\\u001bc\"\n", run.err());
        assertFit(run);
    }

    @Test
    void aFileNameWithAnEscapeSequenceIsShownEscaped() throws Exception {
        Path log = dir.resolve("bad\u001b[2Jname.jsonl");
        Files.writeString(log, TOPOLOGY + "{\"kind\":\"step\",\"step\":01}\n");
        CliRun present = CliRun.of("replay", log.toString());
        assertEquals(
                "proofgate replay: "
                        + dir
                        + "/bad\\u001b[2Jname.jsonl:2:24: invalid JSON: a number with a leading zero\n",
                present.err());
        CliRun missing = CliRun.of("replay", dir.resolve("gone\u001b]0;title\u0007.jsonl").toString());
        assertEquals(2, missing.exit());
        assertEquals("proofgate replay: " + dir + "/gone\\u001b]0;title\\u0007.jsonl: no such file\n", missing.err());
    }

    @Test
    void theMessagesAReplayShardCarriesAreShownEscaped() throws Exception {
        Path log = dir.resolve("one.jsonl");
        Files.writeString(log, TOPOLOGY + "{\"kind\":\"step\",\"step\":1,\"x\":nope}\n");
        Path shard = dir.resolve("shard.jsonl");
        CliRun sharded = CliRun.of("replay", "--shard", "0/1", "--out", shard.toString(), log.toString());
        assertEquals(2, sharded.exit(), sharded.err());
        // an unsigned shard may be edited: its error line now carries an escape sequence (a window title), written as
        // a replay writes one (a merge refuses a line a replay could not have written)
        Files.writeString(shard, Files.readString(shard).replace("invalid JSON", "\\u001B]0;pwned\\u0007invalid JSON"));
        CliRun merged = CliRun.of("merge-replay", shard.toString());
        assertEquals(2, merged.exit(), merged.err());
        assertTrue(
                merged.err().contains(":2:29: \\u001b]0;pwned\\u0007invalid JSON: an unknown word \"nope\""),
                merged.err());
        assertFit(merged);
    }

    /**
     * A scenario folder's name is outside text too: the FAIL line and the report's groups quote it escaped, so that a
     * name holding an escape sequence (here one that sets the window title) cannot reach the terminal through the
     * report on stdout.
     */
    @Test
    void aScenarioNameWithAnEscapeSequenceIsEscapedInTheReport() throws Exception {
        Path suite = dir.resolve("title\u001b]0;pwned\u0007");
        Files.createDirectories(suite);
        Path seed = Path.of("..", "validator", "src", "test", "resources", "scenarios", "seed");
        for (String file : java.util.List.of("02-nonaligned-cow.jsonl", "02-nonaligned-cow.expected")) {
            Files.copy(seed.resolve(file), suite.resolve(file));
        }
        CliRun run =
                CliRun.of(
                        "conform",
                        "--exec",
                        "python3 ../examples/conform/toy_connector.py",
                        "--scenarios",
                        dir.toString());
        assertEquals(1, run.exit(), run.err());
        assertTrue(
                run.out().contains("UNSAFE title\\u001b]0;pwned\\u0007/02-nonaligned-cow: after event 2"), run.out());
        for (String line : run.out().split("\n")) {
            assertTrue(
                    io.proofgate.words.Outside.isPlain(line), () -> "raw: " + io.proofgate.words.Outside.quoted(line));
        }
    }

    /** A path holding a line break cannot split a one-line error in two: the break is written escaped. */
    @Test
    void aRepositoryPathWithALineBreakKeepsTheErrorOnOneLine() throws Exception {
        Path repo = Files.createDirectories(dir.resolve("one\nproofgate audit: no unaccepted difference"));
        CliRun run = CliRun.of("audit", "--repo", repo.toString(), "--base", "HEAD");
        assertEquals(2, run.exit(), run.err());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().contains("one\\nproofgate audit: no unaccepted difference"), run.err());
    }
}
