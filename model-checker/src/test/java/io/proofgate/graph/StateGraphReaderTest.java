package io.proofgate.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.proofgate.parse.ParseException;
import io.proofgate.tlc.Samples;
import io.proofgate.value.TlaValue;
import io.proofgate.value.TlaValueReader;

import org.junit.jupiter.api.Test;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

class StateGraphReaderTest {

    private static TlaValue v(String text) {
        return TlaValueReader.value("expected", text);
    }

    @Test
    void dumpDot_holdsEveryDistinctStateAndTransition() {
        StateGraph graph = StateGraphReader.read("graph.dot", Samples.text("graph.dot"));

        // graph_ok.out, from the same run: 13 distinct states and 31 states generated, i.e. the
        // initial state plus 30 successors, each one edge (no two actions share a source and target).
        assertEquals(13, graph.states().size());
        assertEquals(1, graph.initialStates().size());
        assertEquals(30, graph.edges().size());
        Map<String, Long> byAction =
                graph.edges().stream()
                        .collect(
                                Collectors.groupingBy(
                                        e -> e.action().orElseThrow(), TreeMap::new, Collectors.counting()));
        assertEquals(Map.of("Give", 12L, "Take", 18L), byAction);

        long init = graph.initialStates().getFirst();
        var initState = graph.state(init);
        assertEquals(List.of("pool", "last", "held"), List.copyOf(initState.vars().keySet()));
        assertEquals(new TlaValue.TlaInt(2), initState.get("pool").orElseThrow());
        assertEquals(v("[who |-> \"none\", msg |-> \"start\\tline\\n\"]"), initState.get("last").orElseThrow());
        assertEquals(
                "start\tline\n",
                ((TlaValue.TlaString)
                                ((TlaValue.TlaRecord) initState.get("last").orElseThrow()).get("msg").orElseThrow())
                        .value());
        assertEquals(v("(a :> 0 @@ b :> 0)"), initState.get("held").orElseThrow());
        assertEquals(
                List.of("Take", "Take"), graph.outgoing(init).stream().map(e -> e.action().orElseThrow()).toList());
        assertEquals(
                Optional.of(v("[who |-> a, msg |-> \"took\"]")),
                graph.state(graph.outgoing(init).getFirst().to()).get("last"));
    }

    /**
     * TLC writes ASCII, which is read from the bytes as they are; other UTF-8 is decoded first and must read the same,
     * and bytes that are not UTF-8 are refused, not guessed at.
     */
    @Test
    void utf8Bytes_readAsTheirText_andOtherBytesAreRefused() throws Exception {
        for (String s : List.of("plain", "\u00e9\u2192\u03bb", "\ud83d\ude00 astral")) {
            String dot =
                    """
                    strict digraph DiskGraph {
                    -1 [label="/\\\\ s = \\"%s\\"\\n/\\\\ n = 1",style = filled]
                    -1 -> -2 [label="Next",color="black",fontcolor="black"];
                    -2 [label="/\\\\ s = \\"%s\\"\\n/\\\\ n = 2"];
                    }
                    """
                            .formatted(s, s);
            StateGraph fromBytes = StateGraphReader.read("utf8.dot", dot.getBytes(StandardCharsets.UTF_8));
            StateGraph fromText = StateGraphReader.read("utf8.dot", dot);
            assertEquals(new TlaValue.TlaString(s), fromBytes.state(-2).get("s").orElseThrow(), s);
            assertEquals(fromText.states(), fromBytes.states(), s);
            assertEquals(fromText.edges(), fromBytes.edges(), s);
        }
        byte[] notUtf8 =
                "strict digraph DiskGraph { -1 [label=\"/\\\\ s = \\\"\u00e9\\\"\"] }"
                        .getBytes(StandardCharsets.ISO_8859_1);
        assertThrows(CharacterCodingException.class, () -> StateGraphReader.read("latin1.dot", notUtf8));
    }

