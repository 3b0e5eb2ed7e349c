package io.proofgate.mutate;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Set;

/**
 * The reviewers' files of mutation testing, read strictly: UTF-8, one JSON object, a key at most
 * once, only known keys, and errors that name the file (and the line and column where JSON
 * itself is broken).
 */
final class StrictJson {

    private StrictJson() {
    }

    /** The file's top-level object, with only the keys {@code allowed} and {@code "schema"} equal to {@code schema}. */
    static JsonNode read(Path file, String schema, Set<String> allowed, String expected) throws MutationException {
        String json;
        try {
            json = Files.readString(file);
        } catch (CharacterCodingException e) {
            throw new MutationException(file + ": not UTF-8 text");
        } catch (NoSuchFileException e) {
            throw new MutationException(file + ": cannot read it: no such file");
        } catch (IOException e) {
            throw new MutationException(file + ": cannot read it: " + e.getMessage());
        }
        JsonNode root;
        try {
            ObjectMapper mapper = new ObjectMapper();
            mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            root = mapper.readTree(json);
        } catch (JsonProcessingException e) {
            var at = e.getLocation();
            throw new MutationException(file + (at == null ? "" : ":" + at.getLineNr() + ":" + at.getColumnNr())
                    + ": not valid JSON");
        }
        if (root == null || !root.isObject()) {
            throw new MutationException(file + ": expected an object with " + expected);
        }
        keys(file, "the top level", root, allowed);
        if (!schema.equals(root.path("schema").asText(null))) {
            throw new MutationException(file + ": \"schema\" must be \"" + schema + "\"");
        }
        return root;
    }

    static void keys(Path file, String where, JsonNode node, Set<String> allowed) throws MutationException {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!allowed.contains(k)) {
                throw new MutationException(file + ": " + where + ": unknown key \"" + k + "\" (known: "
                        + String.join(", ", allowed.stream().sorted().toList()) + ")");
            }
        }
    }

    /** The string at {@code key}, which must be there (empty allowed; callers say when not). */
    static String text(Path file, String where, JsonNode node, String key) throws MutationException {
        JsonNode v = node.get(key);
        if (v == null || !v.isTextual()) {
            throw new MutationException(file + ": " + where + ": \"" + key + "\" must be a string");
        }
        return v.asText();
    }
}
