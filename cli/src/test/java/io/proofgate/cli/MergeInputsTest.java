package io.proofgate.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.check.Model;
import io.proofgate.check.ModelCatalog;
import io.proofgate.mutate.MutantLimits;
import io.proofgate.mutate.MutantResult;
import io.proofgate.mutate.Mutation;
import io.proofgate.mutate.MutationPlan;
import io.proofgate.mutate.MutationShard;
import io.proofgate.mutate.Outcome;
import io.proofgate.mutate.RunInputs;
import io.proofgate.shard.ShardKey;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code proofgate merge-mutate} of mutation shards against the inputs they were run on: shards of a checkout whose
 * model config checks one property more merge with each other, but {@code --check} refuses them on a checkout whose
 * config is another; the shard key. The shards' outcomes are written here, not checked by TLC: what is tested is what
 * merge accepts.
 */
class MergeInputsTest {

    private static final Path SPEC = Path.of("../spec").toAbsolutePath().normalize();
    private static final String KEY = "0123456789abcdef0123456789abcdef";

    @TempDir Path dir;

    private final String before = System.getProperty("proofgate.root");

    @AfterEach
    void restoreRoot() {
        if (before == null) {
            System.clearProperty("proofgate.root");
        } else {
            System.setProperty("proofgate.root", before);
        }
    }

