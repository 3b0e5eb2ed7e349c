package io.proofgate.conform;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.proofgate.format.StateLine;

import org.junit.jupiter.api.Test;

/**
 * A scenario's verdict line as replay prints it (docs/conformance.md, "Scenario files"): the one rendering the kit's
 * expectations and the spec audit's verdicts share.
 */
class VerdictLineTest {

    private static String json(String line, String step) {
        return Line.VerdictLine.of(step, (StateLine.Verdict) StateLine.read("a test", 1, line)).json();
    }

    @Test
    void aPlanKeepsItsFieldsInOrderWithTheListsAsJson() {
        assertEquals(
                "{\"kind\":\"plan\",\"step\":3,\"id\":\"r1\",\"digest\":\"d1\",\"span\":6912,"
                        + "\"blocks_by_group\":[[1001,1002],[1015]],\"recurrent\":[[1,1015]]}",
                json("plan r1 digest=d1 span=6912 blocks=[[1001,1002],[1015]] recurrent=[[1,1015]]", "3"));
    }

    @Test
    void aRejectionHasItsFieldFactsAndTheReasonReplayWrites() {
        assertEquals(
                "{\"kind\":\"rejected\",\"step\":2,\"id\":\"r2\",\"code\":\"future_boundary\",\"observed\":8448,"
                        + "\"target\":8192,\"group\":1,\"block\":142,\"reason\":\"entry boundary is ahead of the store"
                        + " plan observed=8448 target=8192 group=1 block=142 entry=0\"}",
                json("rejected r2 code=future_boundary observed=8448 target=8192 group=1 block=142 entry=0", "2"));
    }

    @Test
    void aCodeThisVersionDoesNotKnowHasItsFactsForAReason() {
        assertEquals(
                "{\"kind\":\"rejected\",\"step\":1,\"id\":\"r1\",\"code\":\"renamed_code\",\"target\":8,"
                        + "\"reason\":\"target=8\"}",
                json("rejected r1 code=renamed_code target=8", "1"));
    }

    @Test
    void theOtherKindsHaveTheirOwnFields() {
        assertEquals(
                "{\"kind\":\"retired\",\"step\":5,\"id\":\"r1\",\"cause\":\"finished\"}",
                json("retired r1 cause=finished", "5"));
        assertEquals("{\"kind\":\"hit\",\"step\":1,\"id\":\"r3\",\"tokens\":6912}", json("hit r3 tokens=6912", "1"));
        assertEquals(
                "{\"kind\":\"load\",\"step\":2,\"id\":\"r3\",\"digest\":\"d1\",\"span\":6912,\"blocks_by_group\":[[11],[42]]}",
                json("load r3 digest=d1 span=6912 blocks=[[11],[42]]", "2"));
    }
}
