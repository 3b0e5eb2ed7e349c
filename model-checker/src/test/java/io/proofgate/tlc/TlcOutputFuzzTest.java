package io.proofgate.tlc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.proofgate.parse.ParseException;

/**
 * Fuzzing of the reader of TLC's {@code -tool} output (Jazzer): any text is read into frames and a run, or fails with a
 * located error; nothing else escapes (a verdict is never read from output that did not parse).
 */
@org.junit.jupiter.api.parallel.Isolated("Jazzer instruments the whole JVM")
class TlcOutputFuzzTest {

    @FuzzTest(maxDuration = "10s")
    void tlcOutputReadsOrFailsLocated(byte[] bytes) {
        String text = new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
        try {
            TlcRun.of(TlcOutputReader.read("fuzz", text));
        } catch (ParseException e) {
            assertTrue(e.getMessage().matches("(?s)fuzz:\\d+:\\d+: .+"), e.getMessage());
        }
    }
}
