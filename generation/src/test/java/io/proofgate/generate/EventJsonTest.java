package io.proofgate.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.value.TlaValue;
import io.proofgate.value.TlaValue.Field;
import io.proofgate.value.TlaValue.TlaInt;
import io.proofgate.value.TlaValue.TlaModelValue;
import io.proofgate.value.TlaValue.TlaRecord;
import io.proofgate.value.TlaValue.TlaSeq;
import io.proofgate.value.TlaValue.TlaString;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

/** Replay lines from event records: field order, and a step number put into a label without writing the event again. */
class EventJsonTest {

    private static TlaRecord record(Object... nameValue) {
        List<Field> fields = new java.util.ArrayList<>();
        for (int i = 0; i < nameValue.length; i += 2) {
            fields.add(new Field((String) nameValue[i], (TlaValue) nameValue[i + 1]));
        }
        return new TlaRecord(fields);
    }

    private static TlaString s(String text) {
        return new TlaString(text);
    }

    @Test
    void fieldsAreWrittenInTheProtocolsOrderThenTheirOwn() {
        TlaRecord request =
                record("zz", new TlaInt(1), "scheduled", new TlaInt(5), "id", s("r1"), "computed", new TlaInt(0));
        TlaRecord step =
                record(
                        "recurrent_boundary_blocks",
                        new TlaModelValue("Absent"),
                        "new",
                        new TlaSeq(List.of(request)),
                        "cached",
                        new TlaSeq(List.of()),
                        "kind",
                        s("step"));
        assertEquals(
                "{\"kind\":\"step\",\"step\":4,\"new\":[{\"id\":\"r1\",\"computed\":0,\"scheduled\":5,\"zz\":1}]}",
                EventJson.line(step, 4));
        assertEquals(
                "{\"kind\":\"step\",\"new\":[{\"id\":\"r1\",\"computed\":0,\"scheduled\":5,\"zz\":1}]}",
                EventJson.line(step, 0));
        assertThrows(
                IllegalArgumentException.class,
                () -> EventJson.line(record("kind", s("held"), "zz", new TlaInt(1)), 0),
                "an event field with no place in a replay line");
    }

    @Test
    void aStepNumberPutIntoALabelIsTheLineWrittenWithIt() {
        List<TlaRecord> events =
                List.of(
                        record("kind", s("step")), // every list empty, no evidence: the kind alone
                        record("kind", s("step"), "preempted", new TlaSeq(List.of(s("r1")))),
                        record(
                                "cached",
                                new TlaSeq(List.of(record("id", s("r2"), "resumed", new TlaValue.TlaBool(true)))),
                                "kind",
                                s("step"),
                                "recurrent_boundary_blocks",
                                new TlaModelValue("JsonNull")),
                        record("kind", s("held"), "rank", new TlaInt(0), "digest", s("d1")),
                        record("kind", s("finished"), "id", s("r1")),
                        record("kind", s("topology"), "schema", s("proofgate-events/v1"), "tp_degree", new TlaInt(1)),
                        record("kind", s("stepping"), "id", s("r1"))); // a kind that only starts like "step"
        for (TlaRecord event : events) {
            String label = EventJson.line(event, 0);
            boolean stepEvent = event.get("kind").orElseThrow().equals(s("step"));
            for (long step : new long[] {1, 7, 1234567890123L}) {
                // as the generator writes a path: only a step event gets a number
                assertEquals(
                        Optional.of(EventJson.line(event, stepEvent ? step : 0)),
                        EventJson.withStep(label, step),
                        label);
            }
        }
        assertTrue(EventJson.isStep("{\"kind\":\"step\"}"));
        assertFalse(EventJson.isStep("{\"kind\":\"stepping\",\"id\":\"r1\"}"));
    }

    @Test
    void aStepEventWithASchemaOrAStepOfItsOwnIsLeftToBeWrittenAgain() {
        TlaRecord event = record("kind", s("step"), "schema", s("proofgate-events/v1"));
        assertEquals(
                Optional.empty(),
                EventJson.withStep(EventJson.line(event, 0), 3),
                "its number goes after the schema, which a label does not mark");
        assertEquals("{\"kind\":\"step\",\"schema\":\"proofgate-events/v1\",\"step\":3}", EventJson.line(event, 3));
        TlaRecord numbered =
                record("kind", s("step"), "step", new TlaInt(9), "preempted", new TlaSeq(List.of(s("r1"))));
        assertEquals(
                Optional.empty(),
                EventJson.withStep(EventJson.line(numbered, 0), 3),
                "the number replaces the event's own, which a label keeps");
        assertEquals("{\"kind\":\"step\",\"step\":3,\"preempted\":[\"r1\"]}", EventJson.line(numbered, 3));
    }
}
