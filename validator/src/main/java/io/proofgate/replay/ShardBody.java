package io.proofgate.replay;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.proofgate.json.JsonPlaces;
import io.proofgate.json.JsonWords;
import io.proofgate.words.Counter;
import io.proofgate.words.Outside;
import io.proofgate.words.PoisonCode;
import io.proofgate.words.RetireCause;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The lines of a replay shard after its header, checked before a merge prints any of them: for each log of the shard's
 * share, in order, its {@code log} line, then the verdict lines one replay of it prints, ending with its summary or its
 * {@code error} line; then the end line. Each line must be one a replay writes, key for key and byte for byte, and a
 * summary's counts must be those of the verdict lines above it. Without a key a shard is not signed, and this is what
 * stops an edit that would read as another outcome: a deleted error line (a failing log merged as a pass), a deleted
 * plan, rejection or retirement of a finished request, a summary that is not the log's. A retirement at full quorum is
 * counted with the requests skipped at admission, so its deletion is not seen; nor is a line rewritten into another
 * line of the right form with the counts kept (an error line made a summary of the lines above it): that takes the
 * key's HMAC.
 */
final class ShardBody {

    private static final ObjectMapper JSON = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private enum Type {
        INTEGER,
        TEXT,
        BLOCKS,
        PAIRS,
        TEXTS,
        LATCHED
    }

    private record Key(String name, Type type, boolean optional) {}

    private static Key key(String name, Type type) {
        return new Key(name, type, false);
    }

    private static Key optional(String name, Type type) {
        return new Key(name, type, true);
    }

    /** The keys of each kind of line a replay writes for a log, in its order (VerdictWriter, ReplayShard). */
    private static final Map<String, List<Key>> SHAPES =
            Map.of(
                    "plan",
                            List.of(
                                    key("kind", Type.TEXT),
                                    key("step", Type.INTEGER),
                                    key("id", Type.TEXT),
                                    key("digest", Type.TEXT),
                                    key("span", Type.INTEGER),
                                    key("blocks_by_group", Type.BLOCKS),
                                    key("recurrent", Type.PAIRS)),
                    "rejected",
                            List.of(
                                    key("kind", Type.TEXT),
                                    key("step", Type.INTEGER),
                                    key("id", Type.TEXT),
                                    key("code", Type.TEXT),
                                    optional("observed", Type.INTEGER),
                                    key("target", Type.INTEGER),
                                    optional("group", Type.INTEGER),
                                    optional("block", Type.INTEGER),
                                    key("reason", Type.TEXT)),
                    "retired",
                            List.of(
                                    key("kind", Type.TEXT),
                                    key("step", Type.INTEGER),
                                    key("id", Type.TEXT),
                                    key("cause", Type.TEXT)),
                    "hit",
                            List.of(
                                    key("kind", Type.TEXT),
                                    key("step", Type.INTEGER),
                                    key("id", Type.TEXT),
                                    key("tokens", Type.INTEGER)),
                    "load",
                            List.of(
                                    key("kind", Type.TEXT),
                                    key("step", Type.INTEGER),
                                    key("id", Type.TEXT),
                                    key("digest", Type.TEXT),
                                    key("span", Type.INTEGER),
                                    key("blocks_by_group", Type.BLOCKS)),
                    "summary",
                            List.of(
                                    key("kind", Type.TEXT),
                                    key(Counter.PLANS.wireName(), Type.INTEGER),
                                    key(Counter.REJECTED.wireName(), Type.INTEGER),
                                    key(Counter.STORE_SKIPPED_QUORUM.wireName(), Type.INTEGER),
                                    key(Counter.RETIRED_FINISHED.wireName(), Type.INTEGER),
                                    optional(Counter.IGNORED_HELD.wireName(), Type.INTEGER),
                                    key("pending", Type.TEXTS),
                                    key("latched", Type.LATCHED)),
                    "error", List.of(key("kind", Type.TEXT), key("message", Type.TEXT)));

    private static final Set<String> CODES =
            Arrays.stream(PoisonCode.values()).map(PoisonCode::wireName).collect(Collectors.toSet());
    private static final Set<String> CAUSES =
            Arrays.stream(RetireCause.values()).map(RetireCause::wireName).collect(Collectors.toSet());