    /**
     * The two ways through the reader give the same graphs and the same errors: TLC's ASCII read from bytes, and any
     * other text read from its tokens (a comment with one non-ASCII character, at the end so that no position moves,
     * sends a file that way).
     */
    @Test
    void asciiBytesAndTokenText_readTheSame() throws Exception {
        for (String sample : List.of("graph.dot", "graph_colorize.dot")) {
            String ascii = Samples.text(sample);
            StateGraph fromBytes = StateGraphReader.read(sample, ascii.getBytes(StandardCharsets.US_ASCII));
            StateGraph fromTokens =
                    StateGraphReader.read(sample, (ascii + "\n// \u00e9\n").getBytes(StandardCharsets.UTF_8));
            assertEquals(fromTokens.states(), fromBytes.states(), sample);
            assertEquals(fromTokens.edges(), fromBytes.edges(), sample);
            assertEquals(fromTokens.initialStates(), fromBytes.initialStates(), sample);
        }
        for (String bad :
                List.of(
                        "strict digraph G {\n1 [label=\"/\\\\ x = 1\\n/\\\\ y = [a |-> ]\",style = filled]\n}",
                        "strict digraph G {\n1 [label=\"/\\\\ x = 1\\n/\\\\ x = 2\"];\n}",
                        "strict digraph G {\n"
                                + "1 [label=\"x = 1\"];\n"
                                + "1 -> 2 [label=\"Inc\",color=\"black\",fontcolor=\"black\"];\n"
                                + "}",
                        "strict digraph G {\n1 [label=\"x = 1\"];\n1 [label=\"x = 1\"];\n}",
                        "strict digraph G {\n99999999999999999999 [label=\"x = 1\"];\n}",
                        "strict digraph G {\n1 [label=\"x = 1\"] ->\n}")) {
            ParseException fromBytes =
                    assertThrows(
                            ParseException.class,
                            () -> StateGraphReader.read("bad.dot", bad.getBytes(StandardCharsets.US_ASCII)),
                            bad);
            ParseException fromTokens =
                    assertThrows(
                            ParseException.class,
                            () ->
                                    StateGraphReader.read(
                                            "bad.dot", (bad + "\n// \u00e9").getBytes(StandardCharsets.UTF_8)),
                            bad);
            assertEquals(fromTokens.getMessage(), fromBytes.getMessage(), bad);
        }
    }

    /**
     * The ASCII check reads eight bytes a step and the rest one by one: a non-ASCII character at any position, in a
     * file of any length, sends the file the decoding way, never to be read as ASCII.
     */
    @Test
    void nonAsciiCharacter_anywhere_isDecoded() throws Exception {
        for (int at = 0; at < 16; at++) {
            for (int pad = 0; pad < 8; pad++) {
                String text = "a".repeat(at) + "\u00e9" + "b".repeat(15 - at);
                String dot =
                        "strict digraph G {\n1 [label=\"/\\\\ s = \\\""
                                + text
                                + "\\\"\\n/\\\\ n = 1\",style = filled]\n}"
                                + " ".repeat(pad);
                StateGraph graph = StateGraphReader.read("utf8.dot", dot.getBytes(StandardCharsets.UTF_8));
                assertEquals(new TlaValue.TlaString(text), graph.state(1).get("s").orElseThrow(), at + "/" + pad);
            }
        }
        // and at the very end of a file, in the tail the eight-byte steps leave
        for (int pad = 0; pad < 8; pad++) {
            String dot = "strict digraph G {\n1 [label=\"x = 1\",style = filled]\n}" + " ".repeat(pad) + "\n// \u00e9";
            assertEquals(
                    new TlaValue.TlaInt(1),
                    StateGraphReader.read("tail.dot", dot.getBytes(StandardCharsets.UTF_8))
                            .state(1)
                            .get("x")
                            .orElseThrow());
        }
    }

    @Test
    void colorizedDump_skipsTheLegend() {
        StateGraph plain = StateGraphReader.read("graph.dot", Samples.text("graph.dot"));
        StateGraph colored = StateGraphReader.read("graph_colorize.dot", Samples.text("graph_colorize.dot"));

        assertEquals(plain.states().size(), colored.states().size());
        assertEquals(plain.edges().size(), colored.edges().size());
        // Fingerprints differ between the two runs; the states themselves do not.
        assertEquals(
                List.copyOf(plain.states().values()).stream().map(Object::toString).sorted().toList(),
                List.copyOf(colored.states().values()).stream().map(Object::toString).sorted().toList());
    }

    @Test
    void badLabel_pointsAtTheLabel() {
        String dot =
                """
                strict digraph DiskGraph {
                subgraph cluster_graph {
                1 [label="/\\\\ x = 1\\n/\\\\ y = [a |-> ]",style = filled]
                }
                }\
                """;
        ParseException e = assertThrows(ParseException.class, () -> StateGraphReader.read("bad.dot", dot));
        assertEquals(3, e.line());
        assertEquals(10, e.column());
        assertEquals(
                "bad.dot:3:10: in state label (its line 2, column 15): expected a TLA+ value after \"|->\", found"
                        + " \"]\"",
                e.getMessage());
    }

    /** A statement cut short by a syntax error is not read: the syntax error is the one reported. */
    @Test
    void syntaxErrorInAnEdge_isReportedAsIs() {
        String dot =
                """
                strict digraph DiskGraph {
                1 [label="x = 1",style = filled]
                1 -> [label="Inc"];
                }\
                """;
        ParseException e = assertThrows(ParseException.class, () -> StateGraphReader.read("cut.dot", dot));
        assertEquals("cut.dot:3:6: expected NUMERAL, STRING or IDENT after \"->\", found \"[\"", e.getMessage());
    }

    /** A syntax error anywhere wins over an error in a statement, even one before it. */
    @Test
    void badLabelThenSyntaxError_theSyntaxErrorWins() {
        String dot =
                """
                strict digraph DiskGraph {
                1 [label="x = ",style = filled]
                1 -> 1 [label="Inc"]
                2 -> ;
                }\
                """;
        ParseException e = assertThrows(ParseException.class, () -> StateGraphReader.read("both.dot", dot));
        assertEquals(4, e.line());
    }

