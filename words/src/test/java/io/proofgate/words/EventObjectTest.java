package io.proofgate.words;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

class EventObjectTest {

    @Test
    void fieldsAreWrittenInTheProtocolsOrderWhateverOrderTheyAreGivenIn() {
        EventObject request =
                EventObject.object()
                        .ids("block_ids", new long[][] {{1, 2}, {}})
                        .number("scheduled", 3)
                        .text("id", "r1");
        Map<String, String> proofs = new LinkedHashMap<>();
        proofs.put("r2", "[[1,9,4]]");
        proofs.put("r1", "[[1,8,4]]");
        EventObject step =
                EventObject.event("step")
                        .byId("recurrent_boundary_blocks", proofs)
                        .texts("preempted", List.of("r3"))
                        .objects("new", List.of(request))
                        .number("step", 7);
        assertEquals(
                "{\"kind\":\"step\",\"step\":7,\"new\":[{\"id\":\"r1\",\"scheduled\":3,\"block_ids\":[[1,2],[]]}],"
                        + "\"preempted\":[\"r3\"],\"recurrent_boundary_blocks\":{\"r2\":[[1,9,4]],\"r1\":[[1,8,4]]}}",
                step.toString());
    }

    @Test
    void fieldsTheProtocolDoesNotNameFollowInTheOrderGiven() {
        assertEquals(
                "{\"policy\":\"full\",\"zeta\":1,\"alpha\":true}",
                EventObject.object().number("zeta", 1).text("policy", "full").flag("alpha", true).toString());
        assertEquals("{\"zeta\":1}", EventObject.object().number("zeta", 1).toString());
        assertEquals("{}", EventObject.object().toString());
    }

    @Test
    void aFieldGivenTwiceIsRefused() {
        EventObject event = EventObject.event("finished").text("id", "r1");
        assertThrows(IllegalArgumentException.class, () -> event.text("id", "r2"));
    }

    @Test
    void stringsAreQuotedWithTheirEscapes() {
        assertEquals("\"a\\\"b\\\\c\\nd\\te\\u0001f\u00e9\"", EventObject.quote("a\"b\\c\nd\te\u0001f\u00e9"));
    }

    @Test
    void aStepEventsLabelIsItsLineWithoutTheStepNumber() {
        String step = EventObject.event("step").number("step", 12).json("new", "[]").toString();
        assertEquals("{\"kind\":\"step\",\"new\":[]}", EventObject.withoutStep(step));
        String finished = EventObject.event("finished").number("step", 3).text("id", "r1").toString();
        assertEquals(finished, EventObject.withoutStep(finished)); // only a step event's number goes
    }
}
