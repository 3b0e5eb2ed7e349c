package io.proofgate.bytecheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.replay.EventReader;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;

/**
 * A harness variant that publishes the table slot instead of the latch (protocol §1: "its block id is never proof")
 * must be caught by the byte check, with the request, group, block and step.
 */
class TableSlotVariantTest {

    private static ByteCheckedReplay.Result variant(byte[] log, String source) throws Exception {
        try (EventReader reader = new EventReader(new ByteArrayInputStream(log), source)) {
            return ByteChecks.replay(log, source, new TableSlotCopies(reader.readTopology()));
        }
    }

    private static byte[] seed(String name) throws Exception {
        return Files.readAllBytes(
                ByteChecks.seedScenarios().stream()
                        .filter(path -> path.getFileName().toString().equals(name))
                        .findFirst()
                        .orElseThrow());
    }

    /** Non-aligned target: the table slot 71 has run on to 8256; the CoW block 142 holds 8192. */
    @Test
    void nonAlignedCow_tableSlotIsCaught() throws Exception {
        ByteCheckedReplay.Result result = variant(seed("02-nonaligned-cow.jsonl"), "02");
        assertEquals(1, result.findingCount(), ByteChecks.messages(result));
        assertEquals(
                "step 2 request r1 group 1 block 71: published page is not the recurrent state at 8192 of d1; "
                        + "block 71 holds the recurrent state at 8256 of d1 (layer 0 differs)",
                result.findings().getFirst().message());
    }

    /** Aligned proof with a null table slot: the variant publishes block 0, which holds nothing. */
    @Test
    void alignedProof_nullTableSlotIsCaught() throws Exception {
        ByteCheckedReplay.Result result = variant(seed("01-aligned-proof-then-absent.jsonl"), "01");
        assertEquals(1, result.findingCount(), ByteChecks.messages(result));
        assertEquals(
                "step 2 request r1 group 1 block 0: published page is not the recurrent state at 6912 of d1; "
                        + "block 0 was never written",
                result.findings().getFirst().message());
    }

    /**
     * The check is on bytes, not ids: in scenario 09 the plan is published in the very step that reaches the target, so
     * the resumed table slot 81 happens to hold the state at 6912 and the variant's pages are right. (The validator
     * still never takes the slot: protocol §3.)
     */
    @Test
    void preemptThenResume_tableSlotAtTheTargetHoldsTheRightBytes() throws Exception {
        ByteCheckedReplay.Result result = variant(seed("09-preempt-then-resume.jsonl"), "09");
        assertEquals(1, result.plansChecked());
        assertEquals(0, result.findingCount(), ByteChecks.messages(result));
    }

    @Test
    void syntheticLogs_tableSlotIsCaughtOnEveryPlanThatNeedsTheLatch() throws Exception {
        ByteCheckedReplay.Result result = variant(ByteChecks.synthetic(1, 64, 1L << 20), "synthetic-1");
        assertTrue(
                result.findingCount() > 20,
                "only " + result.findingCount() + " findings in " + result.plansChecked() + " plans");
        assertTrue(
                result.findings().getFirst().message().contains(" group 1 block "),
                result.findings().getFirst().message());
    }
}
