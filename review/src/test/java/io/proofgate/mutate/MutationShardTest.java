package io.proofgate.mutate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.check.Model;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Sharded mutation runs merged: N = 1, 2 and 3 shards of four of the toy module's mutants, each shard written to its
 * result file and read back, merge into the report of one unsharded run, byte for byte; shards of different runs, a
 * missing shard and a changed module are refused.
 */
class MutationShardTest {

    /** The limits of these runs: each model's default state bound, and a guard against a hung TLC. */
    private static final MutantLimits LIMITS = new MutantLimits(Duration.ofSeconds(60), OptionalLong.empty());

    private static final Path TOY = Path.of("src/test/resources/mutate").toAbsolutePath();
    private static final List<String> MODELS = List.of("Rules");

    /** Four mutants of the toy module (--only), enough to spread over three shards and quick to check. */
    static List<String> only;

    static final java.util.Map<Integer, List<MutationShard>> SHARDS = new java.util.HashMap<>();

    @TempDir static Path work;
    static String text;
    static String unsharded;

    /** A toy of a few states: a short run, as the small models of spec/models.json are. */
    private static Model model(String name, String cfg) {
        return new Model(
                name,
                TOY.resolve("Toy.tla"),
                TOY.resolve(cfg),
                new Model.Expected.Ok(),
                OptionalLong.empty(),
                "",
                TOY,
                true);
    }

    /** The inputs of a run on the model Rules, its config the file {@code cfg}. */
    static RunInputs inputs(String cfg) throws MutationException {
        return RunInputs.of(TOY, TOY.resolve("Toy.tla"), List.of(model("Rules", cfg)), null, null, null, LIMITS);
    }

    /**
     * One run's warm TLC JVMs check the unsharded plan and every shard: a mutant's outcome does not depend on the JVM
     * that checks it, and each run's start cost about ten seconds of the class's minute when each shard had a run of
     * its own.
     */
    private static MutationRun run;

    private static synchronized List<MutantResult> check(MutationPlan plan) throws Exception {
        return run.run(text, plan.mutations(), new PrintStream(new ByteArrayOutputStream()));
    }

    private static MutationReport report(MutationPlan plan, List<MutantResult> results) {
        return new MutationReport(plan.source(), plan.part(), MODELS, text, results, Equivalents.none(), plan.allIds());
    }

    @AfterAll
    static void endRun() {
        run.close();
    }

    @BeforeAll
    static void runUnsharded() throws Exception {
        run = new MutationRun(TOY, "Toy.tla", List.of(model("Rules", "Rules.cfg")), 2, LIMITS, work.resolve("run"));
        text = Files.readString(TOY.resolve("Toy.tla"));
        List<Mutation> all =
                MutationPlan.of(text, "Toy.tla", new MutationPlan.Selection("Impl", null, null, null, null))
                        .mutations();
        only = all.stream().map(Mutation::id).sorted().limit(4).toList();
        MutationPlan plan =
                MutationPlan.of(text, "Toy.tla", new MutationPlan.Selection("Impl", null, null, only, null));
        assertEquals(4, plan.mutations().size());
        unsharded = report(plan, check(plan)).toText();
    }

    private static synchronized List<MutationShard> shards(int count) throws Exception {
        if (SHARDS.containsKey(count)) {
            return SHARDS.get(count);
        }
        List<MutationShard> shards = new ArrayList<>();
        for (int k = count - 1; k >= 0; k--) { // in reverse: a merge does not depend on the order of its files
            MutationPlan.Selection selection =
                    new MutationPlan.Selection("Impl", null, null, only, new MutationPlan.Shard(k, count));
            MutationPlan plan = MutationPlan.of(text, "Toy.tla", selection);
            Path file = work.resolve("shard-" + k + "-of-" + count + ".json");
            Files.writeString(file, MutationShard.of(plan, selection, inputs("Rules.cfg"), check(plan)).toJson());
            shards.add(MutationShard.read(file));
        }
        SHARDS.put(count, List.copyOf(shards));
        return SHARDS.get(count);
    }

    private static String merged(List<MutationShard> shards) throws MutationException {
        MutationPlan plan = MutationMerge.plan(shards, text, TOY);
        return report(plan, MutationMerge.results(plan, shards)).toText();
    }

    @Test
    void oneTwoAndThreeShardsMergeIntoTheUnshardedReport() throws Exception {
        for (int count = 1; count <= 3; count++) {
            assertEquals(unsharded, merged(shards(count)), count + " shards");
        }
    }

