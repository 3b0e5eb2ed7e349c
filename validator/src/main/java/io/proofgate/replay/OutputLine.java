package io.proofgate.replay;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.proofgate.json.JsonWords;
import io.proofgate.protocol.BlockIds;
import io.proofgate.protocol.Counters;
import io.proofgate.protocol.GroupBlock;
import io.proofgate.protocol.Verdict;
import io.proofgate.words.Counter;
import io.proofgate.words.Outside;
import io.proofgate.words.PoisonCode;
import io.proofgate.words.RetireCause;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;

/**
 * One line of replay's JSON output for a log (protocol §5): a verdict, the summary, or the error that ends the output
 * of a log replay refused. {@link VerdictWriter} writes verdicts and summaries; this is the one reader of them, for
 * every part that reads a replay's output back (a merge's check of a shard, a namespace answer, the spec audit's
 * comparison with a model).
 */
public sealed interface OutputLine {

    /** A verdict line: {@code plan}, {@code rejected}, {@code retired}, {@code hit} or {@code load}. */
    record Said(Verdict verdict) implements OutputLine {}

    /** The summary: the counters, the pending ids in the connector's order, each non-empty latch by id. */
    record Summary(Counters counters, List<String> pending, SequencedMap<String, List<GroupBlock>> latched)
            implements OutputLine {}

    /** The error line a shard holds for a log replay refused. */
    record Error(String message) implements OutputLine {}

    /**
     * Why a line is not one replay writes, and where: at the value of {@code key}, or (key null) at {@code column}
     * where the JSON breaks, 1 for the line as a whole.
     */
    final class Unreadable extends Exception {
        private final String key;
        private final int column;

        Unreadable(String key, String problem) {
            this(key, 1, problem);
        }

        private Unreadable(String key, int column, String problem) {
            super(problem, null, false, false);
            this.key = key;
            this.column = column;
        }

        public String key() {
            return key;
        }

        public int column() {
            return column;
        }
    }

    /** The object that is the whole line; {@link Unreadable} for anything else (more after it included). */
    static JsonNode tree(String line) throws Unreadable {
        JsonNode root;
        try {
            root = Fields.JSON.readTree(line);
        } catch (JsonProcessingException e) {
            var at = e.getLocation();
            throw new Unreadable(
                    null,
                    at == null ? 1 : Math.max(1, at.getColumnNr()),
                    "not a line a replay prints: " + JsonWords.of(e));
        }
        if (root == null || !root.isObject()) {
            throw new Unreadable(null, "not a line a replay prints: not an object");
        }
        return root;
    }

    /** {@code line} read: its keys are those its kind has, in any order, each of its type. */
    static OutputLine read(String line) throws Unreadable {
        return read(tree(line));
    }

    /** Whether {@code ids} are in string order, each once. */
    private static boolean increasing(Iterable<String> ids) {
        String previous = null;
        for (String id : ids) {
            if (previous != null && previous.compareTo(id) >= 0) {
                return false;
            }
            previous = id;
        }
        return true;
    }

