package io.proofgate.replay;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import io.proofgate.protocol.BlockIds;
import io.proofgate.protocol.Event;
import io.proofgate.protocol.Group;
import io.proofgate.protocol.GroupPolicy;
import io.proofgate.protocol.RawValue;
import io.proofgate.protocol.Topology;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a {@code proofgate-events/v1} log (DESIGN §5) one event at a time with Jackson's streaming
 * parser, so memory does not grow with the log. Every structural problem (invalid JSON, an object
 * that is not alone on its line, an unknown kind or field, a missing or mistyped field) is a
 * {@link ReplayException} naming line and column. {@code recurrent_boundary_blocks} is never
 * structural: any JSON value there becomes a {@link RawValue} for the validator to judge.
 *
 * <p>Unknown fields are errors rather than ignored: a misspelt {@code recurrent_boundary_blocks}
 * would otherwise read as absent evidence and silently keep a latch.
 */
public final class EventReader implements Closeable {

    public static final String SCHEMA = "proofgate-events/v1";
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build())
            .build();

    /** Jackson names the source in nested locations; the error already names the file. */
    private static final java.util.regex.Pattern SOURCE_MARKER =
            java.util.regex.Pattern.compile("\\[Source: [^;]*; line: (\\d+), column: (\\d+)\\]");

    private final JsonParser parser;
    private final String source;
    private long previousEndLine;
    private Topology topology;

    public EventReader(InputStream in, String source) throws IOException {
        this.parser = FACTORY.createParser(in);
        this.source = source;
    }

    /** Reads the first line, which must describe the topology. */
    public Topology readTopology() throws ReplayException, IOException {
        if (topology != null) {
            throw new IllegalStateException("topology already read");
        }
        JsonLocation start = startObject();
        if (start == null) {
            throw new ReplayException(source, 1, 1, "empty log: expected a topology line");
        }
        Fields fields = readFields(start);
        if (!"topology".equals(fields.kind)) {
            throw error(start, "the first line must be the topology (kind \"topology\"), found kind \"" + fields.kind + "\"");
        }
        topology = fields.toTopology();
        return topology;
    }

    /** The next event, or null at the end of the log. */
    public ReplayLine next() throws ReplayException, IOException {
        if (topology == null) {
            throw new IllegalStateException("read the topology first");
        }
        JsonLocation start = startObject();
        if (start == null) {
            return null;
        }
        Fields fields = readFields(start);
        Event event = switch (fields.kind) {
            case "step" -> fields.toStep();
            case "finished" -> new Event.Finished(fields.require(fields.id, "id"));
            case "held" -> new Event.Held(fields.requireInt(fields.rank, "rank"), fields.require(fields.digest, "digest"));
            case "topology" -> throw error(start, "a second topology line (only the first line describes the topology)");
            default -> throw error(fields.kindAt, "unknown event kind \"" + fields.kind + "\" (expected step, finished, held)");
        };
        fields.rejectForeign();
        return new ReplayLine(event, start.getLineNr(), start.getColumnNr());
    }

    @Override
    public void close() throws IOException {
        parser.close();
    }

    /** Moves to the next top-level object, which must begin a new line; null at the end. */
    private JsonLocation startObject() throws ReplayException, IOException {
        JsonToken token = nextToken();
        if (token == null) {
            return null;
        }
        JsonLocation start = parser.currentTokenLocation();
        if (token != JsonToken.START_OBJECT) {
            throw error(start, "expected a JSON object, found " + describe(token));
        }
        if (start.getLineNr() <= previousEndLine) {
            throw error(start, "a second JSON value on one line (JSON Lines holds one object per line)");
        }
        return start;
    }

    private Fields readFields(JsonLocation start) throws ReplayException, IOException {
        Fields fields = new Fields(start);
        while (nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonLocation at = parser.currentTokenLocation();
            JsonToken value = nextToken();
            fields.mark(name, at);
            switch (name) {
                case "kind" -> { fields.kind = text(value, name); fields.kindAt = at; }
                case "schema" -> fields.schema = text(value, name);
                case "tp_degree" -> fields.tpDegree = integer(value, name);
                case "hash_block_size" -> fields.hashBlockSize = integer(value, name);
                case "min_span_tokens" -> fields.minSpan = integer(value, name);
                case "max_span_tokens" -> fields.maxSpan = value == JsonToken.VALUE_NULL ? null : integer(value, name);
                case "groups" -> fields.groups = groups(value);
                case "step" -> fields.step = integer(value, name);
                case "new" -> fields.newRequests = newRequests(value);
                case "cached" -> fields.cached = cachedRequests(value);
                case "preempted" -> fields.preempted = strings(value, name);
                case "recurrent_boundary_blocks" -> fields.evidence = raw(value);
                case "id" -> fields.id = text(value, name);
                case "rank" -> fields.rank = integer(value, name);
                case "digest" -> fields.digest = text(value, name);
                default -> throw error(at, "unknown field \"" + name + "\"");
            }
        }
        JsonLocation end = parser.currentLocation();
        if (end.getLineNr() != start.getLineNr()) {
            throw error(start, "the object spans lines " + start.getLineNr() + " to " + end.getLineNr()
                    + " (JSON Lines holds one object per line)");
        }
        previousEndLine = end.getLineNr();
        if (fields.kind == null) {
            throw error(start, "missing field \"kind\"");
        }
        return fields;
    }

    private List<Group> groups(JsonToken token) throws ReplayException, IOException {
        expect(token, JsonToken.START_ARRAY, "groups", "a list of groups");
        List<Group> groups = new ArrayList<>();
        JsonToken next;
        while ((next = nextToken()) != JsonToken.END_ARRAY) {
            JsonLocation start = parser.currentTokenLocation();
            expect(next, JsonToken.START_OBJECT, "groups[" + groups.size() + "]", "an object");
            String policyName = null;
            Long blockTokens = null;
            Long window = null;
            while (nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonLocation at = parser.currentTokenLocation();
                JsonToken value = nextToken();
                switch (name) {
                    case "policy" -> policyName = text(value, name);
                    case "block_tokens" -> blockTokens = integer(value, name);
                    case "window_tokens" -> window = integer(value, name);
                    default -> throw error(at, "unknown field \"" + name + "\" in groups[" + groups.size() + "]");
                }
            }
            String where = "groups[" + groups.size() + "]";
            if (policyName == null || blockTokens == null) {
                throw error(start, "missing field \"" + (policyName == null ? "policy" : "block_tokens") + "\" in " + where);
            }
            GroupPolicy policy = GroupPolicy.fromWireName(policyName);
            if (policy == null) {
                throw error(start, "unknown policy \"" + policyName + "\" in " + where + " (expected full, sliding, recurrent_align)");
            }
            try {
                groups.add(new Group(groups.size(), policy, blockTokens, window == null ? 0 : window));
            } catch (IllegalArgumentException e) {
                throw error(start, e.getMessage() + " in " + where);
            }
        }
        return groups;
    }

    private List<Event.NewRequest> newRequests(JsonToken token) throws ReplayException, IOException {
        expect(token, JsonToken.START_ARRAY, "new", "a list of requests");
        List<Event.NewRequest> requests = new ArrayList<>();
        JsonToken next;
        while ((next = nextToken()) != JsonToken.END_ARRAY) {
            String where = "new[" + requests.size() + "]";
            JsonLocation start = parser.currentTokenLocation();
            expect(next, JsonToken.START_OBJECT, where, "an object");
            String id = null;
            String digest = null;
            Long prompt = null;
            Long computed = null;
            Long scheduled = null;
            BlockIds blocks = null;
            while (nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonLocation at = parser.currentTokenLocation();
                JsonToken value = nextToken();
                switch (name) {
                    case "id" -> id = text(value, name);
                    case "digest" -> digest = text(value, name);
                    case "prompt_tokens" -> prompt = atLeast(integer(value, name), 1, name, at);
                    case "computed" -> computed = atLeast(integer(value, name), 0, name, at);
                    case "scheduled" -> scheduled = atLeast(integer(value, name), 0, name, at);
                    case "block_ids" -> blocks = blockIds(value, name, at);
                    default -> throw error(at, "unknown field \"" + name + "\" in " + where);
                }
            }
            requests.add(new Event.NewRequest(required(id, "id", where, start), required(digest, "digest", where, start),
                    required(prompt, "prompt_tokens", where, start), required(computed, "computed", where, start),
                    required(scheduled, "scheduled", where, start), required(blocks, "block_ids", where, start)));
        }
        return requests;
    }

    private List<Event.CachedRequest> cachedRequests(JsonToken token) throws ReplayException, IOException {
        expect(token, JsonToken.START_ARRAY, "cached", "a list of requests");
        List<Event.CachedRequest> requests = new ArrayList<>();
        JsonToken next;
        while ((next = nextToken()) != JsonToken.END_ARRAY) {
            String where = "cached[" + requests.size() + "]";
            JsonLocation start = parser.currentTokenLocation();
            expect(next, JsonToken.START_OBJECT, where, "an object");
            String id = null;
            Long computed = null;
            Long scheduled = null;
            BlockIds blocks = null;
            boolean resumed = false;
            while (nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonLocation at = parser.currentTokenLocation();
                JsonToken value = nextToken();
                switch (name) {
                    case "id" -> id = text(value, name);
                    case "computed" -> computed = atLeast(integer(value, name), 0, name, at);
                    case "scheduled" -> scheduled = atLeast(integer(value, name), 0, name, at);
                    case "new_block_ids" -> blocks = blockIds(value, name, at);
                    case "resumed" -> resumed = bool(value, name);
                    default -> throw error(at, "unknown field \"" + name + "\" in " + where);
                }
            }
            requests.add(new Event.CachedRequest(required(id, "id", where, start),
                    required(computed, "computed", where, start), required(scheduled, "scheduled", where, start),
                    required(blocks, "new_block_ids", where, start), resumed));
        }
        return requests;
    }

    private BlockIds blockIds(JsonToken token, String name, JsonLocation at) throws ReplayException, IOException {
        expect(token, JsonToken.START_ARRAY, name, "a list with one list of block ids per group");
        if (topology == null) {
            throw error(at, "\"" + name + "\" does not belong to the topology line");
        }
        int groups = topology.groups().size();
        long[][] byGroup = new long[groups][];
        int group = 0;
        JsonToken next;
        while ((next = nextToken()) != JsonToken.END_ARRAY) {
            expect(next, JsonToken.START_ARRAY, name + "[" + group + "]", "a list of block ids");
            long[] ids = new long[8];
            int count = 0;
            while ((next = nextToken()) != JsonToken.END_ARRAY) {
                long id = integer(next, name + "[" + group + "][" + count + "]");
                if (count == ids.length) {
                    ids = java.util.Arrays.copyOf(ids, count * 2);
                }
                ids[count++] = id;
            }
            if (group < groups) {
                byGroup[group] = java.util.Arrays.copyOf(ids, count);
            }
            group++;
        }
        if (group != groups) {
            throw error(at, "\"" + name + "\" has " + group + " group lists, the topology has " + groups);
        }
        return new BlockIds(byGroup);
    }

    private List<String> strings(JsonToken token, String name) throws ReplayException, IOException {
        expect(token, JsonToken.START_ARRAY, name, "a list of request ids");
        List<String> values = new ArrayList<>();
        JsonToken next;
        while ((next = nextToken()) != JsonToken.END_ARRAY) {
            values.add(text(next, name + "[" + values.size() + "]"));
        }
        return values;
    }

    /** Any JSON value, kept as it stands: this is evidence for the validator, never a structural error. */
    private RawValue raw(JsonToken token) throws ReplayException, IOException {
        return switch (token) {
            case VALUE_NULL -> RawValue.NULL;
            case VALUE_TRUE -> new RawValue.Bool(true);
            case VALUE_FALSE -> new RawValue.Bool(false);
            case VALUE_STRING -> new RawValue.Text(parser.getText());
            case VALUE_NUMBER_FLOAT -> new RawValue.Real(parser.getDoubleValue());
            case VALUE_NUMBER_INT -> new RawValue.Int(saturatedLong());
            case START_ARRAY -> {
                List<RawValue> items = new ArrayList<>(4);
                JsonToken next;
                while ((next = nextToken()) != JsonToken.END_ARRAY) {
                    items.add(raw(next));
                }
                yield new RawValue.ListOf(items);
            }
            case START_OBJECT -> {
                Map<String, RawValue> entries = new LinkedHashMap<>();
                String duplicate = null;
                while (nextToken() == JsonToken.FIELD_NAME) {
                    String key = parser.currentName();
                    RawValue value = raw(nextToken());
                    if (entries.putIfAbsent(key, value) != null && duplicate == null) {
                        duplicate = key;
                    }
                }
                yield new RawValue.MapOf(entries, duplicate);
            }
            default -> throw error(parser.currentTokenLocation(), "unexpected " + describe(token));
        };
    }

    private long saturatedLong() throws IOException {
        return switch (parser.getNumberType()) {
            case INT, LONG -> parser.getLongValue();
            default -> parser.getBigIntegerValue().signum() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        };
    }

    private JsonToken nextToken() throws ReplayException, IOException {
        try {
            return parser.nextToken();
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation() != null ? e.getLocation() : parser.currentLocation();
            throw error(at, "invalid JSON: " + SOURCE_MARKER.matcher(e.getOriginalMessage().replace('\n', ' '))
                    .replaceAll("line $1, column $2"));
        }
    }

    private String text(JsonToken token, String name) throws ReplayException {
        if (token != JsonToken.VALUE_STRING) {
            throw mistyped(name, "a string", token);
        }
        try {
            return parser.getText();
        } catch (IOException e) {
            throw error(parser.currentTokenLocation(), "unreadable string for \"" + name + "\"");
        }
    }

    private long integer(JsonToken token, String name) throws ReplayException, IOException {
        if (token != JsonToken.VALUE_NUMBER_INT) {
            throw mistyped(name, "an integer", token);
        }
        JsonParser.NumberType type = parser.getNumberType();
        if (type != JsonParser.NumberType.INT && type != JsonParser.NumberType.LONG) {
            throw error(parser.currentTokenLocation(), "\"" + name + "\" is out of range: " + parser.getText());
        }
        return parser.getLongValue();
    }

    private boolean bool(JsonToken token, String name) throws ReplayException {
        if (token == JsonToken.VALUE_TRUE || token == JsonToken.VALUE_FALSE) {
            return token == JsonToken.VALUE_TRUE;
        }
        throw mistyped(name, "a boolean", token);
    }

    private long atLeast(long value, long minimum, String name, JsonLocation at) throws ReplayException {
        if (value < minimum) {
            throw error(at, "\"" + name + "\" must be >= " + minimum + ", got " + value);
        }
        return value;
    }

    private <T> T required(T value, String name, String where, JsonLocation start) throws ReplayException {
        if (value == null) {
            throw error(start, "missing field \"" + name + "\" in " + where);
        }
        return value;
    }

    private void expect(JsonToken token, JsonToken wanted, String name, String what) throws ReplayException {
        if (token != wanted) {
            throw mistyped(name, what, token);
        }
    }

    private ReplayException mistyped(String name, String wanted, JsonToken found) {
        return error(parser.currentTokenLocation(), "\"" + name + "\" must be " + wanted + ", found " + describe(found));
    }

    private ReplayException error(JsonLocation at, String problem) {
        return new ReplayException(source, at.getLineNr(), at.getColumnNr(), problem);
    }

    private static String describe(JsonToken token) {
        if (token == null) {
            return "the end of the input";
        }
        return switch (token) {
            case START_OBJECT -> "an object";
            case START_ARRAY -> "a list";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT -> "an integer";
            case VALUE_NUMBER_FLOAT -> "a number with a fraction";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_NULL -> "null";
            default -> token.asString() == null ? token.name() : "\"" + token.asString() + "\"";
        };
    }

    /** The fields of one top-level line; which are allowed depends on its kind, known only at the end. */
    private final class Fields {
        final JsonLocation start;
        final Map<String, JsonLocation> seen = new LinkedHashMap<>();
        String kind;
        JsonLocation kindAt;
        String schema;
        Long tpDegree;
        Long hashBlockSize;
        Long minSpan;
        Long maxSpan;
        List<Group> groups;
        Long step;
        List<Event.NewRequest> newRequests;
        List<Event.CachedRequest> cached;
        List<String> preempted;
        RawValue evidence = RawValue.ABSENT;
        String id;
        Long rank;
        String digest;

        Fields(JsonLocation start) {
            this.start = start;
        }

        void mark(String name, JsonLocation at) throws ReplayException {
            if (seen.putIfAbsent(name, at) != null) {
                throw error(at, "field \"" + name + "\" appears twice");
            }
        }

        String require(String value, String name) throws ReplayException {
            if (value == null) {
                throw error(start, "missing field \"" + name + "\" in a " + kind + " event");
            }
            return value;
        }

        int requireInt(Long value, String name) throws ReplayException {
            if (value == null) {
                throw error(start, "missing field \"" + name + "\" in a " + kind + " event");
            }
            if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
                throw error(seen.get(name), "\"" + name + "\" is out of range: " + value);
            }
            return value.intValue();
        }

        /** A field that does not belong to this kind of line is as wrong as an unknown one. */
        void rejectForeign() throws ReplayException {
            List<String> allowed = switch (kind) {
                case "step" -> List.of("kind", "step", "new", "cached", "preempted", "recurrent_boundary_blocks");
                case "finished" -> List.of("kind", "id");
                case "held" -> List.of("kind", "rank", "digest");
                default -> List.of("kind", "schema", "tp_degree", "hash_block_size", "min_span_tokens",
                        "max_span_tokens", "groups");
            };
            for (Map.Entry<String, JsonLocation> field : seen.entrySet()) {
                if (!allowed.contains(field.getKey())) {
                    throw error(field.getValue(), "field \"" + field.getKey() + "\" does not belong to a " + kind + " event");
                }
            }
        }

        Topology toTopology() throws ReplayException {
            rejectForeign();
            if (schema == null) {
                throw error(start, "missing field \"schema\" in the topology (expected \"" + SCHEMA + "\")");
            }
            if (!schema.equals(SCHEMA)) {
                throw error(seen.get("schema"), "unsupported schema \"" + schema + "\" (expected \"" + SCHEMA + "\")");
            }
            if (groups == null) {
                throw error(start, "missing field \"groups\" in the topology");
            }
            long tp = tpDegree == null ? 1 : tpDegree;
            if (tp < 1 || tp > 4096) {
                throw error(seen.get("tp_degree"), "\"tp_degree\" must be between 1 and 4096, got " + tp);
            }
            try {
                return new Topology(groups, (int) tp,
                        hashBlockSize == null ? Topology.DEFAULT_HASH_BLOCK_SIZE : hashBlockSize,
                        minSpan == null ? Topology.DEFAULT_MIN_SPAN_TOKENS : minSpan,
                        maxSpan == null ? Long.MAX_VALUE : maxSpan);
            } catch (IllegalArgumentException e) {
                throw error(start, "invalid topology: " + e.getMessage());
            }
        }

        Event.SchedulerStep toStep() throws ReplayException {
            if (step == null) {
                throw error(start, "missing field \"step\" in a step event");
            }
            return new Event.SchedulerStep(step, newRequests == null ? List.of() : newRequests,
                    cached == null ? List.of() : cached, preempted == null ? List.of() : preempted, evidence);
        }
    }
}