    /** A checkout of the spec under {@code name}: spec/ copied, nothing else. */
    private Path checkout(String name) throws Exception {
        Path root = dir.resolve(name);
        try (Stream<Path> files = Files.walk(SPEC)) {
            for (Path file : files.toList()) {
                Path target = root.resolve("spec").resolve(SPEC.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
        return root;
    }

    /**
     * The two shard files of a run of two generated mutants on gen-two-recurrent in {@code root}, each killed there by
     * TypeOK (as written, not checked), signed when {@code key} is given.
     */
    private List<String> shards(Path root, ShardKey key) throws Exception {
        return shards(root, key, new Outcome.Killed("gen-two-recurrent", "TypeOK"));
    }

    private List<String> shards(Path root, ShardKey key, Outcome outcome) throws Exception {
        Path module = root.resolve(MutateCommand.DEFAULT_MODULE);
        String text = Files.readString(module);
        List<String> only =
                MutationPlan.of(
                                text,
                                MutateCommand.DEFAULT_MODULE,
                                new MutationPlan.Selection("Connector", null, null, null, null))
                        .mutations()
                        .stream()
                        .map(Mutation::id)
                        .sorted()
                        .limit(2)
                        .toList();
        Model model = ModelCatalog.of(module.getParent()).resolve("gen-two-recurrent");
        RunInputs inputs =
                MutateCommand.inputs(
                        root,
                        module,
                        List.of(model),
                        null,
                        MutateCommand.equivalentsFile(Map.of(), root),
                        new MutantLimits(Duration.ofSeconds(120), java.util.OptionalLong.empty()));
        List<String> files = new ArrayList<>();
        for (int k = 0; k < 2; k++) {
            MutationPlan.Selection selection =
                    new MutationPlan.Selection("Connector", null, null, only, new MutationPlan.Shard(k, 2));
            MutationPlan plan = MutationPlan.of(text, MutateCommand.DEFAULT_MODULE, selection);
            List<MutantResult> results = plan.mutations().stream().map(m -> new MutantResult(m, outcome)).toList();
            MutationShard shard = MutationShard.of(plan, selection, inputs, results);
            Path file = dir.resolve(root.getFileName() + "-shard-" + k + ".json");
            Files.writeString(file, (key == null ? shard : shard.signed(key)).toJson());
            files.add(file.toString());
        }
        return files;
    }

    private static CliRun merge(Path root, Map<String, String> environment, List<String> options, List<String> files) {
        System.setProperty("proofgate.root", root.toString());
        List<String> args = new ArrayList<>(List.of("merge-mutate"));
        args.addAll(options);
        args.addAll(files);
        return CliRun.with(environment::get, args.toArray(String[]::new));
    }

    /**
     * Regression: shards made with a config that checks one more property merged under --check into "score 100.0%",
     * exit 0, on a checkout whose own config is another.
     */
    @Test
    void checkRefusesShardsOfAnotherConfigThanTheCheckouts() throws Exception {
        Path there = checkout("there");
        Path cfg = there.resolve("spec/MCGenTwoRecurrent.cfg");
        Files.writeString(cfg, Files.readString(cfg) + "PROPERTY\n    ExtraProp\n");
        Path here = checkout("here");
        List<String> theirs = shards(there, null);
        CliRun plain = merge(here, Map.of(), List.of(), theirs);
        assertEquals(Main.OK, plain.exit(), plain.err());
        CliRun asReplay =
                CliRun.of(
                        java.util.stream.Stream.concat(java.util.stream.Stream.of("merge-replay"), theirs.stream())
                                .toArray(String[]::new));
        assertEquals(
                new CliRun(
                        Main.USAGE,
                        "",
                        "proofgate merge-replay: "
                                + theirs.getFirst()
                                + " is not a replay shard (a mutation"
                                + " shard merges with proofgate merge-mutate) (see proofgate merge-replay --help)\n"),
                asReplay);
        assertTrue(plain.out().contains("score 100.0%"), plain.out());
        CliRun check = merge(here, Map.of(), List.of("--check"), theirs);
        assertEquals(
                new CliRun(
                        Main.USAGE,
                        "",
                        "proofgate merge-mutate: --check: the shards were not run on this checkout's inputs:"
                                + " spec/MCGenTwoRecurrent.cfg differs (sha256 "
                                + io.proofgate.words.Sha256.of(cfg).substring(0, 12)
                                + "… in the shards, "
                                + io.proofgate.words.Sha256.of(here.resolve("spec/MCGenTwoRecurrent.cfg"))
                                        .substring(0, 12)
                                + "… in this checkout)\n"),
                check);
        CliRun own = merge(here, Map.of(), List.of("--check"), shards(here, null));
        assertEquals(Main.OK, own.exit(), own.err());
        // a judgement added since the shards ran: --check judges with this checkout's files only
        Files.writeString(
                here.resolve("spec/mutants-equivalent.json"),
                Files.readString(here.resolve("spec/mutants-equivalent.json"))
                        .replace("\"equivalent\": [", "\"equivalent\":  ["));
        assertTrue(
                merge(here, Map.of(), List.of("--check"), shards(there, null))
                        .err()
                        .contains("--check: the shards were not run"));
    }

    /**
     * Regression: a merge without --check judged with whatever equivalents file it was given or found (another run's,
     * or one that calls a survivor equivalent with the reason "trust me"), exit 0: the report is the one run's only
     * with the judgements that run read, which the shards record.
     */
    @Test
    void aMergeJudgesWithTheEquivalentsTheShardsReadOnly() throws Exception {
        Path root = checkout("root");
        List<String> files = shards(root, null);
        CliRun theirs = merge(root, Map.of(), List.of(), files);
        assertEquals(Main.OK, theirs.exit(), theirs.err());
        Path equivalents = root.resolve("spec/mutants-equivalent.json");
        Path other = root.resolve("spec/other-equivalent.json");
        Files.copy(equivalents, other);
        assertEquals(
                new CliRun(
                        Main.USAGE,
                        "",
                        "proofgate merge-mutate: the equivalents file is not the shards':"
                            + " \"spec/other-equivalent.json\" is not a file they read (give theirs with --equivalent"
                            + " FILE)\n"),
                merge(root, Map.of(), List.of("--equivalent", other.toString()), files));
        Files.writeString(
                equivalents, Files.readString(equivalents).replace("\"equivalent\": [", "\"equivalent\":  ["));
        assertEquals(
                new CliRun(
                        Main.USAGE,
                        "",
                        "proofgate merge-mutate: the equivalents file is not the shards':"
                            + " \"spec/mutants-equivalent.json\" holds other bytes than those they read (give theirs"
                            + " with --equivalent FILE)\n"),
                merge(root, Map.of(), List.of(), files));
    }

    @Test
    void withAKeyEveryShardMustBeSignedWithIt() throws Exception {
        Path here = checkout("signed");
        ShardKey key = ShardKey.from(Map.of(ShardKey.ENVIRONMENT, KEY)::get).orElseThrow();
        List<String> signed = shards(here, key);
        assertEquals(Main.OK, merge(here, Map.of(ShardKey.ENVIRONMENT, KEY), List.of("--check"), signed).exit());
        CliRun noKey = merge(here, Map.of(), List.of(), signed);
        assertEquals(Main.USAGE, noKey.exit());
        assertTrue(noKey.err().contains("is signed (\"hmac\"), but PROOFGATE_SHARD_KEY is not set here"), noKey.err());
        CliRun otherKey = merge(here, Map.of(ShardKey.ENVIRONMENT, KEY.replace('0', 'x')), List.of(), signed);
        assertTrue(otherKey.err().contains("its HMAC does not verify with PROOFGATE_SHARD_KEY"), otherKey.err());
        CliRun unsigned = merge(here, Map.of(ShardKey.ENVIRONMENT, KEY), List.of(), shards(here, null));
        assertTrue(unsigned.err().contains("is not signed, and PROOFGATE_SHARD_KEY is set"), unsigned.err());
        CliRun shortKey = merge(here, Map.of(ShardKey.ENVIRONMENT, "short"), List.of(), signed);
        assertEquals(
                new CliRun(
                        Main.USAGE,
                        "",
                        "proofgate merge-mutate: PROOFGATE_SHARD_KEY holds 5 characters; a key needs at least 32"
                                + " (for example the output of `openssl rand -hex 32`)\n"),
                shortKey);
    }

    /** Regression: a mutant that timed out has no outcome, so a merge holding one is unfinished: exit 2, never 0. */
    @Test
    void aMergeWithATimedOutMutantIsUnfinished() throws Exception {
        Path here = checkout("timeout");
        CliRun merged = merge(here, Map.of(), List.of(), shards(here, null, new Outcome.TimedOut("gen-two-recurrent")));
        assertEquals(Main.USAGE, merged.exit(), merged.err());
        assertTrue(merged.out().contains("2 unfinished"), merged.out());
        assertTrue(
                merged.err()
                        .endsWith(
                                "proofgate merge-mutate: 2 mutants timed out: a TLC run went past --timeout 120 s, so"
                                        + " their outcome is unknown and the run is unfinished; raise --timeout\n"),
                merged.err());
    }

    /**
     * A mutant over the state bound has no outcome either; the bound is counted in states, so the same mutant is over
     * it on every machine.
     */
    @Test
    void aMergeWithAMutantOverTheStateBoundIsUnfinished() throws Exception {
        Path here = checkout("bound");
        CliRun merged =
                merge(
                        here,
                        Map.of(),
                        List.of("--check"),
                        shards(here, null, new Outcome.OverStateBound("gen-two-recurrent", 100_000)));
        assertEquals(Main.USAGE, merged.exit(), merged.err());
        assertTrue(merged.out().contains("2 unfinished"), merged.out());
        assertTrue(
                merged.err()
                        .endsWith(
                                "proofgate merge-mutate: 2 mutants went over the state bound: a TLC run found more"
                                        + " distinct states than --max-states allows (100,000 on gen-two-recurrent), so"
                                        + " their outcome is unknown and the run is unfinished; raise --max-states\n"),
                merged.err());
    }
}