    @Test
    void shardsThatAreNotThePartsOfOneRunAreRefused() throws Exception {
        List<MutationShard> three = shards(3);
        var missing = assertThrows(MutationException.class, () -> merged(three.subList(0, 2)));
        assertEquals("shards missing: [0/3]; a merge needs all 3", missing.getMessage());
        List<MutationShard> twice = new ArrayList<>(three);
        twice.add(three.getFirst());
        assertEquals(
                "shard 2/3 is given twice", assertThrows(MutationException.class, () -> merged(twice)).getMessage());
        List<MutationShard> mixed = new ArrayList<>(three.subList(0, 2));
        mixed.add(shards(2).getFirst());
        assertTrue(
                assertThrows(MutationException.class, () -> merged(mixed)).getMessage().contains("is of another run"));
        var changed =
                assertThrows(
                        MutationException.class,
                        () -> MutationMerge.plan(three, text.replace("x <= 3", "x <= 3 "), TOY));
        assertEquals("Toy.tla is not the module the shards checked (its bytes changed since)", changed.getMessage());
    }

    /**
     * Every shard checks every named mistake, and a merge takes shard 0's outcome if all agree. The shards are given in
     * reverse, so a shard 0 without the mistake's result is met after one that has it (regression: that compared with
     * null and failed with a NullPointerException).
     */
    @Test
    void aNamedMistakeMustBeInEveryShardAndAgree() throws Exception {
        Path mistakes = work.resolve("mistakes.json");
        Files.writeString(
                mistakes,
                "{\"schema\": \"proofgate-mistakes/v1\", \"mistakes\": [{\"name\": \"looser\", \"meaning\": \"m\","
                        + " \"find\": \"Bounded == x <= 3\", \"replace\": \"Bounded == x <= 4\"}]}");
        Mutation named =
                MutationPlan.of(text, "Toy.tla", new MutationPlan.Selection("Impl", null, mistakes, null, null))
                        .mutations()
                        .stream()
                        .filter(m -> m.kind() == Mutation.Kind.NAMED)
                        .findFirst()
                        .orElseThrow();
        MutationPlan plan =
                MutationPlan.of(
                        text, "Toy.tla", new MutationPlan.Selection("Impl", null, mistakes, List.of(named.id()), null));
        Outcome killed = new Outcome.Killed("Rules", "Bounded");
        RunInputs inputs =
                RunInputs.of(
                        TOY,
                        TOY.resolve("Toy.tla"),
                        List.of(model("Rules", "Rules.cfg")),
                        null,
                        mistakes,
                        null,
                        LIMITS);
        String mistakesName = RunInputs.name(TOY, mistakes);
        java.util.function.BiFunction<Integer, java.util.Map<String, Outcome>, MutationShard> shard =
                (k, outcomes) ->
                        new MutationShard(
                                "Toy.tla",
                                "Impl",
                                null,
                                mistakesName,
                                List.of(named.id()),
                                inputs,
                                k,
                                2,
                                outcomes,
                                null);
        List<MutationShard> agree =
                List.of(
                        shard.apply(1, java.util.Map.of(named.id(), killed)),
                        shard.apply(0, java.util.Map.of(named.id(), killed)));
        assertEquals(List.of(new MutantResult(named, killed)), MutationMerge.results(plan, agree));
        List<MutationShard> noneInZero =
                List.of(shard.apply(1, java.util.Map.of(named.id(), killed)), shard.apply(0, java.util.Map.of()));
        assertEquals(
                "shard 0/2 has no result for the named mistake looser",
                assertThrows(MutationException.class, () -> MutationMerge.results(plan, noneInZero)).getMessage());
        List<MutationShard> disagree =
                List.of(
                        shard.apply(1, java.util.Map.of(named.id(), new Outcome.Survived())),
                        shard.apply(0, java.util.Map.of(named.id(), killed)));
        assertTrue(
                assertThrows(MutationException.class, () -> MutationMerge.results(plan, disagree))
                        .getMessage()
                        .startsWith("the shards disagree on the named mistake looser: "));
    }

    @Test
    void aFileThatIsNotAShardIsOneLine() throws Exception {
        Path file = work.resolve("not-a-shard.json");
        Files.writeString(file, "{\"schema\": \"something-else\"}");
        assertEquals(
                file + ":1:12: \"schema\" must be \"proofgate-mutate-shard/v3\"",
                assertThrows(MutationException.class, () -> MutationShard.read(file)).getMessage());
        Files.writeString(file, "{not json");
        assertEquals(
                file + ":1:2: not valid JSON: expected a field name in double quotes, found \"n\"",
                assertThrows(MutationException.class, () -> MutationShard.read(file)).getMessage());
        Files.writeString(file, "{\"schema\": \"proofgate-mutate-shard/v3\", \"shards\": 2}");
        assertTrue(
                assertThrows(MutationException.class, () -> MutationShard.read(file))
                        .getMessage()
                        .startsWith(file + ":1:41: the top level: unknown key \"shards\" (known: "));
    }

