package io.proofgate.conform;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.proofgate.format.StateLine;

import org.junit.jupiter.api.Test;

/** The rule a state difference falls under names what differs, pending stores matched by request id. */
class RulesTest {

    private static Line.State state(String... lines) {
        return new Line.State(
                java.util.Arrays.stream(lines).map(line -> StateLine.read("a state line", 1, line)).toList());
    }

    private static final String R1 = "pending r1 done=2304 table=[[1001],[1011]] latch=[]";
    private static final String HELD = "held d1=[0]";
    private static final String COUNTERS = "counters plans=0 rejected=0 store_skipped_quorum=0 retired_finished=0";

    @Test
    void aPendingStoreTooManyIsNamedAsSuchAndNotAsTheLineAfterIt() {
        assertEquals(
                "state: pending requests differ",
                Rules.ofState(
                        state(R1, HELD, COUNTERS),
                        state(R1, "pending r2 done=0 table=[[],[]] latch=[]", HELD, COUNTERS)));
        assertEquals("state: pending requests differ", Rules.ofState(state(R1, HELD, COUNTERS), state(HELD, COUNTERS)));
    }

    @Test
    void aFieldOfAPendingStoreACounterAndAnotherLineAreNamed() {
        assertEquals(
                "state: pending done differs",
                Rules.ofState(state(R1, HELD, COUNTERS), state(R1.replace("done=2304", "done=4608"), HELD, COUNTERS)));
        assertEquals(
                "state: counter rejected differs",
                Rules.ofState(
                        state(R1, HELD, COUNTERS), state(R1, HELD, COUNTERS.replace("rejected=0", "rejected=1"))));
        assertEquals(
                "state: held differs", Rules.ofState(state(R1, HELD, COUNTERS), state(R1, "held d1=[0,1]", COUNTERS)));
    }

    @Test
    void eachHeldDigestIsALineOfItsOwnAndSeveralFieldsThatDifferAreNamedTogether() {
        // the first of two held lines differs: named, not lost behind the second
        assertEquals(
                "state: held differs",
                Rules.ofState(
                        state(R1, HELD, "held d2=[0]", COUNTERS), state(R1, "held d1=[0,1]", "held d2=[0]", COUNTERS)));
        assertEquals(
                "state: pending done, latch differ",
                Rules.ofState(
                        state(R1, HELD, COUNTERS),
                        state(
                                R1.replace("done=2304", "done=4608").replace("latch=[]", "latch=[[1,1015]]"),
                                HELD,
                                COUNTERS)));
    }
}
