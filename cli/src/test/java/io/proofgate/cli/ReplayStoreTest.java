package io.proofgate.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.store.StoreKind;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** {@code proofgate replay --store}: stdout as plain replay, byte findings on stderr with exit 1. */
class ReplayStoreTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        out.reset();
        err.reset();
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

    /** Regression: 10,000 groups took about 18 MB each outside the heap and woke the out-of-memory killer. */
    @Test
    void storeHost_refusesATopologyWhosePoolsExceedTheLimitBeforeAllocating(@org.junit.jupiter.api.io.TempDir Path dir)
            throws java.io.IOException {
        StringBuilder groups = new StringBuilder();
        for (int g = 0; g < 10_000; g++) {
            groups.append(g == 0 ? "" : ",").append("{\"policy\":\"full\",\"block_tokens\":2304}");
        }
        Path log = dir.resolve("wide.jsonl");
        java.nio.file.Files.writeString(
                log, "{\"kind\":\"topology\",\"schema\":\"proofgate-events/v1\",\"groups\":[" + groups + "]}\n");
        assertEquals(2, run("replay", "--store", "host", log.toString()));
        assertTrue(
                stderr().startsWith(
                                "proofgate replay: --store host: the topology's 10000 groups need 178257920000 bytes of"
                                    + " page pools (65536 blocks a group), more than the limit of 4294967296 bytes"),
                stderr());
    }

    @Test
    void storeHost_writesExactlyWhatPlainReplayWritesAndPasses() {
        assertEquals(0, run("replay", "../examples/seed-aligned.jsonl"));
        String plain = stdout();
        assertEquals(0, run("replay", "--store", "host", "../examples/seed-aligned.jsonl"), stderr());
        assertEquals(plain, stdout());
        assertEquals("proofgate replay: byte check passed on the host store: 1 plans, 16 pages\n", stderr());
        assertEquals(0, run("replay", "../examples/seed-aligned.jsonl", "--store=host"), stderr());
        assertEquals(plain, stdout());
    }

    /** vLLM hands the latched block 42 to another request before r1 publishes: a finding, exit 1. */
    @Test
    void storeHost_byteFindingNamesRequestGroupBlockAndStepWithExitOne(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("reused.jsonl");
        Files.writeString(
                log,
                """
                {"kind":"topology","schema":"proofgate-events/v1","tp_degree":1,"hash_block_size":256,"min_span_tokens":1024,"groups":[{"policy":"full","block_tokens":2304},{"policy":"recurrent_align","block_tokens":2304}]}
                {"kind":"step","step":1,"new":[{"id":"r1","digest":"d1","prompt_tokens":6992,"computed":0,"scheduled":6912,"block_ids":[[11,12,13],[0,0,71]]}],"recurrent_boundary_blocks":{"r1":[[1,42,6912]]}}
                {"kind":"step","step":2,"new":[{"id":"r2","digest":"d2","prompt_tokens":300,"computed":0,"scheduled":300,"block_ids":[[21],[42]]}],"cached":[{"id":"r1","computed":6912,"scheduled":80,"new_block_ids":[[],[]],"resumed":false}]}
                """);
        assertEquals(0, run("replay", log.toString()));
        String plain = stdout();
        assertEquals(1, run("replay", "--store", "host", log.toString()));
        assertEquals(plain, stdout());
        assertEquals(
                "proofgate replay: byte check failed: step 2 request r1 group 1 block 42: published page is not the"
                        + " recurrent state at 6912 of d1; block 42 holds the recurrent state at 300 of d2 (layer 0"
                        + " differs)\n",
                stderr());
    }

    @Test
    void storeCuda_withoutADevice_saysWhyWithExitTwo() {
        var reason = StoreKind.CUDA.unavailableReason();
        if (reason.isEmpty()) {
            assertEquals(0, run("replay", "--store", "cuda", "../examples/seed-aligned.jsonl"), stderr());
            return;
        }
        assertEquals(2, run("replay", "--store", "cuda", "../examples/seed-aligned.jsonl"));
        assertEquals("proofgate replay: --store cuda: " + reason.get() + "\n", stderr());
        assertEquals("", stdout());
    }

    @Test
    void storeOption_usageErrors() {
        assertEquals(2, run("replay", "--store", "tpu", "../examples/seed-aligned.jsonl"));
        assertTrue(stderr().contains("--store tpu is not a store (expected host or cuda)"), stderr());
        assertEquals(2, run("replay", "../examples/seed-aligned.jsonl", "--store"));
        assertTrue(stderr().contains("missing value for --store"), stderr());
    }
}