    private static MutationShard withIndex(List<MutationShard> shards, int index) {
        return shards.stream().filter(s -> s.index() == index).findFirst().orElseThrow();
    }

    private static MutationShard with(MutationShard shard, RunInputs inputs, java.util.Map<String, Outcome> outcomes) {
        return new MutationShard(
                shard.module(),
                shard.part(),
                shard.operators(),
                shard.mistakes(),
                shard.only(),
                inputs,
                shard.index(),
                shard.count(),
                outcomes,
                shard.hmac());
    }

    /**
     * Regression: a shard named its models and nothing else, so a shard run with another config behind a model's name
     * (checking one property more or less) merged.
     */
    @Test
    void aShardWhoseModelHadAnotherConfigIsRefused() throws Exception {
        List<MutationShard> two = shards(2);
        MutationShard other = with(withIndex(two, 1), inputs("Safety.cfg"), withIndex(two, 1).outcomes());
        var refused = assertThrows(MutationException.class, () -> merged(List.of(withIndex(two, 0), other)));
        assertEquals(
                "shard 1/2 is of another run than shard 0/2: Rules.cfg is an input of shard 0/2 only",
                refused.getMessage());
        RunInputs longer = new RunInputs(inputs("Rules.cfg").files(), inputs("Rules.cfg").models(), 61);
        var timeout =
                assertThrows(
                        MutationException.class,
                        () ->
                                merged(
                                        List.of(
                                                withIndex(two, 0),
                                                with(withIndex(two, 1), longer, withIndex(two, 1).outcomes()))));
        assertEquals(
                "shard 1/2 is of another run than shard 0/2: --timeout differs (60 s in shard 0/2, 61 s in shard 1/2)",
                timeout.getMessage());
    }

    /** Regression: a result for a mutant another shard owns was merged (docs/scale.md said it was refused). */
    @Test
    void aResultForAMutantOfAnotherShardIsRefused() throws Exception {
        List<MutationShard> two = shards(2);
        MutationShard zero = withIndex(two, 0);
        MutationShard one = withIndex(two, 1);
        java.util.Map<String, Outcome> more = new java.util.LinkedHashMap<>(zero.outcomes());
        String foreign = one.outcomes().keySet().iterator().next();
        more.put(foreign, one.outcomes().get(foreign));
        var refused =
                assertThrows(MutationException.class, () -> merged(List.of(with(zero, zero.inputs(), more), one)));
        assertEquals(
                "shard 0/2 holds a result for mutant "
                        + foreign
                        + ", which belongs to shard 1/2 (a shard holds its own"
                        + " mutants only)",
                refused.getMessage());
    }

    /** Regression: a kill on a model the run does not have, or by something the model does not check, was merged. */
    @Test
    void aKillTheRunCouldNotHaveGivenIsRefused() throws Exception {
        List<MutationShard> two = shards(2);
        MutationShard zero = withIndex(two, 0);
        MutationShard one = withIndex(two, 1);
        String id = zero.outcomes().keySet().iterator().next();
        java.util.function.Function<Outcome, List<MutationShard>> edited =
                outcome -> {
                    java.util.Map<String, Outcome> outcomes = new java.util.LinkedHashMap<>(zero.outcomes());
                    outcomes.put(id, outcome);
                    return List.of(with(zero, zero.inputs(), outcomes), one);
                };
        assertEquals(
                "shard 0/2: mutant "
                        + id
                        + " is killed on Elsewhere by Bounded, but Elsewhere is not a model of the run"
                        + " (models: Rules)",
                assertThrows(
                                MutationException.class,
                                () -> merged(edited.apply(new Outcome.Killed("Elsewhere", "Bounded"))))
                        .getMessage());
        assertEquals(
                "shard 0/2: mutant "
                        + id
                        + " is killed on Rules by Unchecked, which Rules.cfg does not check (it checks:"
                        + " Bounded, StepProp)",
                assertThrows(
                                MutationException.class,
                                () -> merged(edited.apply(new Outcome.Killed("Rules", "Unchecked"))))
                        .getMessage());
        assertTrue(
                assertThrows(MutationException.class, () -> merged(edited.apply(new Outcome.TimedOut("Elsewhere"))))
                        .getMessage()
                        .endsWith("but Elsewhere is not a model of the run (models: Rules)"));
        // the same kill is possible where the model checks it
        merged(edited.apply(new Outcome.Killed("Rules", "StepProp")));
        // and not where the config (Safety.cfg: Bounded only) does not
        java.util.Map<String, Outcome> outcomes = new java.util.LinkedHashMap<>(zero.outcomes());
        outcomes.put(id, new Outcome.Killed("Rules", "StepProp"));
        RunInputs safety = inputs("Safety.cfg");
        String message =
                assertThrows(
                                MutationException.class,
                                () -> merged(List.of(with(zero, safety, outcomes), with(one, safety, one.outcomes()))))
                        .getMessage();
        assertTrue(message.endsWith("by StepProp, which Safety.cfg does not check (it checks: Bounded)"), message);
    }

