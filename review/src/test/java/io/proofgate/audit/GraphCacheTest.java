package io.proofgate.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.check.Model;
import io.proofgate.tlc.TlcRunner;
import io.proofgate.tlc.WarmTlcPool;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;

/** The key of a kept state graph: everything a TLC run reads, and nothing else. */
class GraphCacheTest {

    private static Model model(Path spec, String name, String config) {
        return new Model(
                name,
                spec.resolve("MC.tla"),
                spec.resolve(config),
                new Model.Expected.Ok(),
                OptionalLong.empty(),
                "",
                spec);
    }

    @Test
    void theKeyFollowsEverySpecFileAndTheModelAndNothingElse(@TempDir Path dir) throws Exception {
        Path spec = dir.resolve("spec");
        Files.createDirectories(spec.resolve("mutants"));
        Files.writeString(spec.resolve("MC.tla"), "---- MODULE MC ----\n====\n");
        Files.writeString(spec.resolve("MC.cfg"), "INIT Init\n");
        Files.writeString(spec.resolve("Other.cfg"), "INIT Init\n");
        Files.writeString(spec.resolve("mutants/M.tla"), "---- MODULE M ----\n====\n");
        GraphCache cache = new GraphCache(dir.resolve("cache"), TlcRunner.FRESH);
        String key = cache.key(spec, model(spec, "a", "MC.cfg"));

        Path copy = dir.resolve("copy");
        Files.createDirectories(copy.resolve("mutants"));
        for (String file : new String[] {"MC.tla", "MC.cfg", "Other.cfg", "mutants/M.tla"}) {
            Files.copy(spec.resolve(file), copy.resolve(file));
        }
        assertEquals(key, cache.key(copy, model(copy, "a", "MC.cfg")), "the same files elsewhere: the same key");

        assertNotEquals(key, cache.key(spec, model(spec, "b", "MC.cfg")), "another model name");
        try (WarmTlcPool warm = new WarmTlcPool(dir.resolve("warm"), "1g")) { // starts no JVM until a run
            assertNotEquals(
                    key,
                    new GraphCache(dir.resolve("cache"), warm).key(spec, model(spec, "a", "MC.cfg")),
                    "TLC in a warm JVM, which can print a record's fields in another order");
        }
        assertNotEquals(key, cache.key(spec, model(spec, "a", "Other.cfg")), "another config");
        Files.writeString(copy.resolve("mutants/M.tla"), "---- MODULE M ----\n\n====\n");
        assertNotEquals(
                key, cache.key(copy, model(copy, "a", "MC.cfg")), "one byte more in a file the model does not name");
        Files.delete(copy.resolve("mutants/M.tla"));
        assertNotEquals(key, cache.key(copy, model(copy, "a", "MC.cfg")), "a file fewer");
    }

    @Test
    void aKeptGraphThatIsReadIsMarkedAsUsedNow(@TempDir Path dir) throws Exception {
        GraphCache cache = new GraphCache(dir.resolve("cache"), TlcRunner.FRESH);
        Path dot = dir.resolve("states.dot");
        Files.writeString(
                dot,
                """
                strict digraph DiskGraph {
                nodesep=0.35;
                subgraph cluster_graph {
                color="white";
                1 [label="/\\\\ x = 0",style = filled]
                1 -> 2 [label="Next",color="black",fontcolor="black"];
                2 [label="/\\\\ x = 1"];
                }
                }
                """);
        cache.keep("k", dot);
        Path kept = dir.resolve("cache/k.dot");
        java.nio.file.attribute.FileTime old =
                java.nio.file.attribute.FileTime.from(java.time.Instant.parse("2020-01-01T00:00:00Z"));
        Files.setLastModifiedTime(kept, old);
        assertTrue(cache.find("k").isPresent());
        assertTrue(
                Files.getLastModifiedTime(kept).compareTo(old) > 0,
                "its time is the audit's, so that a CI cache can drop the graphs no recent audit used");
    }

    @Test
    void aKeptFileThatIsNotAStateGraphIsNotTrusted(@TempDir Path dir) throws Exception {
        GraphCache cache = new GraphCache(dir.resolve("cache"), TlcRunner.FRESH);
        Path dot = dir.resolve("states.dot");
        Files.writeString(dot, "strict digraph DiskGraph {\n"); // cut short
        cache.keep("k", dot);
        assertTrue(cache.keeps("k"));
        assertEquals(Optional.empty(), cache.find("k"));
        assertFalse(cache.keeps("other"));
        try (var files = Files.list(dir.resolve("cache"))) {
            assertEquals(1, files.count(), "nothing but the kept file is left in the cache folder");
        }
    }
}
