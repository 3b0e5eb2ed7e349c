package io.proofgate.bytecheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.protocol.Group;
import io.proofgate.protocol.Topology;
import io.proofgate.words.GroupPolicy;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Byte-level conformance on the store that {@code -Dproofgate.store=host|cuda} names (host by default): every published
 * page holds the content the target demands, before and after a restore into fresh blocks, on the seed scenarios and on
 * synthetic logs.
 */
class ByteCheckTest {

    /** Plans in each seed scenario, from their .expected files: the check must not pass vacuously. */
    private static final Map<String, Long> SEED_PLANS =
            Map.of(
                    "01-aligned-proof-then-absent.jsonl", 1L,
                    "02-nonaligned-cow.jsonl", 1L,
                    "04-chunked-prefill.jsonl", 1L,
                    "09-preempt-then-resume.jsonl", 1L);

    @TestFactory
    Stream<DynamicTest> seedScenarios_publishPagesThatHoldTheTargetContent() throws Exception {
        return ByteChecks.seedScenarios().stream()
                .map(
                        log ->
                                DynamicTest.dynamicTest(
                                        log.getFileName().toString(),
                                        () -> {
                                            ByteCheckedReplay.Result result =
                                                    ByteChecks.replay(
                                                            Files.readAllBytes(log),
                                                            log.getFileName().toString(),
                                                            CopiedBlocks.PLAN);
                                            assertEquals(0, result.findingCount(), ByteChecks.messages(result));
                                            assertEquals(
                                                    (long) SEED_PLANS.getOrDefault(log.getFileName().toString(), 0L),
                                                    result.plansChecked());
                                            // A plan here has 3 or 4 attention blocks and 1 recurrent block, 2 layers,
                                            // checked twice.
                                            if (result.plansChecked() > 0) {
                                                assertTrue(
                                                        result.pagesChecked() >= 2 * 2 * 4,
                                                        "pages checked: " + result.pagesChecked());
                                            }
                                        }));
    }

    @Test
    void syntheticLogs_publishPagesThatHoldTheTargetContent() throws Exception {
        for (long seed : new long[] {1, 2, 3}) {
            ByteCheckedReplay.Result result =
                    ByteChecks.replay(ByteChecks.synthetic(seed, 64, 1L << 20), "synthetic-" + seed, CopiedBlocks.PLAN);
            assertEquals(0, result.findingCount(), ByteChecks.messages(result));
            assertTrue(
                    result.plansChecked() > 20, "seed " + seed + " checked only " + result.plansChecked() + " plans");
        }
    }

    /** Sliding windows: the window's chunks, not the prefix's first ones. */
    @Test
    void slidingGroup_publishesTheWindowsChunks() throws Exception {
        String log =
                """
                {"kind":"topology","schema":"proofgate-events/v1","tp_degree":1,"hash_block_size":256,"min_span_tokens":1024,"groups":[{"policy":"sliding","block_tokens":1024,"window_tokens":2048},{"policy":"recurrent_align","block_tokens":1024}]}
                {"kind":"step","step":1,"new":[{"id":"r1","digest":"d1","prompt_tokens":5000,"computed":0,"scheduled":4864,"block_ids":[[0,0,21,22,23],[0,0,0,0,71]]}],"recurrent_boundary_blocks":{"r1":[[1,42,4864]]}}
                {"kind":"step","step":2,"cached":[{"id":"r1","computed":4864,"scheduled":136,"new_block_ids":[[],[]],"resumed":false}]}
                """;
        ByteCheckedReplay.Result result =
                ByteChecks.replay(log.getBytes(StandardCharsets.UTF_8), "sliding", CopiedBlocks.PLAN);
        assertEquals(1, result.plansChecked());
        assertEquals(0, result.findingCount(), ByteChecks.messages(result));
    }

    /**
     * The harness follows the events, not the verdicts: a log in which vLLM hands the latched block 42 to another
     * request as its running slot before the plan is published is caught.
     */
    @Test
    void pinnedBlockReusedBeforePublication_isCaught() throws Exception {
        String log =
                """
                {"kind":"topology","schema":"proofgate-events/v1","tp_degree":1,"hash_block_size":256,"min_span_tokens":1024,"groups":[{"policy":"full","block_tokens":2304},{"policy":"recurrent_align","block_tokens":2304}]}
                {"kind":"step","step":1,"new":[{"id":"r1","digest":"d1","prompt_tokens":6992,"computed":0,"scheduled":6912,"block_ids":[[11,12,13],[0,0,71]]}],"recurrent_boundary_blocks":{"r1":[[1,42,6912]]}}
                {"kind":"step","step":2,"new":[{"id":"r2","digest":"d2","prompt_tokens":300,"computed":0,"scheduled":300,"block_ids":[[21],[42]]}],"cached":[{"id":"r1","computed":6912,"scheduled":80,"new_block_ids":[[],[]],"resumed":false}]}
                """;
        ByteCheckedReplay.Result result =
                ByteChecks.replay(log.getBytes(StandardCharsets.UTF_8), "reused", CopiedBlocks.PLAN);
        assertEquals(1, result.findingCount(), ByteChecks.messages(result));
        assertEquals(
                "step 2 request r1 group 1 block 42: published page is not the recurrent state at 6912 of d1; "
                        + "block 42 holds the recurrent state at 300 of d2 (layer 0 differs)",
                result.findings().getFirst().message());
    }

    /** The harness's geometry is what it says: the store layout it asks for matches the topology. */
    @Test
    void layout_hasOnePoolPerGroupWithRestoreRoom() {
        Topology topology =
                Topology.of(
                        new Group(0, GroupPolicy.FULL, 2304, 0), new Group(1, GroupPolicy.RECURRENT_ALIGN, 2304, 0));
        var layout = ByteCheckHarness.layoutFor(topology, 100);
        assertEquals(2, layout.groups().size());
        assertEquals(100 + ByteCheckHarness.RESTORE_BLOCKS, layout.group(1).blocks());
    }
}