    private static java.util.Optional<io.proofgate.shard.ShardKey> key(String value) throws Exception {
        return io.proofgate.shard.ShardKey.from(java.util.Map.of(io.proofgate.shard.ShardKey.ENVIRONMENT, value)::get);
    }

    /**
     * Regression: an edited result ("survived" made "killed") merged, since nothing in a shard was checked against
     * anything; with a key, a shard carries an HMAC that must verify.
     */
    @Test
    void aSignedShardVerifiesAndAnEditedOneDoesNot() throws Exception {
        var key = key("k".repeat(40));
        MutationShard shard = withIndex(shards(1), 0).signed(key.orElseThrow());
        Path file = work.resolve("signed.json");
        Files.writeString(file, shard.toJson());
        MutationShard read = MutationShard.read(file);
        assertEquals(shard, read);
        read.verify(file, key);
        java.util.Map<String, Outcome> allKilled = new java.util.LinkedHashMap<>();
        read.outcomes().keySet().forEach(id -> allKilled.put(id, new Outcome.Killed("Rules", "Bounded")));
        Path edited = work.resolve("edited.json");
        Files.writeString(edited, with(read, read.inputs(), allKilled).toJson());
        assertEquals(
                edited
                        + ": its HMAC does not verify with PROOFGATE_SHARD_KEY (the file was edited after it was"
                        + " written, or signed with another key)",
                assertThrows(MutationException.class, () -> MutationShard.read(edited).verify(edited, key))
                        .getMessage());
        Files.writeString(edited, shard.toJson().replace("\"timeout_seconds\" : 60", "\"timeout_seconds\" : 600"));
        assertThrows(MutationException.class, () -> MutationShard.read(edited).verify(edited, key));
        assertThrows(MutationException.class, () -> read.verify(file, key("o".repeat(40))));
        assertTrue(
                assertThrows(MutationException.class, () -> read.verify(file, java.util.Optional.empty()))
                        .getMessage()
                        .contains("is signed (\"hmac\"), but PROOFGATE_SHARD_KEY is not set here"));
        Path unsigned = work.resolve("unsigned.json");
        Files.writeString(unsigned, withIndex(shards(1), 0).toJson());
        assertTrue(
                assertThrows(MutationException.class, () -> MutationShard.read(unsigned).verify(unsigned, key))
                        .getMessage()
                        .contains("is not signed, and PROOFGATE_SHARD_KEY is set"));
        MutationShard.read(unsigned).verify(unsigned, java.util.Optional.empty());
        assertEquals(
                "PROOFGATE_SHARD_KEY holds 5 characters; a key needs at least 32 (for example the output of"
                        + " `openssl rand -hex 32`)",
                assertThrows(io.proofgate.shard.ShardKey.Refused.class, () -> key("short")).getMessage());
        // set but empty is what a missing CI secret expands to: refused, never read as "no key" (which merged forged
        // shards)
        assertTrue(
                assertThrows(io.proofgate.shard.ShardKey.Refused.class, () -> key(""))
                        .getMessage()
                        .startsWith("PROOFGATE_SHARD_KEY is set but empty"));
    }

    @Test
    void aConfigsChecksAreItsInvariantsAndProperties() {
        var checks =
                io.proofgate.check.ConfigChecks.parse(
                        """
                        \\* INVARIANT Commented
                        INIT Init NEXT Next
                        INVARIANTS
                            TypeOK (* Hidden *) Safe
                        INVARIANT Other
                        PROPERTIES Rule1
                          Rule2 \\* the second
                        CONSTRAINT Small
                        CHECK_DEADLOCK FALSE
                        """);
        assertEquals(List.of("TypeOK", "Safe", "Other"), checks.invariants());
        assertEquals(List.of("Rule1", "Rule2"), checks.properties());
        assertTrue(checks.canKill("Safe") && checks.canKill("Rule2") && checks.canKill("evaluation error"));
        assertTrue(
                !checks.canKill("Small")
                        && !checks.canKill("deadlock")
                        && !checks.canKill("Commented")
                        && !checks.canKill("Hidden"));
    }
}
