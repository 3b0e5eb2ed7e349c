package io.proofgate.namespace;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import io.proofgate.words.ReasonFacts;

import java.io.IOException;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** A validator's replay output, read as the words a namespace answer is made of. */
final class AnswerWords {

    private static final JsonFactory JSON = new JsonFactory();

    private AnswerWords() {}

    /**
     * Replay's verdict lines as words by request id, without ids or steps ("plan span=S blocks=B recurrent=R"; several
     * joined by "; "), or null when the validator refused the log.
     */
    static Map<String, String> wordsById(String output) {
        Map<String, String> words = new LinkedHashMap<>();
        for (String line : output.lines().toList()) {
            if (line.startsWith("error: ")) {
                return null;
            }
            if (line.isBlank()) {
                continue;
            }
            String[] verdict = verdictWords(line);
            if (verdict != null) {
                words.merge(verdict[0], verdict[1], (x, y) -> x + "; " + y);
            }
        }
        return words;
    }

    /** One verdict line's request id and words, or null for the summary. */
    private static String[] verdictWords(String line) {
        SortedMap<String, String> fields = new TreeMap<>();
        try (JsonParser in = JSON.createParser(line)) {
            in.nextToken();
            while (in.nextToken() == JsonToken.FIELD_NAME) {
                String name = in.currentName();
                JsonToken value = in.nextToken();
                if (value == JsonToken.START_ARRAY || value == JsonToken.START_OBJECT) {
                    StringWriter raw = new StringWriter();
                    try (var copy = JSON.createGenerator(raw)) {
                        copy.copyCurrentStructure(in);
                    }
                    fields.put(name, raw.toString());
                } else {
                    fields.put(name, in.getText());
                }
            }
        } catch (IOException e) {
            return new String[] {"", "a line that is not JSON: " + line};
        }
        String words =
                switch (fields.getOrDefault("kind", "")) {
                    case "plan" ->
                            "plan span="
                                    + fields.get("span")
                                    + " blocks="
                                    + fields.get("blocks_by_group")
                                    + " recurrent="
                                    + fields.get("recurrent");
                    case "rejected" ->
                            "rejected code="
                                    + fields.get("code")
                                    + ReasonFacts.words(fields.getOrDefault("reason", ""));
                    case "retired" -> "retired cause=" + fields.get("cause");
                    case "summary" -> null;
                    default -> "a line of unknown kind: " + line;
                };
        return words == null ? null : new String[] {fields.getOrDefault("id", ""), words};
    }
}
