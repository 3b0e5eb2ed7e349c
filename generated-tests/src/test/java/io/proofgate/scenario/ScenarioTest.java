package io.proofgate.scenario;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The script runner itself: a correct script passes, a wrong expectation fails with the diff marked. */
class ScenarioTest {

    private static final String TOPOLOGY = "topology {\"kind\":\"topology\",\"schema\":\"proofgate-events/v1\",\"tp_degree\":1,"
            + "\"groups\":[{\"policy\":\"full\",\"block_tokens\":2304},{\"policy\":\"recurrent_align\",\"block_tokens\":2304}]}";

    private static final String SEED_ALIGNED = TOPOLOGY + """

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
        AssertionError error = assertThrows(AssertionError.class,
                () -> Scenario.run(SEED_ALIGNED.replace("recurrent=[[1,42]]", "recurrent=[[1,71]]")));
        assertTrue(error.getMessage().contains("> plan r1 digest=d1 span=6912 blocks=[[11,12,13],[42]] recurrent=[[1,71]]"),
                error.getMessage());
    }

    @Test
    void missingSeparatorIsAScriptError() {
        assertThrows(IllegalArgumentException.class, () -> Scenario.run(TOPOLOGY + "\nevent {}\n"));
    }
}
