package io.proofgate.conform;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** JSON helpers of the kit: one strict reader; strings are quoted by {@link io.proofgate.words.EventObject#quote}. */
public final class Json {

    /** A key twice in an object is an error: last-wins would silently pick one of two answers. */
    static final ObjectMapper READER =
            new ObjectMapper()
                    .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
                    .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
                    .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private Json() {}

    /** A line of outside text for a message: quoted, escaped, at most 200 characters. */
    public static String excerpt(String line) {
        return io.proofgate.words.Outside.excerpt(line); // the one escape of outside text (validator)
    }

    static JsonNode tree(String line) throws com.fasterxml.jackson.core.JsonProcessingException {
        return READER.readTree(line);
    }

    /** A tree as one compact line, in its fields' order. */
    static String write(JsonNode node) throws com.fasterxml.jackson.core.JsonProcessingException {
        return READER.writeValueAsString(node);
    }
}
