package io.proofgate.mutate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.check.Model;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sharded mutation runs merged: N = 1, 2 and 3 shards of four of the toy module's mutants, each shard
 * written to its result file and read back, merge into the report of one unsharded run, byte
 * for byte; shards of different runs, a missing shard and a changed module are refused.
 */
class MutationShardTest {

    private static final Path TOY = Path.of("src/test/resources/mutate").toAbsolutePath();
    private static final List<String> MODELS = List.of("Rules");
    /** Four mutants of the toy module (--only), enough to spread over three shards and quick to check. */
    static List<String> only;
    static final java.util.Map<Integer, List<MutationShard>> SHARDS = new java.util.HashMap<>();

    @TempDir
    static Path work;
    static String text;
    static String unsharded;

    private static List<MutantResult> check(MutationPlan plan, String name) throws Exception {
        Model rules = new Model("Rules", TOY.resolve("Toy.tla"), TOY.resolve("Rules.cfg"), new Model.Expected.Ok(),
                OptionalLong.empty(), "", TOY);
        MutationRun run = new MutationRun(TOY, "Toy.tla", List.of(rules), 2, Duration.ofSeconds(60), work.resolve(name));
        return run.run(text, plan.mutations(), new PrintStream(new ByteArrayOutputStream()));
    }

    private static MutationReport report(MutationPlan plan, List<MutantResult> results) {
        return new MutationReport(plan.source(), plan.part(), MODELS, text, results, Equivalents.none(), plan.allIds());
    }

    @BeforeAll
    static void runUnsharded() throws Exception {
        text = Files.readString(TOY.resolve("Toy.tla"));
        List<Mutation> all = MutationPlan.of(text, "Toy.tla", new MutationPlan.Selection("Impl", null, null, null, null))
                .mutations();
        only = all.stream().map(Mutation::id).sorted().limit(4).toList();
        MutationPlan plan = MutationPlan.of(text, "Toy.tla", new MutationPlan.Selection("Impl", null, null, only, null));
        assertEquals(4, plan.mutations().size());
        unsharded = report(plan, check(plan, "whole")).toText();
    }

    private static synchronized List<MutationShard> shards(int count) throws Exception {
        if (SHARDS.containsKey(count)) {
            return SHARDS.get(count);
        }
        List<MutationShard> shards = new ArrayList<>();
        for (int k = count - 1; k >= 0; k--) { // in reverse: a merge does not depend on the order of its files
            MutationPlan.Selection selection = new MutationPlan.Selection("Impl", null, null, only, new MutationPlan.Shard(k, count));
            MutationPlan plan = MutationPlan.of(text, "Toy.tla", selection);
            Path file = work.resolve("shard-" + k + "-of-" + count + ".json");
            Files.writeString(file, MutationShard.of(plan, selection, MODELS, check(plan, k + "-of-" + count)).toJson());
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
        assertEquals("shard 2/3 is given twice", assertThrows(MutationException.class, () -> merged(twice)).getMessage());
        List<MutationShard> mixed = new ArrayList<>(three.subList(0, 2));
        mixed.add(shards(2).getFirst());
        assertTrue(assertThrows(MutationException.class, () -> merged(mixed)).getMessage().contains("is of another run"));
        var changed = assertThrows(MutationException.class,
                () -> MutationMerge.plan(three, text.replace("x <= 3", "x <= 3 "), TOY));
        assertEquals("Toy.tla is not the module the shards checked (its bytes changed since)", changed.getMessage());
    }

    /**
     * Every shard checks every named mistake, and a merge takes shard 0's outcome if all agree.
     * The shards are given in reverse, so a shard 0 without the mistake's result is met after one
     * that has it (regression: that compared with null and failed with a NullPointerException).
     */
    @Test
    void aNamedMistakeMustBeInEveryShardAndAgree() throws Exception {
        Path mistakes = work.resolve("mistakes.json");
        Files.writeString(mistakes, "{\"schema\": \"proofgate-mistakes/v1\", \"mistakes\": [{\"name\": \"looser\","
                + " \"meaning\": \"m\", \"find\": \"Bounded == x <= 3\", \"replace\": \"Bounded == x <= 4\"}]}");
        Mutation named = MutationPlan.of(text, "Toy.tla", new MutationPlan.Selection("Impl", null, mistakes, null, null))
                .mutations().stream().filter(m -> m.kind() == Mutation.Kind.NAMED).findFirst().orElseThrow();
        MutationPlan plan = MutationPlan.of(text, "Toy.tla",
                new MutationPlan.Selection("Impl", null, mistakes, List.of(named.id()), null));
        Outcome killed = new Outcome.Killed("Rules", "Inv");
        java.util.function.BiFunction<Integer, java.util.Map<String, Outcome>, MutationShard> shard = (k, outcomes) ->
                new MutationShard("Toy.tla", MutationShard.sha256(text), "Impl", null, "mistakes.json", List.of(named.id()), MODELS, k, 2,
                        outcomes);
        List<MutationShard> agree = List.of(shard.apply(1, java.util.Map.of(named.id(), killed)),
                shard.apply(0, java.util.Map.of(named.id(), killed)));
        assertEquals(List.of(new MutantResult(named, killed)), MutationMerge.results(plan, agree));
        List<MutationShard> noneInZero = List.of(shard.apply(1, java.util.Map.of(named.id(), killed)),
                shard.apply(0, java.util.Map.of()));
        assertEquals("shard 0/2 has no result for the named mistake looser",
                assertThrows(MutationException.class, () -> MutationMerge.results(plan, noneInZero)).getMessage());
        List<MutationShard> disagree = List.of(shard.apply(1, java.util.Map.of(named.id(), new Outcome.Survived())),
                shard.apply(0, java.util.Map.of(named.id(), killed)));
        assertTrue(assertThrows(MutationException.class, () -> MutationMerge.results(plan, disagree)).getMessage()
                .startsWith("the shards disagree on the named mistake looser: "));
    }

    @Test
    void aFileThatIsNotAShardIsOneLine() throws Exception {
        Path file = work.resolve("not-a-shard.json");
        Files.writeString(file, "{\"schema\": \"something-else\"}");
        assertEquals(file + ": \"schema\" must be \"proofgate-mutate-shard/v1\"",
                assertThrows(MutationException.class, () -> MutationShard.read(file)).getMessage());
        Files.writeString(file, "{not json");
        assertEquals(file + ":1:2: not valid JSON",
                assertThrows(MutationException.class, () -> MutationShard.read(file)).getMessage());
        Files.writeString(file, "{\"schema\": \"proofgate-mutate-shard/v1\", \"shards\": 2}");
        assertTrue(assertThrows(MutationException.class, () -> MutationShard.read(file)).getMessage()
                .startsWith(file + ": the top level: unknown key \"shards\" (known: "));
    }
}
