package io.proofgate.graph;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.proofgate.parse.ParseException;

import java.nio.charset.CharacterCodingException;

/**
 * Fuzzing of the dot state-graph reader (Jazzer), on bytes as TLC writes them: a graph whose edges all name its states,
 * or a located error, or bytes refused as not UTF-8; nothing else escapes. The ASCII fast path and the decoded path
 * must agree (StateGraphReaderTest), so both are reached.
 */
@org.junit.jupiter.api.parallel.Isolated("Jazzer instruments the whole JVM")
class StateGraphFuzzTest {

    @FuzzTest(maxDuration = "10s")
    void stateGraphReadsOrFailsLocated(byte[] bytes) {
        try {
            StateGraph graph = StateGraphReader.read("fuzz", bytes);
            for (Edge edge : graph.edges()) {
                assertTrue(graph.states().containsKey(edge.from()) && graph.states().containsKey(edge.to()));
            }
        } catch (ParseException e) {
            assertTrue(e.getMessage().matches("(?s)fuzz:\\d+:\\d+: .+"), e.getMessage());
        } catch (CharacterCodingException e) {
            // not UTF-8: refused, as reading the file refuses it
        }
    }
}
