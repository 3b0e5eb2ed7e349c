package io.proofgate.value;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.proofgate.parse.ParseException;

/**
 * Fuzzing of the TLA+ value reader (Jazzer): any text is either a value that, printed and read again, is the same
 * value, or a located error; nothing else escapes.
 */
@org.junit.jupiter.api.parallel.Isolated("Jazzer instruments the whole JVM")
class ValueFuzzTest {

    @FuzzTest(maxDuration = "10s")
    void anyTextIsAValueThatPrintsBackOrALocatedError(byte[] bytes) {
        String text = new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
        TlaValue value;
        try {
            value = TlaValueReader.value("fuzz", text);
        } catch (ParseException e) {
            assertTrue(e.getMessage().matches("(?s)fuzz:\\d+:\\d+: .+"), e.getMessage());
            return;
        }
        String printed = TlaValuePrinter.print(value);
        assertEquals(value, TlaValueReader.value("printed", printed), printed);
    }
}
