package io.proofgate.replay;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.proofgate.json.JsonPlaces;
import io.proofgate.json.JsonWords;
import io.proofgate.words.Outside;
import io.proofgate.words.Sha256;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * The first line of a replay shard file, read strictly: the keys {@link ReplayShard#header} writes and no other, each
 * once and of its type, so that a header a merge would misread (a list of logs that is an object, a count that is a
 * string, a key given twice) is refused at its line and column instead of merging the wrong logs.
 *
 * @param shard K of the run's K/N
 * @param count N, at least 1
 * @param logs the paths of all of the run's logs, in order; at least one
 * @param hashes the SHA-256 of each log of this shard's share (positions K, K+N, ...), null for one the shard could not
 *     read
 */
record ShardHeader(int shard, int count, List<String> logs, List<String> hashes) {

    private static final ObjectMapper JSON = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    private static final Set<String> KEYS = Set.of("kind", "schema", "shard", "of", "files", "sha256");

    /** The header on the first line of {@code file}; {@code line} null when the file is empty. */
    static ShardHeader read(Path file, String line) throws MergeRefused {
        String shown = Outside.bare(file.toString());
        if (line == null) {
            throw new MergeRefused(shown + ": empty, not a replay shard file");
        }
        JsonNode root;
        try {
            root = JSON.readTree(line);
        } catch (JsonProcessingException e) {
            var at = e.getLocation();
            throw new MergeRefused(
                    shown
                            + ":1:"
                            + (at == null ? 1 : at.getColumnNr())
                            + ": not a replay shard file: "
                            + JsonWords.of(e));
        }
        if (root == null
                || !root.isObject()
                || !"shard".equals(root.path("kind").asText(null))
                || !root.path("schema").asText("").startsWith("proofgate-replay-shard/")) {
            throw new MergeRefused(Outside.at(file, 1, 1) + "not a replay shard file");
        }
        At at = new At(shown, JsonPlaces.of(line, root));
        if (!ReplayShard.SHARD_SCHEMA.equals(root.path("schema").asText())) {
            throw new MergeRefused(
                    shown
                            + ": a shard of schema "
                            + Outside.quoted(root.path("schema").asText())
                            + "; this proofgate merges "
                            + ReplayShard.SHARD_SCHEMA
                            + " (run the shards again with it)");
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!KEYS.contains(key)) {
                throw at.key(root, key, "unknown key " + Outside.excerpt(key) + " in a shard's header");
            }
        }
        int count = integer(at, root, "of", 1, "\"of\" must be the shard count N, an integer of at least 1");
        int shard = integer(at, root, "shard", 0, "\"shard\" must be the shard's K, an integer of at least 0");
        if (shard >= count) {
            throw at.value(root, "shard", "shard " + shard + " of " + count + " is not a shard (K must be below N)");
        }
        JsonNode files = root.get("files");
        if (files == null || !files.isArray() || files.isEmpty()) {
            throw at.value(root, "files", "\"files\" must list the run's logs: a non-empty list of paths");
        }
        List<String> logs = new ArrayList<>();
        for (JsonNode log : files) {
            if (!log.isTextual()) {
                throw at.of(log, files, logs.size(), "\"files\" must list paths (strings)");
            }
            logs.add(log.asText());
        }
        return new ShardHeader(shard, count, List.copyOf(logs), hashes(at, root, shard, count, logs.size()));
    }

    /**
     * The integer at {@code key}, at least {@code least}: a JSON integer, never a string, a fraction or beyond an int.
     */
    private static int integer(At at, JsonNode root, String key, int least, String problem) throws MergeRefused {
        JsonNode value = root.get(key);
        if (value == null || !value.isInt() || value.intValue() < least) {
            throw at.value(root, key, problem);
        }
        return value.intValue();
    }

    /** The hashes of the shard's own logs, in order: exactly its share, each {@code [position, hash or null]}. */
    private static List<String> hashes(At at, JsonNode root, int shard, int count, int logs) throws MergeRefused {
        JsonNode pairs = root.get("sha256");
        if (pairs == null || !pairs.isArray()) {
            throw at.value(root, "sha256", "\"sha256\" must list [position, hash] for each log of the shard's share");
        }
        List<String> hashes = new ArrayList<>();
        int n = 0;
        for (int i = shard; i < logs; i += count, n++) {
            JsonNode pair = pairs.get(n);
            if (pair == null) {
                throw at.value(
                        root, "sha256", "its header does not give the SHA-256 of log " + i + ", one of its share");
            }
            JsonNode hash = pair.path(1);
            if (!pair.isArray()
                    || pair.size() != 2
                    || !pair.get(0).isInt()
                    || pair.get(0).intValue() != i
                    || !(hash.isNull() || hash.isTextual() && Sha256.isHash(hash.asText()))) {
                throw at.of(pair, pairs, n, "its header does not give the SHA-256 of log " + i + ", one of its share");
            }
            hashes.add(hash.isNull() ? null : hash.asText());
        }
        if (pairs.size() != n) {
            throw at.of(
                    pairs.get(n),
                    pairs,
                    n,
                    "its header gives SHA-256s of logs outside its share (shard " + shard + "/" + count + ")");
        }
        return hashes;
    }

    /** Errors at a place of the header line. */
    private record At(String file, JsonPlaces places) {

        MergeRefused key(JsonNode object, String key, String problem) {
            return new MergeRefused(file + ":" + places.key(object, key) + ": " + problem);
        }

        MergeRefused value(JsonNode object, String key, String problem) {
            return new MergeRefused(file + ":" + places.value(object, key) + ": " + problem);
        }

        /**
         * At the item {@code index} of {@code list}: a container has its own place, a small value is found through its
         * list.
         */
        MergeRefused of(JsonNode item, JsonNode list, int index, String problem) {
            String place =
                    item != null && item.isContainerNode()
                            ? places.of(item)
                            : places.value(list, Integer.toString(index));
            return new MergeRefused(file + ":" + place + ": " + problem);
        }
    }
}
