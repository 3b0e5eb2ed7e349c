package io.proofgate.tlc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.proofgate.parse.ParseException;
import io.proofgate.value.TlaValueReader;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulationTraceReaderTest {

    @Test
    void simulateFile_readsStatesInOrder() {
        SimulationTrace trace = SimulationTraceReader.read("sim/trace_0_0", Samples.text("sim/trace_0_0"));

        assertEquals("sim/trace_0_0", trace.module());
        assertEquals(4, trace.states().size());
        assertEquals(List.of("2", "1", "0", "1"), trace.states().stream()
                .map(s -> s.get("pool").orElseThrow().toString()).toList().stream()
                .map(s -> s.replaceAll("\\D", "")).toList());
        assertEquals(TlaValueReader.value("t", "(a :> 2 @@ b :> 0)"), trace.states().get(2).get("held").orElseThrow());
        assertEquals(TlaValueReader.value("t", "[who |-> a, msg |-> \"gave\"]"),
                trace.states().get(3).get("last").orElseThrow());
    }

    @Test
    void outOfOrderState_isReported() {
        String text = """
                ---- MODULE t ----
                STATE_1 == x = 1
                STATE_3 == x = 2
                ====
                """;
        ParseException e = assertThrows(ParseException.class, () -> SimulationTraceReader.read("t.tla", text));
        assertEquals("t.tla:3:0: expected STATE_2, found STATE_3", e.getMessage());
    }

    @Test
    void missingEnd_isReported() {
        String text = "---- MODULE t ----\nSTATE_1 == x = 1\n";
        ParseException e = assertThrows(ParseException.class, () -> SimulationTraceReader.read("t.tla", text));
        assertEquals(3, e.line());
        assertEquals(0, e.column());
    }
}
