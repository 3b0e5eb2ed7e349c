package io.proofgate.check;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.proofgate.json.JsonPlaces;
import io.proofgate.json.JsonWords;
import io.proofgate.words.Outside;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Set;
import java.util.function.Function;

/**
 * A reviewers' file (mutation judgements, named mistakes, accepted audit findings), read strictly: UTF-8, one JSON
 * object, a key at most once, only known keys. Every error names the file, the line and the column: where JSON itself
 * is broken, or where the key or value that is wrong starts ({@link JsonPlaces}). Each caller's errors are of its own
 * exception type, made by {@code error} from the message.
 */
public final class StrictJson<E extends Exception> {

    private final String file;
    private final JsonNode root;
    private final JsonPlaces places;
    private final Function<String, E> error;

    private StrictJson(String file, JsonNode root, JsonPlaces places, Function<String, E> error) {
        this.file = file;
        this.root = root;
        this.places = places;
        this.error = error;
    }

    /**
     * The file, whose top-level object has only the keys {@code allowed} and {@code "schema"} equal to {@code schema}
     * (null: a file without a schema).
     */
    public static <E extends Exception> StrictJson<E> read(
            Path file, String schema, Set<String> allowed, String expected, Function<String, E> error) throws E {
        String shown = Outside.bare(file.toString());
        String json;
        try {
            json = Files.readString(file);
        } catch (CharacterCodingException e) {
            throw error.apply(shown + ": not UTF-8 text");
        } catch (NoSuchFileException e) {
            throw error.apply(shown + ": cannot read it: no such file");
        } catch (IOException e) {
            throw error.apply(shown + ": cannot read it: " + Outside.bare(String.valueOf(e.getMessage())));
        }
        JsonNode root;
        try {
            ObjectMapper mapper = new ObjectMapper();
            mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            // text after the object (two shard files run together) is refused, not read as if absent
            mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
            root = mapper.readTree(json);
        } catch (JsonProcessingException e) {
            var at = e.getLocation();
            throw error.apply(
                    shown
                            + (at == null ? "" : ":" + at.getLineNr() + ":" + at.getColumnNr())
                            + ": not valid JSON: "
                            + JsonWords.of(e));
        }
        if (root == null || !root.isObject()) {
            throw error.apply(Outside.at(file, 1, 1) + "expected an object with " + expected);
        }
        StrictJson<E> doc = new StrictJson<>(shown, root, JsonPlaces.of(json, root), error);
        doc.keys("the top level", root, allowed);
        if (schema != null && !schema.equals(root.path("schema").asText(null))) {
            throw doc.error(root, "schema", "\"schema\" must be \"" + schema + "\"");
        }
        return doc;
    }

    public JsonNode root() {
        return root;
    }

    /** Refuses a key of {@code node} that is not {@code allowed}, at the key. */
    public void keys(String where, JsonNode node, Set<String> allowed) throws E {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!allowed.contains(k)) {
                throw error.apply(
                        file
                                + ":"
                                + places.key(node, k)
                                + ": "
                                + where
                                + ": unknown key "
                                + Outside.excerpt(k)
                                + " (known: "
                                + String.join(", ", allowed.stream().sorted().toList())
                                + ")");
            }
        }
    }

    /** The string at {@code key}, which must be there (empty allowed; callers say when not). */
    public String text(String where, JsonNode node, String key) throws E {
        JsonNode v = node.get(key);
        if (v == null || !v.isTextual()) {
            throw error(node, key, where + ": \"" + key + "\" must be a string");
        }
        return v.asText();
    }

    /**
     * The caller's error {@code problem}, at the value of {@code key} in {@code node} (at {@code node} where it has
     * none).
     */
    public E error(JsonNode node, String key, String problem) {
        return error.apply(file + ":" + places.value(node, key) + ": " + problem);
    }

    /** The caller's error {@code problem}, at the start of {@code node}, an object or a list of the file. */
    public E error(JsonNode node, String problem) {
        return error.apply(file + ":" + places.of(node) + ": " + problem);
    }
}
