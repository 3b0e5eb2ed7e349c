package io.proofgate.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The step's id table answers exactly as a hash set cleared at every step would. */
class StepIdsTest {

    @Test
    void agreesWithAHashSetOverManySteps() {
        // ids from a small alphabet, so repeats within a step and across steps are common; -1 ends a step
        qt().withExamples(2_000).forAll(lists().of(integers().between(-1, 40)).ofSizeBetween(0, 300)).checkAssert(ops -> {
            StepIds table = new StepIds();
            Set<String> reference = new HashSet<>();
            for (int op : ops) {
                if (op < 0) {
                    table.clear();
                    reference.clear();
                } else {
                    String id = "req-" + op;
                    assertEquals(reference.add(id), table.add(id), () -> "add " + id + " after " + reference);
                }
            }
        });
    }

    @Test
    void growsPastItsFirstSizeAndStillFindsEveryRepeat() {
        StepIds table = new StepIds();
        for (int i = 0; i < 200_000; i++) { // past 2^16 slots, where every bit of a hash must count
            assertTrue(table.add("req-" + i));
        }
        for (int i = 0; i < 200_000; i++) {
            assertFalse(table.add("req-" + i), "req-" + i);
        }
        assertFalse(table.overflowed(), "ids with consecutive hash codes are spread, not probed in long runs");
        table.clear();
        assertTrue(table.add("req-7"), "a new step starts empty");
    }

    /** Ids made of "Aa" and "BB" all share one hash code: the table goes to a hash set and stays exact. */
    @Test
    void idsThatShareOneHashCodeAreStillTellApart() {
        List<String> colliding = Events.idsSharingOneHashCode(11);
        assertEquals(2048, colliding.size());
        assertEquals(1, colliding.stream().mapToInt(String::hashCode).distinct().count());
        StepIds table = new StepIds();
        for (int step = 0; step < 2; step++) {
            for (String id : colliding) {
                assertTrue(table.add(id), id);
            }
            for (String id : colliding) {
                assertFalse(table.add(id), id);
            }
            assertTrue(table.overflowed());
            table.clear();
            assertFalse(table.overflowed(), "each step starts in the table");
        }
    }
}
