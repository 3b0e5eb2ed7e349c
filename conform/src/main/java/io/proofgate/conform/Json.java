package io.proofgate.conform;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** JSON helpers of the kit: one strict reader, string quoting. */
public final class Json {

    /** A key twice in an object is an error: last-wins would silently pick one of two answers. */
    static final ObjectMapper READER = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private Json() {}

    public static String quote(String text) {
        return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(text)) + "\"";
    }

    /** A line of outside text for a message: quoted, escaped, at most 200 characters. */
    public static String excerpt(String line) {
        String shown = line.length() > 200 ? line.substring(0, 200) + "..." : line;
        StringBuilder out = new StringBuilder("\"");
        shown.codePoints().forEach(c -> {
            if (c == '"' || c == '\\') {
                out.append('\\').appendCodePoint(c);
            } else if (c < 0x20 || c == 0x7f || Character.getType(c) == Character.FORMAT
                    || Character.getType(c) == Character.UNASSIGNED) {
                out.append(String.format("\\u%04x", c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.append('"').toString();
    }

    static JsonNode tree(String line) throws com.fasterxml.jackson.core.JsonProcessingException {
        return READER.readTree(line);
    }
}
