package io.proofgate.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Where each key and value of a JSON text starts, so that a file that is valid JSON but says something wrong (a
 * reviewer's file, a shard's header) is refused at the line and column of what is wrong. Jackson's tree keeps no
 * locations, so one more streaming pass over the same text records them by JSON pointer, and the tree's objects and
 * arrays (never shared, unlike its small values) are mapped to their pointers.
 */
public final class JsonPlaces {

    private final Map<String, JsonLocation> keys = new HashMap<>();
    private final Map<String, JsonLocation> values = new HashMap<>();
    private final Map<JsonNode, String> pointers = new IdentityHashMap<>();

    private JsonPlaces() {}

    /** The places of {@code text}, whose tree is {@code root}; the text is valid JSON (the tree was read from it). */
    public static JsonPlaces of(String text, JsonNode root) {
        JsonPlaces places = new JsonPlaces();
        try (JsonParser parser = new JsonFactory().createParser(text)) {
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                String pointer = parser.getParsingContext().pathAsPointer().toString();
                if (token == JsonToken.FIELD_NAME) {
                    places.keys.put(pointer, parser.currentTokenLocation());
                } else if (token != JsonToken.END_OBJECT && token != JsonToken.END_ARRAY) {
                    places.values.putIfAbsent(pointer, parser.currentTokenLocation());
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("the text was parsed once already", e);
        }
        places.map(root, "");
        return places;
    }

    private void map(JsonNode node, String pointer) {
        if (!node.isContainerNode()) {
            return;
        }
        pointers.put(node, pointer);
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                map(node.get(i), pointer + "/" + i);
            }
        } else {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                map(field.getValue(), child(pointer, field.getKey()));
            }
        }
    }

    /** "LINE:COLUMN" where {@code container} (an object or a list of the tree) starts. */
    public String of(JsonNode container) {
        return shown(values.get(pointers.getOrDefault(container, "")));
    }

    /** "LINE:COLUMN" of the value at {@code key} of {@code object}; of the object where it has none. */
    public String value(JsonNode object, String key) {
        JsonLocation at = values.get(child(pointers.getOrDefault(object, ""), key));
        return at == null ? of(object) : shown(at);
    }

    /** "LINE:COLUMN" of the name {@code key} in {@code object}; of the object where it has none. */
    public String key(JsonNode object, String key) {
        JsonLocation at = keys.get(child(pointers.getOrDefault(object, ""), key));
        return at == null ? of(object) : shown(at);
    }

    private static String child(String pointer, String key) {
        return pointer + "/" + key.replace("~", "~0").replace("/", "~1");
    }

    private static String shown(JsonLocation at) {
        return at == null ? "1:1" : at.getLineNr() + ":" + at.getColumnNr();
    }
}
