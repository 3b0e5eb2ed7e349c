package io.proofgate.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import java.util.List;

/** A validator's replay output in the words a model's outcome is stated in (the spec audit compares the two). */
class ReplayWordsTest {

    @Test
    void everyVerdictKindReadsAsTheGeneratedScenariosStateIt() {
        String output =
                String.join(
                        "\n",
                        "{\"kind\":\"plan\",\"step\":1,\"id\":\"r1\",\"digest\":\"d1\",\"span\":6912,"
                                + "\"blocks_by_group\":[[11,12,13],[42]],\"recurrent\":[[3,9],[1,42]]}",
                        "{\"kind\":\"rejected\",\"step\":2,\"id\":\"r2\",\"code\":\"future_boundary\",\"observed\":8448,\"target\":8192,\"reason\":\"a"
                            + " boundary past the target observed=8448 target=8192\"}",
                        "{\"kind\":\"retired\",\"step\":2,\"id\":\"r1\",\"cause\":\"finished\"}",
                        "{\"kind\":\"hit\",\"step\":3,\"id\":\"r3\",\"tokens\":6912}",
                        "{\"kind\":\"load\",\"step\":4,\"id\":\"r3\",\"digest\":\"d1\",\"span\":6912,"
                                + "\"blocks_by_group\":[[61,62,63],[71]]}",
                        "{\"kind\":\"summary\",\"plans\":1,\"rejected\":1,\"store_skipped_quorum\":0,\"retired_finished\":1,"
                            + "\"pending\":[\"r4\",\"r5\"],\"latched\":{\"r4\":[[1,7]]}}");
        assertEquals(
                List.of(
                        "plan r1 step=1 digest=d1 span=6912 blocks=[[11,12,13],[42]] recurrent=[[1,42],[3,9]]",
                        "rejected r2 step=2 code=future_boundary observed=8448 target=8192",
                        "retired r1 step=2 cause=finished",
                        "hit r3 step=3 tokens=6912",
                        "load r3 step=4 digest=d1 span=6912 blocks=[[61,62,63],[71]]",
                        "summary plans=1 rejected=1 store_skipped_quorum=0 retired_finished=1 ignored_held=0"
                                + " pending=[\"r4\", \"r5\"] latched=[\"r4\":[[1,7]]]"),
                ReplayWords.of(output));
    }

    @Test
    void aRefusedLogIsItsErrorLineAndIgnoredHeldReportsAreCountedWherePrinted() {
        assertEquals(
                List.of("error: events.jsonl:2:1: not JSON"), ReplayWords.of("error: events.jsonl:2:1: not JSON\n"));
        assertEquals(
                List.of(
                        "summary plans=0 rejected=0 store_skipped_quorum=0 retired_finished=0 ignored_held=2"
                                + " pending=[] latched=[]"),
                ReplayWords.of(
                        "{\"kind\":\"summary\",\"plans\":0,\"rejected\":0,\"store_skipped_quorum\":0,"
                                + "\"retired_finished\":0,\"ignored_held\":2,\"pending\":[],\"latched\":{}}"));
    }

    /**
     * A revision's replay may print what today's does not (a code renamed since, a kind it alone has): its words say
     * so, and differ from any verdict's, so the audit shows the difference instead of stopping at it.
     */
    @Test
    void aLineTodaysReplayDoesNotPrintIsADifferenceNotAStop() {
        String rejected =
                "{\"kind\":\"rejected\",\"step\":1,\"id\":\"r1\",\"code\":\"renamed_code\",\"target\":8,\"reason\":\"x\"}";
        assertEquals(
                List.of(
                        "a line today's replay does not print (not a rejection code of the protocol): " + rejected,
                        "a line today's replay does not print (not a line a replay prints for a log (kind \"saved\")): "
                                + "{\"kind\":\"saved\",\"step\":1,\"id\":\"r1\"}"),
                ReplayWords.of(rejected + "\n{\"kind\":\"saved\",\"step\":1,\"id\":\"r1\"}\n"));
    }
}