    @Test
    void edgeToUnlabelledState_isReported() {
        String dot =
                """
                strict digraph DiskGraph {
                1 [label="x = 1",style = filled]
                1 -> 2 [label="Inc"];
                }\
                """;
        ParseException e = assertThrows(ParseException.class, () -> StateGraphReader.read("dangling.dot", dot));
        assertEquals("dangling.dot:3:6: state 2 has no label anywhere in the file", e.getMessage());
    }

    /** TLC's one-line edges are one token (TLC_EDGE); any other spelling takes the general rule, to the same graph. */
    @Test
    void tlcEdgeLine_readsLikeTheGeneralEdgeRule() {
        String states =
                """
                strict digraph DiskGraph {
                1 [label="x = 1",style = filled]
                -2 [label="x = 2"]
                """;
        StateGraph oneToken =
                StateGraphReader.read(
                        "tlc.dot",
                        states
                                + """
                                1 -> -2 [label="Inc",color="black",fontcolor="black"];
                                -2 -> 1 [label="De\\"c",color="2",fontcolor="2"];
                                }\
                                """);
        StateGraph general =
                StateGraphReader.read(
                        "general.dot",
                        states
                                + """
                                1->-2 [ label = "Inc" , color="black" fontcolor="black" ]
                                -2 -> 1 [label="De\\"c";color="2",fontcolor="2"];
                                }\
                                """);
        assertEquals(general.edges(), oneToken.edges());
        assertEquals(
                List.of("Inc", "De\"c"), oneToken.edges().stream().map(edge -> edge.action().orElseThrow()).toList());
        assertEquals(general.states(), oneToken.states());
    }

    /**
     * A character beyond the BMP (two chars, one code point) in the file: one-token edges are sliced by code points, as
     * ANTLR counts.
     */
    @Test
    void tlcEdgeLine_withSupplementaryCharacters_isSlicedByCodePoints() {
        String states =
                """
                strict digraph DiskGraph {
                // \uD83D\uDE00 makes the reader take its code point path
                1 [label="x = 1",style = filled]
                2 [label="x = 2"]
                """;
        StateGraph graph =
                StateGraphReader.read(
                        "astral.dot",
                        states
                                + """
                                1 -> 2 [label="In\uD83D\uDE00c",color="black",fontcolor="black"];
                                }\
                                """);
        assertEquals(List.of(new Edge(1, 2, Optional.of("In\uD83D\uDE00c"))), graph.edges());
        ParseException e =
                assertThrows(
                        ParseException.class,
                        () ->
                                StateGraphReader.read(
                                        "astral.dot",
                                        states
                                                + """
                                                2 -> 3 [label="\uD83D\uDE00",color="black",fontcolor="black"];
                                                }\
                                                """));
        assertEquals("astral.dot:5:6: state 3 has no label anywhere in the file", e.getMessage());
    }

    /**
     * One-token edges are read from the dot text without tokens: the first label wins, ends beyond the fast integer
     * path (Long.MIN_VALUE, too many digits) take the token path, and errors point where the general rule points.
     */
    @Test
    void tlcEdgeLine_oddEndsAndErrors_readAsTheGeneralRule() {
        String states =
                """
                strict digraph DiskGraph {
                1 [label="x = 1",style = filled]
                -9223372036854775808 [label="x = 2"]
                """;
        StateGraph graph =
                StateGraphReader.read(
                        "ends.dot",
                        states
                                + """
                                1 -> -9223372036854775808 [color="black",label="Inc",label="Other"];
                                -9223372036854775808 -> 1 [color="black"];
                                }\
                                """);
        assertEquals(
                List.of(new Edge(1, Long.MIN_VALUE, Optional.of("Inc")), new Edge(Long.MIN_VALUE, 1, Optional.empty())),
                graph.edges());
        ParseException dangling =
                assertThrows(
                        ParseException.class,
                        () ->
                                StateGraphReader.read(
                                        "ends.dot",
                                        states
                                                + """
                                                1 -> 1 [label="Inc",color="black",fontcolor="black"];
                                                1 -> 3 [label="Inc",color="black",fontcolor="black"];
                                                }\
                                                """));
        assertEquals("ends.dot:5:6: state 3 has no label anywhere in the file", dangling.getMessage());
        ParseException tooLong =
                assertThrows(
                        ParseException.class,
                        () ->
                                StateGraphReader.read(
                                        "ends.dot",
                                        states
                                                + """
                                                1 -> 99999999999999999999 [label="Inc",color="black",fontcolor="black"];
                                                }\
                                                """));
        assertEquals(
                "ends.dot:4:6: expected a state fingerprint (a 64-bit integer), found 99999999999999999999",
                tooLong.getMessage());
    }
}
