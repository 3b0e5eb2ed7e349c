package io.proofgate.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;

/** Where keys and values start, by line and column, through lists, nested objects and keys JSON pointers escape. */
class JsonPlacesTest {

    private static final String TEXT =
            """
            {"a": [1,
                   {"b/c": {"~d": "x"}, "e": [[], "y"]}],
             "f": null}\
            """;

    @Test
    void placesAreTheStartsOfKeysAndValues() throws Exception {
        JsonNode root = new ObjectMapper().readTree(TEXT);
        JsonPlaces places = JsonPlaces.of(TEXT, root);
        assertEquals("1:1", places.of(root));
        assertEquals("1:2", places.key(root, "a"));
        assertEquals("1:7", places.value(root, "a"));
        assertEquals("1:8", places.value(root.get("a"), "0"));
        JsonNode inner = root.get("a").get(1);
        assertEquals("2:8", places.of(inner));
        assertEquals("2:9", places.key(inner, "b/c"));
        assertEquals("2:16", places.value(inner, "b/c"));
        assertEquals("2:17", places.key(inner.get("b/c"), "~d"));
        assertEquals("2:23", places.value(inner.get("b/c"), "~d"));
        assertEquals("2:34", places.value(inner, "e"));
        assertEquals("2:35", places.of(inner.get("e").get(0)));
        assertEquals("2:39", places.value(inner.get("e"), "1"));
        assertEquals("3:7", places.value(root, "f"));
        // a key the object does not have: the object itself
        assertEquals("2:8", places.value(inner, "g"));
        assertEquals("2:8", places.key(inner, "g"));
    }
}
