package io.proofgate.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.replay.MergeRefused;
import io.proofgate.replay.OutputFailed;
import io.proofgate.replay.ReplayMerge;
import io.proofgate.replay.ReplayShard;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Replay over several logs, unsharded and in N = 1, 2 and 3 shards merged: the same stdout, the same stderr and the
 * same exit code, a log with a structural error included; and what a merge refuses.
 */
class ReplayShardsTest {

    private static final String S = "../validator/src/test/resources/scenarios/";
    private static final List<String> LOGS =
            List.of(
                    "../examples/hybrid-session.jsonl",
                    S + "seed/01-aligned-proof-then-absent.jsonl",
                    "../validator/src/test/resources/invalid/control-character-in-string.jsonl",
                    S + "seed/06-each-poison.jsonl",
                    S + "seed/09-preempt-then-resume.jsonl",
                    "../examples/seed-aligned.jsonl",
                    S + "hostile/block-ids-beyond-64-bits.jsonl");

    @TempDir Path dir;

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
        assertTrue(
                one.out().startsWith("{\"kind\":\"log\",\"index\":0,\"path\":\"../examples/hybrid-session.jsonl\"}\n"),
                one.out());
        assertTrue(
                one.out()
                        .contains(
                                "{\"kind\":\"error\",\"message\":\"../validator/src/test/resources/invalid/control-character-in-string.jsonl:2:27:"
                                    + " invalid JSON: a control character (code 1) inside a string must be escaped\"}\n"
                                    + "{\"kind\":\"log\",\"index\":3,"),
                one.out());
        assertEquals(7, one.out().lines().filter(l -> l.startsWith("{\"kind\":\"log\"")).count());
        assertEquals(6, one.out().lines().filter(l -> l.startsWith("{\"kind\":\"summary\"")).count());
        for (int count = 1; count <= 3; count++) {
            List<String> merge = new ArrayList<>(List.of("merge-replay"));
            merge.addAll(shards(count));
            assertEquals(one, run(merge), count + " shards");
        }
    }

    @Test
    void aMergeRefusesShardsThatAreNotTheWholeOfOneRun() throws Exception {
        List<String> three = shards(3);
        CliRun missing = run(List.of("merge-replay", three.get(0), three.get(1)));
        assertEquals(
                new CliRun(Main.USAGE, "", "proofgate merge-replay: shards missing: [0/3]; a merge needs all 3\n"),
                missing);
        Path cut = dir.resolve("cut.jsonl");
        List<String> lines = Files.readAllLines(Path.of(three.get(2)));
        Files.write(cut, lines.subList(0, lines.size() - 1));
        CliRun incomplete = run(List.of("merge-replay", three.get(0), three.get(1), cut.toString()));
        assertEquals(Main.USAGE, incomplete.exit());
        assertTrue(incomplete.err().startsWith("proofgate merge-replay: shard 0/3 is incomplete"), incomplete.err());
        assertTrue(incomplete.err().endsWith(" does not end with its end line (cut short, or still being written)\n"));
        // a shard a tool rewrote is told apart from one cut short
        String whole = Files.readString(Path.of(three.get(2)));
        for (var edit :
                java.util.Map.of(
                                whole.replace("\n", "\r\n"),
                                " ends its lines with CR LF: a shard's lines end with LF alone, as replay wrote them"
                                        + " (was it converted?)",
                                whole + "\n\n",
                                " has blank text after its end line, which must be the file's last line",
                                whole.substring(0, whole.length() - 1),
                                " has no newline after its end line",
                                whole.replace(
                                        "{\"kind\":\"end\"}",
                                        "{\"kind\":\"end\",\"hmac\":\"" + "AB".repeat(32) + "\"}"),
                                " has an end line that is not one replay writes (an HMAC is 64 lower-case hex digits)")
                        .entrySet()) {
            Files.writeString(cut, edit.getKey());
            CliRun edited = run(List.of("merge-replay", three.get(0), three.get(1), cut.toString()));
            assertEquals(Main.USAGE, edited.exit());
            assertEquals(
                    "proofgate merge-replay: shard 0/3 is incomplete: " + cut + edit.getValue() + "\n", edited.err());
        }
        Files.write(cut, lines.subList(0, lines.size() - 1));
        // refused before anything is streamed (the command's buffer would hide that for logs this small)
        java.io.ByteArrayOutputStream streamed = new java.io.ByteArrayOutputStream();
        org.junit.jupiter.api.Assertions.assertThrows(
                MergeRefused.class,
                () ->
                        ReplayMerge.merge(
                                List.of(Path.of(three.get(0)), Path.of(three.get(1)), cut),
                                streamed,
                                java.util.Optional.empty(),
                                false));
        assertEquals(0, streamed.size(), "refused before any of the merge is streamed");
        CliRun formatted = run(List.of("merge-mutate", "--format", "json", three.get(0), three.get(1), three.get(2)));
        assertEquals(
                new CliRun(
                        Main.USAGE,
                        "",
                        "proofgate merge-mutate: "
                                + three.get(0)
                                + " is a replay shard; it merges with proofgate merge-replay (see proofgate"
                                + " merge-mutate --help)\n"),
                formatted);
        Path other = dir.resolve("other.jsonl");
        run(List.of("replay", "--shard", "0/3", "--out", other.toString(), LOGS.get(0), LOGS.get(1)));
        CliRun mixed = run(List.of("merge-replay", other.toString(), three.get(0), three.get(1)));
        assertTrue(mixed.err().contains("a shard of another run"), mixed.err());
    }

    @Test
    void usageErrorsOfSeveralLogs() {
        assertTrue(run(args("replay", "--shard", "0/2")).err().contains("give --out FILE"));
        assertTrue(run(args("replay", "--store", "host")).err().contains("--store checks one log"));
        // one log with --out: the message says what does not go with --store, not that there are several logs
        CliRun stored =
                run(List.of("replay", "--store", "host", "--out", dir.resolve("x.jsonl").toString(), LOGS.get(0)));
        assertTrue(
                stored.err().contains("--store checks one log on standard output; it does not go with --out"),
                stored.err());
        assertTrue(run(List.of("replay", LOGS.get(0), "-")).err().contains("- (stdin) is one log"));
        // --out alone wrote a shard file where replay's output was asked for
        Path out = dir.resolve("out.jsonl");
        CliRun alone = run(List.of("replay", "--out", out.toString(), LOGS.get(0)));
        assertEquals(Main.USAGE, alone.exit());
        assertTrue(
                alone.err()
                        .contains("--out FILE writes a shard's result file, for proofgate merge-replay: give --shard"),
                alone.err());
        assertFalse(Files.exists(out));
    }

    /**
     * A full disk while writing a shard is the output's failure: it stops the run, never reads as an error of the log.
     */
    @Test
    void aFailingOutputStopsTheRunAndIsNotBlamedOnTheLog() {
        // room for the log line, not for the verdicts the replay writes after it
        java.io.OutputStream full =
                new java.io.OutputStream() {
                    private int room = 200;

                    @Override
                    public void write(int b) throws java.io.IOException {
                        if (room-- == 0) {
                            throw new java.io.IOException("No space left on device");
                        }
                    }
                };
        OutputFailed failed =
                org.junit.jupiter.api.Assertions.assertThrows(
                        OutputFailed.class, () -> ReplayShard.replay(List.of(LOGS.getFirst()), 0, 1, full));
        assertTrue(failed.getMessage().endsWith("; the output is incomplete"), failed.getMessage());
    }

    private static final String KEY = "0123456789abcdef0123456789abcdef";

    private List<String> shards(
            int count, java.util.Map<String, String> environment, List<String> logs, String prefix) {
        List<String> files = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            String file = dir.resolve(prefix + "-" + k + "-of-" + count + ".jsonl").toString();
            List<String> args = new ArrayList<>(List.of("replay", "--shard", k + "/" + count, "--out", file));
            args.addAll(logs);
            CliRun.with(environment::get, args.toArray(String[]::new));
            files.add(file);
        }
        return files;
    }

    private static CliRun merge(java.util.Map<String, String> environment, List<String> options, List<String> files) {
        List<String> args = new ArrayList<>(List.of("merge-replay"));
        args.addAll(options);
        args.addAll(files);
        return CliRun.with(environment::get, args.toArray(String[]::new));
    }

    /** Each shard's header records the SHA-256 of each log it replayed, and of no other. */
    @Test
    void aShardRecordsTheHashOfEachLogOfItsShare() throws Exception {
        String header = Files.readAllLines(Path.of(shards(3).get(1))).getFirst(); // shards(3) lists K = 2, 1, 0
        assertTrue(
                header.endsWith(
                        ",\"sha256\":[[1,\""
                                + io.proofgate.words.Sha256.of(Path.of(LOGS.get(1)))
                                + "\"],[4,\""
                                + io.proofgate.words.Sha256.of(Path.of(LOGS.get(4)))
                                + "\"]]}"),
                header);
    }

    /**
     * With --check, each log here must be the one its shard replayed: a log changed since (or never the same) is
     * refused before anything is printed.
     */
    @Test
    void checkRefusesALogThatIsNotTheOneItsShardReplayed() throws Exception {
        List<String> copies = new ArrayList<>();
        for (int i = 0; i < LOGS.size(); i++) {
            Path copy = dir.resolve("log-" + i + ".jsonl");
            Files.copy(Path.of(LOGS.get(i)), copy);
            copies.add(copy.toString());
        }
        List<String> two = shards(2, java.util.Map.of(), copies, "copies");
        List<String> all = new ArrayList<>(List.of("replay"));
        all.addAll(copies);
        CliRun one = run(all);
        assertEquals(one, merge(java.util.Map.of(), List.of("--check"), two));
        Path changed = Path.of(copies.get(3));
        Files.writeString(changed, Files.readString(changed).replace("\"step\":1,", "\"step\":1, "));
        assertEquals(one, merge(java.util.Map.of(), List.of(), two), "without --check the shards are what they found");
        CliRun check = merge(java.util.Map.of(), List.of("--check"), two);
        assertEquals(Main.USAGE, check.exit());
        assertEquals("", check.out());
        assertTrue(
                check.err()
                        .startsWith(
                                "proofgate merge-replay: --check: log 3 (\""
                                        + changed
                                        + "\") is not the log shard 1/2 replayed"
                                        + " (sha256 "),
                check.err());
        Files.delete(changed);
        assertTrue(
                merge(java.util.Map.of(), List.of("--check"), two)
                        .err()
                        .endsWith("cannot read it here: no such file\n"));
    }

    /** A shard whose header claims a log of another shard's share is refused. */
    @Test
    void aHeaderWithLogsOutsideTheShareIsRefused() throws Exception {
        List<String> two = shards(2, java.util.Map.of(), LOGS, "share");
        Path file = Path.of(two.get(0));
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        lines.set(0, lines.getFirst().replace("]]}", "],[1,null]]}"));
        Files.write(file, lines);
        CliRun refused = merge(java.util.Map.of(), List.of(), two);
        assertEquals(
                new CliRun(
                        Main.USAGE,
                        "",
                        "proofgate merge-replay: "
                                + file
                                + ":1:"
                                + (lines.getFirst().indexOf("[1,null]") + 1)
                                + ": its header gives SHA-256s of logs outside its share"
                                + " (shard 0/2)\n"),
                refused);
    }

    /**
     * Regression: an edited shard (a verdict rewritten) merged, since nothing in a shard was checked against anything;
     * with PROOFGATE_SHARD_KEY each shard's HMAC must verify.
     */
    @Test
    void withAKeyAnEditedShardIsRefused() throws Exception {
        var key = java.util.Map.of(io.proofgate.shard.ShardKey.ENVIRONMENT, KEY);
        List<String> signed = shards(3, key, LOGS, "signed");
        CliRun one = run(args("replay"));
        assertEquals(one, merge(key, List.of(), signed));
        assertTrue(
                Files.readString(Path.of(signed.get(0)))
                        .endsWith(
                                "\n{\"kind\":\"end\",\"hmac\":\""
                                        + Files.readString(Path.of(signed.get(0)))
                                                .replaceAll("(?s).*\"hmac\":\"([0-9a-f]{64})\"}\n$", "$1")
                                        + "\"}\n"));
        Path file = Path.of(signed.get(0));
        String text = Files.readString(file);
        assertTrue(text.contains("\"span\":6912"), text);
        Files.writeString(file, text.replace("\"span\":6912", "\"span\":6913"));
        CliRun edited = merge(key, List.of(), signed);
        assertEquals(
                new CliRun(
                        Main.USAGE,
                        "",
                        "proofgate merge-replay: "
                                + file
                                + ": its HMAC does not verify with PROOFGATE_SHARD_KEY"
                                + " (the file was edited after it was written, or signed with another key)\n"),
                edited);
        Files.writeString(file, text);
        assertTrue(
                merge(java.util.Map.of(), List.of(), signed)
                        .err()
                        .contains(
                                "is signed (its end line has an HMAC), but" + " PROOFGATE_SHARD_KEY is not set here"));
        assertTrue(merge(key, List.of(), shards(3)).err().contains("is not signed, and PROOFGATE_SHARD_KEY is set"));
        assertTrue(
                merge(
                                java.util.Map.of(io.proofgate.shard.ShardKey.ENVIRONMENT, KEY.replace('0', 'z')),
                                List.of(),
                                signed)
                        .err()
                        .contains("its HMAC does not verify"));
    }

    @Test
    void aShardOfAnotherVersionIsRefusedByName() throws Exception {
        Path old = dir.resolve("v1.jsonl");
        Files.writeString(
                old,
                "{\"kind\":\"shard\",\"schema\":\"proofgate-replay-shard/v1\",\"shard\":0,\"of\":1,"
                        + "\"files\":[]}\n{\"kind\":\"end\"}\n");
        assertEquals(
                new CliRun(
                        Main.USAGE,
                        "",
                        "proofgate merge-replay: "
                                + old
                                + ": a shard of schema \"proofgate-replay-shard/v1\";"
                                + " this proofgate merges proofgate-replay-shard/v2 (run the shards again with it)\n"),
                merge(java.util.Map.of(), List.of(), List.of(old.toString())));
    }

    /**
     * A copy of the shard {@code file} with the first match of the regular expression {@code from} (on the first line
     * that has one) replaced by {@code to}, or that line removed when {@code to} is null.
     */
    private static Path edited(Path file, String from, String to) throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        java.util.regex.Pattern pattern = java.util.regex.Pattern.compile(from);
        int at = 0;
        while (!pattern.matcher(lines.get(at)).find()) {
            at++;
        }
        if (to == null) {
            lines.remove(at);
        } else {
            lines.set(at, pattern.matcher(lines.get(at)).replaceFirst(to));
        }
        Path copy = file.resolveSibling("edited-" + file.getFileName());
        Files.write(copy, lines);
        return copy;
    }

    private static CliRun mergeInstead(List<String> shards, int index, Path instead) {
        List<String> files = new ArrayList<>(shards);
        files.set(index, instead.toString());
        return merge(java.util.Map.of(), List.of(), files);
    }

    /**
     * Regression: a header read loosely merged what it should refuse. "files" as an object stopped the merge with a
     * NullPointerException; "files":[] merged no logs and passed; "of" as the string "2" or 2.0 was read as a count; a
     * key given twice was read as its last value.
     */
    @Test
    void aHeaderIsReadStrictlyAndRefusedAtItsColumn() throws Exception {
        List<String> two = shards(2, java.util.Map.of(), LOGS, "header");
        Path file = Path.of(two.get(0));
        String header = Files.readAllLines(file).getFirst();
        int files = header.indexOf("\"files\":") + "\"files\":".length() + 1;
        int of = header.indexOf("\"of\":") + "\"of\":".length() + 1;
        for (String list : List.of("{\"a\":[$1]}", "[]", "\"x\"")) {
            Path loose = edited(file, "\"files\":\\[([^\\]]*)\\]", "\"files\":" + list);
            assertEquals(
                    new CliRun(
                            Main.USAGE,
                            "",
                            "proofgate merge-replay: "
                                    + loose
                                    + ":1:"
                                    + files
                                    + ": \"files\" must list the run's logs: a non-empty list of paths\n"),
                    mergeInstead(two, 0, loose),
                    list);
        }
        for (String count : List.of("\"2\"", "2.0", "4294967298", "false", "0")) {
            Path loose = edited(file, "\"of\":2,", "\"of\":" + count + ",");
            assertEquals(
                    new CliRun(
                            Main.USAGE,
                            "",
                            "proofgate merge-replay: "
                                    + loose
                                    + ":1:"
                                    + of
                                    + ": \"of\" must be the shard count N, an integer of at least 1\n"),
                    mergeInstead(two, 0, loose),
                    count);
        }
        Path twice = edited(file, "\"of\":2,", "\"of\":2,\"of\":1,");
        assertTrue(
                mergeInstead(two, 0, twice).err().startsWith("proofgate merge-replay: " + twice + ":1:"),
                mergeInstead(two, 0, twice).err());
        assertTrue(
                mergeInstead(two, 0, twice)
                        .err()
                        .endsWith(": not a replay shard file: the key \"of\" appears twice in an object\n"),
                mergeInstead(two, 0, twice).err());
        Path unknown = edited(file, "\"of\":2,", "\"of\":2,\"note\":1,");
        assertEquals(
                new CliRun(
                        Main.USAGE,
                        "",
                        "proofgate merge-replay: "
                                + unknown
                                + ":1:"
                                + (of + 2)
                                + ": unknown key \"note\" in a shard's header\n"),
                mergeInstead(two, 0, unknown));
    }

    /**
     * Regression: a merge read a shard's body only for its log lines, so an unsigned shard edited into another outcome
     * merged: the error line of a failing log deleted (exit 0 where one run exits 2), a summary deleted, a line of a
     * kind a replay never prints, a log line whose path is not the header's. Each is refused at its line before
     * anything is printed.
     */
    @Test
    void aShardsBodyIsCheckedLineByLineBeforeAnythingIsPrinted() throws Exception {
        List<String> two = shards(2, java.util.Map.of(), LOGS, "body");
        assertEquals(run(args("replay")), merge(java.util.Map.of(), List.of(), two));
        Path failing = Path.of(two.get(0)); // log 2, the one with a structural error, is shard 0's
        int errorLine =
                Files.readAllLines(failing)
                                .indexOf(
                                        Files.readAllLines(failing).stream()
                                                .filter(l -> l.startsWith("{\"kind\":\"error\""))
                                                .findFirst()
                                                .orElseThrow())
                        + 1;
        Path noError = edited(failing, "^\\{\"kind\":\"error\".*", null);
        assertEquals(
                new CliRun(
                        Main.USAGE,
                        "",
                        "proofgate merge-replay: "
                                + noError
                                + ":"
                                + errorLine
                                + ":1: the output of log 2 ends without its summary or error line\n"),
                mergeInstead(two, 0, noError));
        Path noSummary = edited(failing, "^\\{\"kind\":\"summary\".*", null);
        assertTrue(
                mergeInstead(two, 0, noSummary)
                        .err()
                        .endsWith(":1: the output of log 0 ends without its summary or error line\n"),
                mergeInstead(two, 0, noSummary).err());
        Path noPlan = edited(failing, "^\\{\"kind\":\"plan\".*", null);
        assertTrue(
                mergeInstead(two, 0, noPlan).err().contains(": the summary counts "),
                mergeInstead(two, 0, noPlan).err());
        Path bogus = edited(failing, "^\\{\"kind\":\"plan\"", "{\"kind\":\"plans\"");
        assertTrue(
                mergeInstead(two, 0, bogus)
                        .err()
                        .endsWith(":9: not a line a replay prints for a log (kind \"plans\")\n"),
                mergeInstead(two, 0, bogus).err());
        Path moved = edited(failing, "\"path\":\"[^\"]*\"}$", "\"path\":\"elsewhere.jsonl\"}");
        assertTrue(mergeInstead(two, 0, moved).err().contains(":2:1: expected "), mergeInstead(two, 0, moved).err());
        Path spaced = edited(failing, "^\\{\"kind\":\"summary\",", "{\"kind\": \"summary\",");
        assertTrue(
                mergeInstead(two, 0, spaced).err().contains(": not written as a replay writes it"),
                mergeInstead(two, 0, spaced).err());
        // a replay writes ignored_held only when it counts one
        Path zero = edited(failing, "^(\\{\"kind\":\"summary\",.*),\"pending\"", "$1,\"ignored_held\":0,\"pending\"");
        assertTrue(
                mergeInstead(two, 0, zero).err().contains(": not written as a replay writes it"),
                mergeInstead(two, 0, zero).err());
        Path silent =
                edited(
                        failing,
                        "^\\{\"kind\":\"error\",\"message\":\"[^}]*\"}$",
                        "{\"kind\":\"error\",\"message\":\"\"}");
        assertTrue(
                mergeInstead(two, 0, silent).err().endsWith(": an error line without a message\n"),
                mergeInstead(two, 0, silent).err());
        java.io.ByteArrayOutputStream streamed = new java.io.ByteArrayOutputStream();
        List<Path> files = List.of(Path.of(two.get(1)), noError);
        org.junit.jupiter.api.Assertions.assertThrows(
                MergeRefused.class, () -> ReplayMerge.merge(files, streamed, java.util.Optional.empty(), false));
        assertEquals(0, streamed.size(), "refused before any of the merge is streamed");
    }

    /**
     * Regression: an empty PROOFGATE_SHARD_KEY (a CI secret that is missing) read as "no key", and forged unsigned
     * shards merged.
     */
    @Test
    void anEmptyKeyIsRefused() {
        List<String> two = shards(2, java.util.Map.of(), LOGS, "empty");
        assertEquals(
                new CliRun(
                        Main.USAGE,
                        "",
                        "proofgate merge-replay: PROOFGATE_SHARD_KEY is set but empty (a secret that is missing?):"
                            + " unset it to run without signatures, or set it to a key of at least 32 characters\n"),
                merge(java.util.Map.of(io.proofgate.shard.ShardKey.ENVIRONMENT, ""), List.of(), two));
    }

    /**
     * Regression: a shard whose ids hold a character outside the BMP or a lone surrogate was refused as "not written as
     * a replay writes it": the replay's generator escapes each surrogate ({@code \\uD83D\\uDE00}), and the check wrote
     * the line back as text, which keeps the character.
     */
    @Test
    void idsOutsideTheBmpMergeAsTheyWereWritten() throws Exception {
        Path log = dir.resolve("emoji.jsonl");
        Files.writeString(
                log,
                "{\"kind\":\"topology\",\"schema\":\"proofgate-events/v1\",\"tp_degree\":1,\"hash_block_size\":256,\"min_span_tokens\":1024,\"groups\":[{\"policy\":\"full\",\"block_tokens\":256}]}\n"
                    + "{\"kind\":\"step\",\"step\":1,\"new\":[{\"id\":\"r\uD83D\uDE00\",\"digest\":\"d\\ud800\",\"prompt_tokens\":2048,\"computed\":0,\"scheduled\":2048,\"block_ids\":[[1,2,3,4,5,6,7,8]]}]}\n");
        List<String> one =
                shards(1, java.util.Map.of(), List.of(log.toString(), log.toString()), "emoji"); // two logs: log lines
        assertTrue(
                Files.readString(Path.of(one.getFirst()))
                        .contains("\"id\":\"r\\uD83D\\uDE00\",\"digest\":\"d\\uD800\""),
                Files.readString(Path.of(one.getFirst())));
        CliRun merged = merge(java.util.Map.of(), List.of(), one);
        assertEquals(Main.OK, merged.exit(), merged.err());
        assertEquals(run(List.of("replay", log.toString(), log.toString())), merged);
    }
}
