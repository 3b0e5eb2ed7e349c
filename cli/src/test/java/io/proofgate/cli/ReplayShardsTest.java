package io.proofgate.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replay over several logs, unsharded and in N = 1, 2 and 3 shards merged: the same stdout, the
 * same stderr and the same exit code, a log with a structural error included; and what a merge
 * refuses.
 */
class ReplayShardsTest {

    private static final String S = "../validator/src/test/resources/scenarios/";
    private static final List<String> LOGS = List.of("../examples/hybrid-session.jsonl", S + "seed/01-aligned-proof-then-absent.jsonl",
            "../validator/src/test/resources/invalid/control-character-in-string.jsonl", S + "seed/06-each-poison.jsonl",
            S + "seed/09-preempt-then-resume.jsonl", "../examples/seed-aligned.jsonl", S + "hostile/block-ids-beyond-64-bits.jsonl");

    @TempDir
    Path dir;

    private static CliRun run(List<String> args) {
        return CliRun.of(args.toArray(String[]::new));
    }

    private static List<String> args(String... first) {
        List<String> args = new ArrayList<>(List.of(first));
        args.addAll(LOGS);
        return args;
    }

    private List<String> shards(int count) {
        List<String> files = new ArrayList<>();
        for (int k = count - 1; k >= 0; k--) {
            String file = dir.resolve("shard-" + k + "-of-" + count + ".jsonl").toString();
            run(args("replay", "--shard", k + "/" + count, "--out", file));
            files.add(file);
        }
        return files;
    }

    @Test
    void oneTwoAndThreeShardsMergeIntoWhatOneRunPrints() {
        CliRun one = run(args("replay"));
        assertEquals(Main.USAGE, one.exit(), "one log has a structural error");
        assertTrue(one.out().startsWith("{\"kind\":\"log\",\"index\":0,\"path\":\"../examples/hybrid-session.jsonl\"}\n"), one.out());
        assertTrue(one.out().contains("{\"kind\":\"error\",\"message\":\"../validator/src/test/resources/invalid/"
                + "control-character-in-string.jsonl:2:27: invalid JSON: a control character (code 1) inside a string must be"
                + " escaped\"}\n{\"kind\":\"log\",\"index\":3,"), one.out());
        assertEquals(7, one.out().lines().filter(l -> l.startsWith("{\"kind\":\"log\"")).count());
        assertEquals(6, one.out().lines().filter(l -> l.startsWith("{\"kind\":\"summary\"")).count());
        for (int count = 1; count <= 3; count++) {
            List<String> merge = new ArrayList<>(List.of("merge"));
            merge.addAll(shards(count));
            assertEquals(one, run(merge), count + " shards");
        }
    }

    @Test
    void aMergeRefusesShardsThatAreNotTheWholeOfOneRun() throws Exception {
        List<String> three = shards(3);
        CliRun missing = run(List.of("merge", three.get(0), three.get(1)));
        assertEquals(new CliRun(Main.USAGE, "", "proofgate merge: shards missing: [0/3]; a merge needs all 3\n"), missing);
        Path cut = dir.resolve("cut.jsonl");
        List<String> lines = Files.readAllLines(Path.of(three.get(2)));
        Files.write(cut, lines.subList(0, lines.size() - 1));
        CliRun incomplete = run(List.of("merge", three.get(0), three.get(1), cut.toString()));
        assertEquals(Main.USAGE, incomplete.exit());
        assertTrue(incomplete.err().startsWith("proofgate merge: shard 0/3 is incomplete"), incomplete.err());
        // refused before anything is streamed (the command's buffer would hide that for logs this small)
        java.io.ByteArrayOutputStream streamed = new java.io.ByteArrayOutputStream();
        org.junit.jupiter.api.Assertions.assertThrows(LogSetMerge.Refused.class, () -> LogSetMerge.merge(
                List.of(Path.of(three.get(0)), Path.of(three.get(1)), cut), streamed));
        assertEquals(0, streamed.size(), "refused before any of the merge is streamed");
        CliRun formatted = run(List.of("merge", "--format", "json", three.get(0), three.get(1), three.get(2)));
        assertEquals(new CliRun(Main.USAGE, "", "proofgate merge: --format apply to mutation shards only; " + three.get(0)
                + " is a replay shard (see proofgate merge --help)\n"), formatted);
        Path other = dir.resolve("other.jsonl");
        run(List.of("replay", "--shard", "0/3", "--out", other.toString(), LOGS.get(0), LOGS.get(1)));
        CliRun mixed = run(List.of("merge", other.toString(), three.get(0), three.get(1)));
        assertTrue(mixed.err().contains("a shard of another run"), mixed.err());
    }

    @Test
    void usageErrorsOfSeveralLogs() {
        assertTrue(run(args("replay", "--shard", "0/2")).err().contains("give --out FILE"));
        assertTrue(run(args("replay", "--store", "host")).err().contains("--store checks one log"));
        assertTrue(run(List.of("replay", LOGS.get(0), "-")).err().contains("- (stdin) is one log"));
    }

    /** A full disk while writing a shard is the output's failure: it stops the run, never reads as an error of the log. */
    @Test
    void aFailingOutputStopsTheRunAndIsNotBlamedOnTheLog() {
        // room for the log line, not for the verdicts the replay writes after it
        java.io.OutputStream full = new java.io.OutputStream() {
            private int room = 200;

            @Override
            public void write(int b) throws java.io.IOException {
                if (room-- == 0) {
                    throw new java.io.IOException("No space left on device");
                }
            }
        };
        NonClosing.OutputFailed failed = org.junit.jupiter.api.Assertions.assertThrows(NonClosing.OutputFailed.class,
                () -> LogSet.replay(List.of(LOGS.getFirst()), 0, 1, full));
        assertTrue(failed.getMessage().endsWith("; the output is incomplete"), failed.getMessage());
    }
}
