package io.proofgate.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.proofgate.replay.EventReader;
import io.proofgate.replay.Replay;
import io.proofgate.replay.ReplayException;
import io.proofgate.replay.ReplayLine;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Fuzzing of the replay reader with the connector behind it (Jazzer). Any bytes either replay to the end, with the
 * summary as the last line, or stop with one located error and no summary; and on whatever events the bytes hold, the
 * connector agrees with its naive twin, verdict by verdict and counter by counter. The corpus under {@code
 * ReplayFuzzTestInputs/} (seed logs and every finding) runs in every build; {@code scripts/fuzz} fuzzes for longer.
 */
class ReplayFuzzTest {

    @FuzzTest(maxDuration = "10s")
    void anyInputGivesVerdictsOrALocatedError(byte[] input) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            Replay.run(new ByteArrayInputStream(input), "fuzz", out);
            String text = out.toString(StandardCharsets.UTF_8);
            assertTrue(
                    text.endsWith("\n")
                            && text.substring(text.lastIndexOf('\n', text.length() - 2) + 1)
                                    .startsWith("{\"kind\":\"summary\""),
                    text);
        } catch (ReplayException e) {
            assertTrue(e.getMessage().matches("fuzz:\\d+:\\d+: [^\\n]+"), e.getMessage());
            // fit for a terminal: nothing of the log raw, none of the parser's words (protocol §6)
            assertTrue(
                    io.proofgate.json.JsonWords.fitForATerminal(e.getMessage()),
                    io.proofgate.words.Outside.quoted(e.getMessage()));
            assertTrue(!out.toString(StandardCharsets.UTF_8).contains("\"summary\""), "a summary after an error");
        }
    }

    @FuzzTest(maxDuration = "10s")
    void theConnectorAgreesWithItsTwinOnAnyLog(byte[] input) throws IOException {
        try (EventReader reader = new EventReader(new ByteArrayInputStream(input), "fuzz")) {
            Topology topology = reader.readTopology();
            Connector connector = new Connector(topology);
            ReferenceRules reference = new ReferenceRules(topology);
            ReplayLine line;
            while ((line = reader.next()) != null) {
                List<Verdict> verdicts;
                try {
                    verdicts = connector.apply(line.event());
                } catch (InvalidEventException e) {
                    return; // an event no scheduler sends: replay reports it, located
                }
                assertEquals(
                        reference.apply(line.event()),
                        verdicts.stream().map(ReferenceRules::reduce).toList(),
                        "event on line " + line.line());
                assertEquals(
                        new Counters(
                                reference.plans,
                                reference.rejected,
                                reference.skippedQuorum,
                                reference.retiredFinished,
                                reference.ignoredHeld),
                        connector.counters());
            }
        } catch (ReplayException e) {
            // a located error; the other target checks its form
        }
    }
}
