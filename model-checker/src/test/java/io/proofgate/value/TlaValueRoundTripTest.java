package io.proofgate.value;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.proofgate.graph.StateGraph;
import io.proofgate.graph.StateGraphReader;
import io.proofgate.tlc.TlcOutputReader;
import io.proofgate.tlc.TlcRun;

import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;

/** Whatever the printer writes in TLC's syntax, each reader reads back as an equal value. */
class TlaValueRoundTripTest {

    @Test
    void printedValue_readsBackEqual() {
        qt().withExamples(2000)
                .forAll(TlaValues.values())
                .checkAssert(
                        v ->
                                assertEquals(
                                        v,
                                        TlaValueReader.value("printed", TlaValuePrinter.print(v)),
                                        TlaValuePrinter.print(v)));
    }

    @Test
    void printedState_readsBackEqual() {
        qt().withExamples(500)
                .forAll(TlaValues.states())
                .checkAssert(s -> assertEquals(s, TlaValueReader.state("printed", TlaValuePrinter.print(s))));
    }

    @Test
    void stateInATraceFrame_readsBackEqual() {
        qt().withExamples(300)
                .forAll(TlaValues.states())
                .checkAssert(
                        s -> {
                            String out =
                                    "@!@!@STARTMSG 2217:4 @!@!@\n1: <Initial predicate>\n"
                                            + TlaValuePrinter.print(s)
                                            + "\n\n@!@!@ENDMSG 2217 @!@!@\n";
                            TlcRun run = TlcRun.of(TlcOutputReader.read("frame", out));
                            assertEquals(s, run.trace().getFirst().state());
                        });
    }

    @Test
    void stateInADotLabel_readsBackEqual() {
        qt().withExamples(300)
                .forAll(TlaValues.states())
                .checkAssert(
                        s -> {
                            String dot =
                                    "strict digraph DiskGraph {\n-7 [label=\""
                                            + dotEscape(TlaValuePrinter.print(s))
                                            + "\",style = filled]\n-7 -> -7 [label=\"Next\"];\n}";
                            StateGraph graph = StateGraphReader.read("label", dot);
                            assertEquals(s, graph.state(-7));
                        });
    }

    /**
     * A graph whose states share lines (each variable takes one of a few values), as TLC's do: the reader parses a line
     * it has read before only once, and every state still reads back equal, in its variables' order.
     */
    @Test
    void statesSharingLinesInADotGraph_readBackEqual() {
        Gen<List<TlaState>> graphs =
                lists().of(TlaValues.values())
                        .ofSizeBetween(1, 4)
                        .flatMap(
                                pool ->
                                        lists().of(lists().of(integers().between(0, pool.size() - 1)).ofSize(3))
                                                .ofSizeBetween(1, 12)
                                                .map(
                                                        choices ->
                                                                choices.stream()
                                                                        .map(
                                                                                choice -> {
                                                                                    SequencedMap<String, TlaValue>
                                                                                            vars =
                                                                                                    new LinkedHashMap<>();
                                                                                    for (int i = 0;
                                                                                            i < choice.size();
                                                                                            i++) {
                                                                                        vars.put(
                                                                                                "v" + i,
                                                                                                pool.get(
                                                                                                        choice.get(i)));
                                                                                    }
                                                                                    return new TlaState(vars);
                                                                                })
                                                                        .toList()));
        qt().withExamples(300)
                .forAll(graphs)
                .checkAssert(
                        states -> {
                            StringBuilder dot = new StringBuilder("strict digraph DiskGraph {\n");
                            for (int i = 0; i < states.size(); i++) {
                                dot.append(-i - 1)
                                        .append(" [label=\"")
                                        .append(dotEscape(TlaValuePrinter.print(states.get(i))))
                                        .append(i == 0 ? "\",style = filled]\n" : "\"]\n");
                            }
                            StateGraph graph = StateGraphReader.read("shared", dot.append("}").toString());
                            for (int i = 0; i < states.size(); i++) {
                                TlaState read = graph.state(-i - 1);
                                assertEquals(states.get(i), read);
                                assertEquals(
                                        List.copyOf(states.get(i).vars().keySet()), List.copyOf(read.vars().keySet()));
                            }
                        });
    }

    /** What TLC's dot writer does to a state's printed form. */
    private static String dotEscape(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
