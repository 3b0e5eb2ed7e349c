package io.proofgate.conform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** A line read through {@link SharedLines} is what reading it alone gives; a bad one is refused every time. */
class SharedLinesTest {

    private static final String PLAN = "{\"kind\":\"plan\",\"step\":4,\"id\":\"r1\",\"digest\":\"d1\",\"span\":6912,"
            + "\"blocks_by_group\":[[11,12,13],[52]],\"recurrent\":[[1,52]]}";

    @Test
    void theSecondCopyOfALineTakesTheFirstsReading() throws AdapterException {
        SharedLines lines = new SharedLines();
        Line first = lines.read(PLAN);
        assertEquals(AnswerReader.read(PLAN), first);
        assertSame(first, lines.read(PLAN));
        lines.clear();
        Line again = lines.read(PLAN);
        assertNotSame(first, again);
        assertEquals(first, again);
    }

    @Test
    void aLineThatIsNotAnAnswerIsRefusedEachTimeWithTheSameWords() {
        SharedLines lines = new SharedLines();
        String bad = "{\"kind\":\"plan\",\"step\":\"four\"}";
        String message = assertThrows(AdapterException.class, () -> AnswerReader.read(bad)).getMessage();
        assertEquals(message, assertThrows(AdapterException.class, () -> lines.read(bad)).getMessage());
        assertEquals(message, assertThrows(AdapterException.class, () -> lines.read(bad)).getMessage());
    }
}
