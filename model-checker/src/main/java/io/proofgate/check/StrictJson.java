package io.proofgate.check;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.proofgate.text.JsonWords;
import io.proofgate.text.Outside;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Set;
import java.util.function.Function;

/**
 * The reviewers' files (mutation judgements, named mistakes, accepted audit findings), read
 * strictly: UTF-8, one JSON object, a key at most once, only known keys, and errors that name the
 * file (and the line and column where JSON itself is broken). Each caller's errors are of its
 * own exception type, made by {@code error} from the message.
 */
public final class StrictJson {

    private StrictJson() {
    }

    /** The file's top-level object, with only the keys {@code allowed} and {@code "schema"} equal to {@code schema}. */
    public static <E extends Exception> JsonNode read(Path file, String schema, Set<String> allowed, String expected,
                                                     Function<String, E> error) throws E {
        String json;
        try {
            json = Files.readString(file);
        } catch (CharacterCodingException e) {
            throw error.apply(Outside.bare(file.toString()) + ": not UTF-8 text");
        } catch (NoSuchFileException e) {
            throw error.apply(Outside.bare(file.toString()) + ": cannot read it: no such file");
        } catch (IOException e) {
            throw error.apply(Outside.bare(file.toString()) + ": cannot read it: " + Outside.bare(String.valueOf(e.getMessage())));
        }
        JsonNode root;
        try {
            ObjectMapper mapper = new ObjectMapper();
            mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            root = mapper.readTree(json);
        } catch (JsonProcessingException e) {
            var at = e.getLocation();
            throw error.apply(Outside.bare(file.toString()) + (at == null ? "" : ":" + at.getLineNr() + ":" + at.getColumnNr())
                    + ": not valid JSON: " + JsonWords.of(e));
        }
        if (root == null || !root.isObject()) {
            throw error.apply(Outside.bare(file.toString()) + ": expected an object with " + expected);
        }
        keys(file, "the top level", root, allowed, error);
        if (!schema.equals(root.path("schema").asText(null))) {
            throw error.apply(Outside.bare(file.toString()) + ": \"schema\" must be \"" + schema + "\"");
        }
        return root;
    }

    public static <E extends Exception> void keys(Path file, String where, JsonNode node, Set<String> allowed,
                                                 Function<String, E> error) throws E {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!allowed.contains(k)) {
                throw error.apply(Outside.bare(file.toString()) + ": " + where + ": unknown key " + Outside.excerpt(k) + " (known: "
                        + String.join(", ", allowed.stream().sorted().toList()) + ")");
            }
        }
    }

    /** The string at {@code key}, which must be there (empty allowed; callers say when not). */
    public static <E extends Exception> String text(Path file, String where, JsonNode node, String key,
                                                   Function<String, E> error) throws E {
        JsonNode v = node.get(key);
        if (v == null || !v.isTextual()) {
            throw error.apply(Outside.bare(file.toString()) + ": " + where + ": \"" + key + "\" must be a string");
        }
        return v.asText();
    }
}