    /** {@code root} read as {@link #read(String)} reads a line. */
    static OutputLine read(JsonNode root) throws Unreadable {
        Fields fields = new Fields(root);
        String kind = fields.text("kind");
        OutputLine read =
                switch (kind) {
                    case "plan" ->
                            new Said(
                                    new Verdict.Plan(
                                            fields.integer("step"),
                                            fields.text("id"),
                                            fields.text("digest"),
                                            fields.count("span"),
                                            fields.blocks("blocks_by_group"),
                                            fields.pairs("recurrent")));
                    case "rejected" ->
                            new Said(
                                    new Verdict.Rejected(
                                            fields.integer("step"),
                                            fields.text("id"),
                                            fields.word("code", PoisonCode::of, "not a rejection code of the protocol"),
                                            fields.text("reason"),
                                            fields.has("observed") ? fields.big("observed") : null,
                                            fields.count("target"),
                                            fields.has("group") ? fields.group("group") : null,
                                            fields.has("block") ? fields.big("block") : null));
                    case "retired" ->
                            new Said(
                                    new Verdict.Retired(
                                            fields.integer("step"),
                                            fields.text("id"),
                                            fields.word(
                                                    "cause",
                                                    RetireCause::of,
                                                    "not a cause of retirement (quorum or finished)")));
                    case "hit" ->
                            new Said(
                                    new Verdict.Hit(fields.integer("step"), fields.text("id"), fields.count("tokens")));
                    case "load" ->
                            new Said(
                                    new Verdict.Load(
                                            fields.integer("step"),
                                            fields.text("id"),
                                            fields.text("digest"),
                                            fields.count("span"),
                                            fields.blocks("blocks_by_group")));
                    case "summary" -> {
                        Counters counters =
                                new Counters(
                                        fields.count(Counter.PLANS.wireName()),
                                        fields.count(Counter.REJECTED.wireName()),
                                        fields.count(Counter.STORE_SKIPPED_QUORUM.wireName()),
                                        fields.count(Counter.RETIRED_FINISHED.wireName()),
                                        fields.has(Counter.IGNORED_HELD.wireName())
                                                ? fields.count(Counter.IGNORED_HELD.wireName())
                                                : 0);
                        List<String> pending = fields.texts("pending");
                        SequencedMap<String, List<GroupBlock>> latched = fields.latched("latched");
                        // replay prints the pending ids in string order, and latches of pending stores only
                        if (!increasing(pending)) {
                            throw new Unreadable("pending", "the pending ids are not in string order, each once");
                        }
                        if (!increasing(latched.keySet()) || !pending.containsAll(latched.keySet())) {
                            throw new Unreadable("latched", "the latches are not of pending ids, in string order");
                        }
                        yield new Summary(counters, pending, latched);
                    }
                    case "error" -> new Error(fields.text("message"));
                    default ->
                            throw new Unreadable(
                                    "kind",
                                    "not a line a replay prints for a log (kind " + Outside.excerpt(kind) + ")");
                };
        fields.allRead();
        return read;
    }

