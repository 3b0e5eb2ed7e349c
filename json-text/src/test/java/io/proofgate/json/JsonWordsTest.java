package io.proofgate.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;

import io.proofgate.words.Outside;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Map;

/** The parser's complaints reach nobody in its words: each known one is rewritten, any other is "not well-formed". */
class JsonWordsTest {

    static void assertFitForATerminal(String message) {
        assertTrue(JsonWords.fitForATerminal(message), () -> "not fit for a terminal: " + Outside.quoted(message));
    }

    private static String wordsFor(String json) {
        JsonFactory factory = JsonFactory.builder().build();
        try (JsonParser parser = factory.createParser(json)) {
            parser.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            while (parser.nextToken() != null) {
                parser.getText(); // strings are decoded when read
            }
        } catch (JsonProcessingException e) {
            return JsonWords.of(e);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return fail("parsed: " + json);
    }

    @Test
    void theCasesOfTheIssueAreInTheProjectsWords() {
        Map<String, String> cases =
                Map.ofEntries(
                        Map.entry("{\"a\":nope}", "an unknown word \"nope\""),
                        Map.entry("{\"a\":nope\u001bc}", "an unknown word \"nope\\u001bc\""),
                        Map.entry("{\"a\":01}", "a number with a leading zero"),
                        Map.entry("{\"a\":[\u001bc]}", "a control character (code 27) outside a string"),
                        Map.entry("{\"a\":1 \"b\":2}", "expected a comma or '}' after a field, found \"\\\"\""),
                        Map.entry("[1 2]", "expected a comma or ']' after an element of a list, found \"2\""),
                        Map.entry("{a:1}", "expected a field name in double quotes, found \"a\""),
                        Map.entry("{\"a\" 1}", "expected a colon after a field name, found \"1\""),
                        Map.entry("{\"a\":1]", "found \"]\" where \"}\" must close the open object"),
                        Map.entry("{\"a\":\"\\q\"}", "an unknown escape \"\\\\q\" in a string"),
                        Map.entry("{\"a\":1,\"a\":2}", "the key \"a\" appears twice in an object"),
                        Map.entry(
                                "{\"a\\u001b[2J\":1,\"a\\u001b[2J\":2}",
                                "the key \"a\\u001b[2J\" appears twice in an object"),
                        Map.entry("{\"a\":-x}", "expected a digit after a minus sign, found \"x\""),
                        Map.entry("{\"a\":\"x", "the input ends inside a string"),
                        Map.entry("{\"a\":NaN}", "NaN is not a JSON value"));
        cases.forEach((json, words) -> assertEquals(words, wordsFor(json), Outside.quoted(json)));
    }

    @Test
    void theInputsOwnWordsMayBeAnythingWhenQuoted() {
        assertTrue(JsonWords.fitForATerminal("f:6:16: not valid JSON: an unknown word \"mismatchedinput\""));
        assertTrue(!JsonWords.fitForATerminal("f:6:16: Unrecognized token \"x\""));
        assertTrue(!JsonWords.fitForATerminal("f: \"a\\\"\" Unrecognized token"));
    }

    @Test
    void aComplaintNotKnownHereIsNotPassedOn() {
        assertEquals("not well-formed", JsonWords.words("Some new complaint 'x\u001b]0;t\u0007' of a later parser"));
        assertEquals("not well-formed", JsonWords.words(null));
    }

    @Test
    void noComplaintOnShortBrokenTextsHoldsTheParsersWordsOrAControlCharacter() {
        String alphabet = "{}[]\":,01-.eE+ntfaxq\\\u001b\u0000\u007f\u009b \n";
        java.util.Random random = new java.util.Random(27);
        for (int n = 0; n < 20_000; n++) {
            StringBuilder json = new StringBuilder();
            for (int k = random.nextInt(12); k >= 0; k--) {
                json.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            JsonFactory factory = JsonFactory.builder().build();
            try (JsonParser parser = factory.createParser(json.toString())) {
                parser.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
                while (parser.nextToken() != null) {
                    parser.getText();
                }
            } catch (JsonProcessingException e) {
                String words = JsonWords.of(e);
                assertFitForATerminal(words);
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        }
    }
}