    private final String shown;
    private final BufferedReader in;
    private int number; // of the line read last

    private ShardBody(Path file, BufferedReader in) {
        this.shown = Outside.bare(file.toString());
        this.in = in;
    }

    /** Checks every line of {@code file} after its header, which is {@code header}. */
    static void check(Path file, ShardHeader header) throws IOException, MergeRefused {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            ShardBody body = new ShardBody(file, in);
            body.next(); // the header, read already
            for (int i = header.shard(); i < header.logs().size(); i += header.count()) {
                body.log(i, header.logs().get(i));
            }
            String end = body.next();
            if (end == null || !end.startsWith("{\"kind\":\"end\"") || body.next() != null) {
                throw body.refused(
                        1, "the output of its logs ends here, and its end line (the file's last line) does not follow");
            }
        }
    }

    private String next() throws IOException {
        String line = in.readLine();
        number += line == null ? 0 : 1;
        return line;
    }

    /** The output of log {@code index}: its log line, its verdicts, its summary or error. */
    private void log(int index, String path) throws IOException, MergeRefused {
        String expected = ReplayShard.logLine(index, path);
        String line = next();
        if (!expected.equals(line)) {
            throw refused(
                    1,
                    "expected "
                            + Outside.excerpt(expected)
                            + ", the start of the output of log "
                            + index
                            + " of its share"
                            + (line == null ? "; the file ends" : ""));
        }
        long plans = 0;
        long rejected = 0;
        long finished = 0;
        long quorum = 0;
        while (true) {
            line = next();
            if (line == null) {
                throw refused(1, "the file ends inside the output of log " + index + " (no summary or error line)");
            }
            JsonNode root = parse(line);
            String kind = root.path("kind").asText("");
            List<Key> shape = SHAPES.get(kind);
            if (kind.equals("log")) {
                throw refused(1, "the output of log " + index + " ends without its summary or error line");
            }
            if (shape == null) {
                throw refused(
                        line,
                        root,
                        "kind",
                        "not a line a replay prints for a log (kind " + Outside.excerpt(kind) + ")");
            }
            shaped(line, root, kind, shape);
            switch (kind) {
                case "plan" -> plans++;
                case "hit", "load" -> {} // the summary does not count them
                case "rejected" -> {
                    rejected++;
                    if (!CODES.contains(root.get("code").asText())) {
                        throw refused(line, root, "code", "not a rejection code of the protocol");
                    }
                }
                case "retired" -> {
                    String cause = root.get("cause").asText();
                    if (!CAUSES.contains(cause)) {
                        throw refused(line, root, "cause", "not a cause of retirement (quorum or finished)");
                    }
                    finished += cause.equals(RetireCause.FINISHED.wireName()) ? 1 : 0;
                    quorum += cause.equals(RetireCause.QUORUM.wireName()) ? 1 : 0;
                }
                case "error" -> {
                    if (root.get("message").asText().isEmpty()) {
                        throw refused(line, root, "message", "an error line without a message");
                    }
                    return;
                }
                case "summary" -> { // its counts must be those of the lines above it
                    counted(line, root, Counter.PLANS.wireName(), plans, "plan lines");
                    counted(line, root, Counter.REJECTED.wireName(), rejected, "rejected lines");
                    counted(
                            line,
                            root,
                            Counter.RETIRED_FINISHED.wireName(),
                            finished,
                            "lines that retire a finished request");
                    if (root.get(Counter.STORE_SKIPPED_QUORUM.wireName()).asLong() < quorum) {
                        throw refused(
                                line,
                                root,
                                Counter.STORE_SKIPPED_QUORUM.wireName(),
                                "fewer than the "
                                        + quorum
                                        + " lines above it that retire a request at full quorum: not this log's"
                                        + " summary");
                    }
                    return;
                }
                default -> throw new IllegalStateException("a kind of SHAPES not handled here: " + kind);
            }
        }
    }

    private void counted(String line, JsonNode summary, String key, long lines, String what) throws MergeRefused {
        if (summary.get(key).asLong() != lines) {
            throw refused(
                    line,
                    summary,
                    key,
                    "the summary counts "
                            + summary.get(key).asText()
                            + " where the log's output has "
                            + lines
                            + " "
                            + what
                            + ": not this log's summary, or lines were removed");
        }
    }

    private JsonNode parse(String line) throws MergeRefused {
        JsonNode root;
        try {
            root = JSON.readTree(line);
        } catch (JsonProcessingException e) {
            var at = e.getLocation();
            throw refused(at == null ? 1 : at.getColumnNr(), "not a line a replay prints: " + JsonWords.of(e));
        }
        if (root == null || !root.isObject()) {
            throw refused(1, "not a line a replay prints: not an object");
        }
        return root;
    }

    /**
     * The line's keys are {@code shape}'s, in its order and of its types, and the line is written as a replay writes
     * it.
     */
    private void shaped(String line, JsonNode root, String kind, List<Key> shape) throws MergeRefused {
        Iterator<Map.Entry<String, JsonNode>> fields = root.fields();
        Map.Entry<String, JsonNode> field = fields.hasNext() ? fields.next() : null;
        for (Key key : shape) {
            if (field == null || !field.getKey().equals(key.name())) {
                if (key.optional()) {
                    continue;
                }
                throw field == null
                        ? refused(line, root, null, "no key \"" + key.name() + "\", which every such line has")
                        : refused(
                                line,
                                root,
                                field.getKey(),
                                "key "
                                        + Outside.excerpt(field.getKey())
                                        + " where a replay writes \""
                                        + key.name()
                                        + "\"");
            }
            if (!fits(field.getValue(), key.type())) {
                throw refused(line, root, key.name(), "\"" + key.name() + "\" is not " + words(key.type()));
            }
            field = fields.hasNext() ? fields.next() : null;
        }
        if (field != null) {
            throw refused(
                    line,
                    root,
                    field.getKey(),
                    "key " + Outside.excerpt(field.getKey()) + " is not one a replay writes here");
        }
        if (!written(root, kind).equals(line)) {
            throw refused(1, "not written as a replay writes it (spaces, or another form of a number or string)");
        }
    }

    /**
     * The line as a replay writes it: verdicts and summaries through a generator onto bytes (VerdictWriter), which
     * escapes each surrogate ({@code "r\\uD83D\\uDE00"} for an emoji), error lines as text (ReplayShard), which keeps a
     * character outside the BMP as it is.
     */
    private static String written(JsonNode root, String kind) {
        if (kind.equals("error")) {
            return root.toString();
        }
        try {
            return new String(JSON.writeValueAsBytes(root), StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree read from JSON is written back as JSON", e);
        }
    }

    private static boolean fits(JsonNode value, Type type) {
        return switch (type) {
            case INTEGER -> value.isIntegralNumber();
            case TEXT -> value.isTextual();
            case TEXTS -> value.isArray() && all(value, JsonNode::isTextual);
            case BLOCKS ->
                    value.isArray() && all(value, group -> group.isArray() && all(group, JsonNode::isIntegralNumber));
            case PAIRS -> isPairs(value);
            case LATCHED -> value.isObject() && all(value, ShardBody::isPairs);
        };
    }

    private static boolean isPairs(JsonNode value) {
        return value.isArray()
                && all(value, pair -> pair.isArray() && pair.size() == 2 && all(pair, JsonNode::isIntegralNumber));
    }

    private static boolean all(JsonNode container, java.util.function.Predicate<JsonNode> test) {
        for (JsonNode item : container) {
            if (!test.test(item)) {
                return false;
            }
        }
        return true;
    }

    private static String words(Type type) {
        return switch (type) {
            case INTEGER -> "an integer";
            case TEXT -> "a string";
            case TEXTS -> "a list of strings";
            case BLOCKS -> "a list of lists of block ids";
            case PAIRS -> "a list of [group, block] pairs";
            case LATCHED -> "an object of lists of [group, block] pairs";
        };
    }

    /** At the value of {@code key} in the line (its start without one). */
    private MergeRefused refused(String line, JsonNode root, String key, String problem) {
        String place = key == null ? "1" : JsonPlaces.of(line, root).value(root, key).replaceFirst("^1:", "");
        return new MergeRefused(shown + ":" + number + ":" + place + ": " + problem);
    }

    private MergeRefused refused(int column, String problem) {
        return new MergeRefused(shown + ":" + number + ":" + column + ": " + problem);
    }
}
