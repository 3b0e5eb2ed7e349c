package io.proofgate.conform;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.proofgate.json.JsonWords;
import io.proofgate.words.Capability;
import io.proofgate.words.Outside;

import java.nio.charset.StandardCharsets;
import java.util.EnumSet;

/**
 * Fuzzing of the reader of an adapter's answers (Jazzer): the adapter is a program under test, so any line it prints is
 * a well-formed answer whose words in a report hold no control character, or a refusal fit for a terminal (no control
 * character, none of the JSON parser's words); nothing else escapes.
 */
@org.junit.jupiter.api.parallel.Isolated("Jazzer instruments the whole JVM")
class AnswerReaderFuzzTest {

    @FuzzTest(maxDuration = "10s")
    void anyAdapterLineReadsOrIsRefusedInWords(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        try {
            Line line = AnswerReader.read(text);
            if (line instanceof Line.Compared compared) {
                for (String shown : compared.words(EnumSet.allOf(Capability.class)).split("\n", -1)) {
                    assertTrue(Outside.isPlain(shown), Outside.quoted(shown));
                }
            }
        } catch (AdapterException e) {
            assertTrue(JsonWords.fitForATerminal(e.getMessage()), Outside.quoted(e.getMessage()));
        }
    }
}
