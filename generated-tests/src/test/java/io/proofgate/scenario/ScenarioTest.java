package io.proofgate.scenario;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The script runner itself: a correct script passes, a wrong expectation fails with the diff marked. */
class ScenarioTest {

    private static final String TOPOLOGY =
            "topology {\"kind\":\"topology\",\"schema\":\"proofgate-events/v1\",\"tp_degree\":1,"
                + "\"groups\":[{\"policy\":\"full\",\"block_tokens\":2304},{\"policy\":\"recurrent_align\",\"block_tokens\":2304}]}";

    private static final String SEED_ALIGNED =
            TOPOLOGY
                    + """

                    event {"kind":"step","step":1,"new":[{"id":"r1","digest":"d1","prompt_tokens":6992,"computed":0,"scheduled":6912,"block_ids":[[11,12,13],[0,0,71]]}],"recurrent_boundary_blocks":{"r1":[[1,42,6912]]}}
                    ----
                    pending r1 done=6912 table=[[11,12,13],[0,0,71]] latch=[[1,42]]
                    counters plans=0 rejected=0 store_skipped_quorum=0 retired_finished=0

                    event {"kind":"step","step":2,"cached":[{"id":"r1","computed":6912,"scheduled":80,"new_block_ids":[[],[]],"resumed":false}]}
                    ----
                    plan r1 digest=d1 span=6912 blocks=[[11,12,13],[42]] recurrent=[[1,42]]
                    pending none
                    counters plans=1 rejected=0 store_skipped_quorum=0 retired_finished=0
                    """;

    @Test
    void seedAlignedProofScriptPasses() {
        Scenario.run(SEED_ALIGNED);
    }

    @Test
    void wrongExpectationFailsWithTheFirstDifferenceMarked() {
        AssertionError error =
                assertThrows(
                        AssertionError.class,
                        () -> Scenario.run(SEED_ALIGNED.replace("recurrent=[[1,42]]", "recurrent=[[1,71]]")));
        assertTrue(
                error.getMessage()
                        .contains("> plan r1 digest=d1 span=6912 blocks=[[11,12,13],[42]] recurrent=[[1,71]]"),
                error.getMessage());
    }

    @Test
    void missingSeparatorIsAScriptError() {
        assertThrows(IllegalArgumentException.class, () -> Scenario.run(TOPOLOGY + "\nevent {}\n"));
    }

    /**
     * A script of vLLM's block contents (one recurrent group of 2-token blocks): r1 hands over its target, 4, in step
     * 2, and the validator publishes it there.
     */
    private static final String STATED =
            """
            topology {"kind":"topology","schema":"proofgate-events/v1","tp_degree":1,"hash_block_size":2,"min_span_tokens":1,"groups":[{"policy":"recurrent_align","block_tokens":2}]}

            event {"kind":"step","step":1,"new":[{"id":"r1","digest":"d1","prompt_tokens":5,"computed":0,"scheduled":2,"block_ids":[[1]]}],"recurrent_boundary_blocks":{"r1":[[0,1,2]]}}
            ----
            contents 1=d1@2 2=none 3=none released=[]

            event {"kind":"step","step":2,"cached":[{"id":"r1","computed":2,"scheduled":2,"new_block_ids":[[2]],"resumed":false}],"recurrent_boundary_blocks":{"r1":[[0,2,4]]}}
            ----
            contents 1=d1@2 2=d1@4 3=none released=[]

            event {"kind":"step","step":3,"cached":[{"id":"r1","computed":4,"scheduled":1,"new_block_ids":[[3]],"resumed":false}]}
            ----
            contents 1=none 2=d1@4 3=d1@5 released=[1]
            """;

    @Test
    void theValidatorsPlansAreJudgedOnTheStatedContents() {
        Scenario.run(STATED);
        AssertionError error =
                assertThrows(
                        AssertionError.class,
                        () -> Scenario.run(STATED.replace("contents 1=d1@2 2=d1@4", "contents 1=d1@2 2=d1@3")));
        assertTrue(error.getMessage().startsWith("unsafe plan "), error.getMessage());
        assertTrue(
                error.getMessage().contains("block 2 holds the recurrent state at 3 of d1 (since step 2)"),
                error.getMessage());
    }
}
