package io.proofgate.value;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;

import io.proofgate.graph.StateGraph;
import io.proofgate.graph.StateGraphReader;
import io.proofgate.tlc.TlcOutputReader;
import io.proofgate.tlc.TlcRun;
import org.junit.jupiter.api.Test;

/** Whatever the printer writes in TLC's syntax, each reader reads back as an equal value. */
class TlaValueRoundTripTest {

    @Test
    void printedValue_readsBackEqual() {
        qt().withExamples(2000).forAll(TlaValues.values()).checkAssert(v ->
                assertEquals(v, TlaValueReader.value("printed", TlaValuePrinter.print(v)), TlaValuePrinter.print(v)));
    }

    @Test
    void printedState_readsBackEqual() {
        qt().withExamples(500).forAll(TlaValues.states()).checkAssert(s ->
                assertEquals(s, TlaValueReader.state("printed", TlaValuePrinter.print(s))));
    }

    @Test
    void stateInATraceFrame_readsBackEqual() {
        qt().withExamples(300).forAll(TlaValues.states()).checkAssert(s -> {
            String out = "@!@!@STARTMSG 2217:4 @!@!@\n1: <Initial predicate>\n" + TlaValuePrinter.print(s)
                    + "\n\n@!@!@ENDMSG 2217 @!@!@\n";
            TlcRun run = TlcRun.of(TlcOutputReader.read("frame", out));
            assertEquals(s, run.trace().getFirst().state());
        });
    }

    @Test
    void stateInADotLabel_readsBackEqual() {
        qt().withExamples(300).forAll(TlaValues.states()).checkAssert(s -> {
            String dot = "strict digraph DiskGraph {\n-7 [label=\"" + dotEscape(TlaValuePrinter.print(s))
                    + "\",style = filled]\n-7 -> -7 [label=\"Next\"];\n}";
            StateGraph graph = StateGraphReader.read("label", dot);
            assertEquals(s, graph.state(-7));
        });
    }

    /** What TLC's dot writer does to a state's printed form. */
    private static String dotEscape(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
