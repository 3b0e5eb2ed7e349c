package io.proofgate.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import java.util.Map;

/**
 * The connector's state lines: each reads back as written, and a line with a word more than its record holds is refused
 * at its place (the kit compares a state as its records' text, which would drop the word).
 */
class StateLineTest {

    @Test
    void everyStateLineReadsBackAsWritten() {
        for (String text :
                new String[] {
                    "pending none",
                    "pending r1 done=2304 table=[[1001],[1011]] latch=[[1,1017]]",
                    "held d1=[0,1]",
                    "counters plans=1 rejected=0 store_skipped_quorum=0 retired_finished=0"
                }) {
            assertEquals(text, StateLine.read("f", 1, text).text());
        }
    }

    @Test
    void aVerdictSaidInAStepHasTheStepAfterItsRequest() {
        assertEquals(
                "plan r1 step=3 digest=d1 span=6912 blocks=[[11],[42]] recurrent=[[1,42]]",
                new StateLine.Plan("r1", "d1", "6912", "[[11],[42]]", "[[1,42]]").text("3"));
        // an adapter's id may hold a space: the step follows the whole id
        assertEquals("retired r 1 step=12 cause=finished", new StateLine.Retired("r 1", "finished").text("12"));
    }

    @Test
    void aHeldDigestMayHoldAnEqualsSign() {
        assertEquals(new StateLine.Held("k=v", "[0]"), StateLine.read("f", 1, "held k=v=[0]"));
    }

    @Test
    void aStateLineWithAWordMoreIsRefusedAtItsPlace() {
        for (var bad :
                Map.of(
                                "counters plans=1 rejected=0 store_skipped_quorum=0 retired_finished=0 ignored_held=2",
                                "f:4:1: a counters line has 5 words, this one 6",
                                "pending r1 done=2304 table=[[1001],[1011]] latch=[] extra",
                                "f:4:1: a pending line has 5 words, this one 6")
                        .entrySet()) {
            ScenarioFormatException refused =
                    org.junit.jupiter.api.Assertions.assertThrows(
                            ScenarioFormatException.class, () -> StateLine.read("f", 4, bad.getKey()));
            assertEquals(bad.getValue(), refused.getMessage());
        }
    }

    /**
     * A count in another form than the lines write it would read as an answer that differs (exit 1); it is a file no
     * generation writes (exit 2), refused at the value.
     */
    @Test
    void aCountInAnotherFormIsRefusedAtItsValue() {
        for (var bad :
                Map.of(
                                "pending r1 done=06912 table=[[1001],[1011]] latch=[]",
                                "f:2:17: \"done=06912\": a count is written in decimal digits, without a leading zero",
                                "counters plans=1 rejected=-0 store_skipped_quorum=0 retired_finished=0",
                                "f:2:27: \"rejected=-0\": a count is written in decimal digits, without a leading zero",
                                "plan r1 digest=d1 span=+6912 blocks=[[11],[42]] recurrent=[[1,42]]",
                                "f:2:24: \"span=+6912\": a count is written in decimal digits, without a leading zero",
                                "hit r3 tokens=",
                                "f:2:15: \"tokens=\": a count is written in decimal digits, without a leading zero")
                        .entrySet()) {
            ScenarioFormatException refused =
                    org.junit.jupiter.api.Assertions.assertThrows(
                            ScenarioFormatException.class, () -> StateLine.read("f", 2, bad.getKey()));
            assertEquals(bad.getValue(), refused.getMessage());
        }
    }
}
