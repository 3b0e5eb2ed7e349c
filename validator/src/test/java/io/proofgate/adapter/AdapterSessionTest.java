package io.proofgate.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import java.util.List;

/**
 * The reference's answers to messages that are not the protocol's: an error line in proofgate's words, then the end.
 */
class AdapterSessionTest {

    @Test
    void aMessageThatIsNotJsonIsAnsweredInProofgatesWordsWithTheInputEscaped() {
        AdapterSession session = new AdapterSession();
        assertEquals(
                List.of(
                        "{\"kind\":\"error\",\"message\":\"not a JSON object with a string \\\"kind\\\": invalid JSON:"
                                + " an unknown word \\\"nope\\\\u001bc\\\"\"}",
                        AdapterSession.END),
                session.answer("nope\u001bc"));
        assertEquals(
                List.of(
                        "{\"kind\":\"error\",\"message\":\"not a JSON object with a string \\\"kind\\\": no"
                                + " \\\"kind\\\"\"}",
                        AdapterSession.END),
                session.answer("{\"step\":1}"));
    }
}