    /**
     * This line as a replay writes it: verdicts and summaries through {@link VerdictWriter}, error lines as a shard
     * writes them.
     */
    default String written() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (VerdictWriter writer = new VerdictWriter(bytes)) {
            switch (this) {
                case Said said -> writer.write(said.verdict());
                case Summary summary -> writer.writeSummary(summary);
                case Error error -> {
                    return ReplayShard.errorLine(error.message());
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory", e);
        }
        String written = bytes.toString(StandardCharsets.UTF_8);
        return written.substring(0, written.length() - 1); // without its newline
    }

    /** [group, block] pairs as replay writes them: {@code [[1,42],[2,7]]}. */
    static String pairs(List<GroupBlock> pairs) {
        StringBuilder text = new StringBuilder("[");
        for (GroupBlock pair : pairs) {
            text.append(text.length() == 1 ? "" : ",")
                    .append('[')
                    .append(pair.group())
                    .append(',')
                    .append(pair.block())
                    .append(']');
        }
        return text.append(']').toString();
    }

    /** The fields of one line's object, each read once, by its type. */
    final class Fields {
        private static final ObjectMapper JSON =
                new ObjectMapper()
                        .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
                        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

        private final JsonNode root;
        private final java.util.Set<String> read = new java.util.HashSet<>();

        private Fields(JsonNode root) {
            this.root = root;
        }

        boolean has(String key) {
            return root.has(key);
        }

        private JsonNode get(String key) throws Unreadable {
            JsonNode value = root.get(key);
            if (value == null) {
                throw new Unreadable(null, "no key \"" + key + "\", which every such line has");
            }
            read.add(key);
            return value;
        }

        String text(String key) throws Unreadable {
            JsonNode value = get(key);
            if (!value.isTextual()) {
                throw notA(key, "a string");
            }
            return value.asText();
        }

        /** A wire word of {@code key}, looked up by {@code lookup}; {@code problem} where it knows none. */
        <T> T word(String key, java.util.function.Function<String, java.util.Optional<T>> lookup, String problem)
                throws Unreadable {
            return lookup.apply(text(key)).orElseThrow(() -> new Unreadable(key, problem));
        }

        long integer(String key) throws Unreadable {
            JsonNode value = get(key);
            if (!isLong(value)) {
                throw notA(key, "an integer");
            }
            return value.asLong();
        }

        /** A count of tokens or of verdicts: an integer of at least 0. */
        long count(String key) throws Unreadable {
            long value = integer(key);
            if (value < 0) {
                throw notA(key, "a count (an integer of at least 0)");
            }
            return value;
        }

        int group(String key) throws Unreadable {
            JsonNode value = get(key);
            if (!isInt(value)) {
                throw notA(key, "a group (an integer)");
            }
            return value.asInt();
        }

        BigInteger big(String key) throws Unreadable {
            JsonNode value = get(key);
            if (!value.isIntegralNumber()) {
                throw notA(key, "an integer");
            }
            return value.bigIntegerValue();
        }

        List<String> texts(String key) throws Unreadable {
            JsonNode value = get(key);
            if (!value.isArray()) {
                throw notA(key, "a list of strings");
            }
            List<String> texts = new ArrayList<>();
            for (JsonNode item : value) {
                if (!item.isTextual()) {
                    throw notA(key, "a list of strings");
                }
                texts.add(item.asText());
            }
            return texts;
        }

        BlockIds blocks(String key) throws Unreadable {
            JsonNode value = get(key);
            if (!value.isArray()) {
                throw notA(key, "a list of lists of block ids");
            }
            long[][] groups = new long[value.size()][];
            for (int g = 0; g < groups.length; g++) {
                JsonNode group = value.get(g);
                if (!group.isArray()) {
                    throw notA(key, "a list of lists of block ids");
                }
                groups[g] = new long[group.size()];
                for (int b = 0; b < groups[g].length; b++) {
                    if (!isLong(group.get(b))) {
                        throw notA(key, "a list of lists of block ids");
                    }
                    groups[g][b] = group.get(b).asLong();
                }
            }
            return BlockIds.adopt(groups);
        }

        List<GroupBlock> pairs(String key) throws Unreadable {
            return pairs(key, get(key));
        }

        private static List<GroupBlock> pairs(String key, JsonNode value) throws Unreadable {
            if (!value.isArray()) {
                throw notA(key, "a list of [group, block] pairs");
            }
            List<GroupBlock> pairs = new ArrayList<>();
            for (JsonNode pair : value) {
                if (!pair.isArray() || pair.size() != 2 || !isInt(pair.get(0)) || !isLong(pair.get(1))) {
                    throw notA(key, "a list of [group, block] pairs");
                }
                pairs.add(new GroupBlock(pair.get(0).asInt(), pair.get(1).asLong()));
            }
            return pairs;
        }

        SequencedMap<String, List<GroupBlock>> latched(String key) throws Unreadable {
            JsonNode value = get(key);
            if (!value.isObject()) {
                throw notA(key, "an object of lists of [group, block] pairs");
            }
            SequencedMap<String, List<GroupBlock>> latched = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> entry : value.properties()) {
                latched.put(entry.getKey(), pairs(key, entry.getValue()));
            }
            return latched;
        }

        /**
         * A value of {@code key} that is not {@code what}: made only on failure, since every plan line of a shard being
         * merged reads two lists.
         */
        private static Unreadable notA(String key, String what) {
            return new Unreadable(key, "\"" + key + "\" is not " + what);
        }

        private static boolean isLong(JsonNode value) {
            return value.isIntegralNumber() && value.canConvertToLong();
        }

        private static boolean isInt(JsonNode value) {
            return value.isIntegralNumber() && value.canConvertToInt();
        }

        /** Every key was read: one more is not a key a replay writes for this kind. */
        void allRead() throws Unreadable {
            for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!read.contains(name)) {
                    throw new Unreadable(
                            name, "key " + Outside.excerpt(name) + " is not one a replay writes on this line");
                }
            }
        }
    }
}
