package io.proofgate.replay;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.base.ParserBase;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.json.UTF8StreamJsonParser;

import io.proofgate.json.JsonWords;
import io.proofgate.protocol.BlockIds;
import io.proofgate.protocol.CachedRequests;
import io.proofgate.protocol.Event;
import io.proofgate.protocol.Group;
import io.proofgate.protocol.RawValue;
import io.proofgate.protocol.Topology;
import io.proofgate.words.Formats;
import io.proofgate.words.GroupPolicy;
import io.proofgate.words.Outside;

import java.io.ByteArrayInputStream;
import java.io.CharConversionException;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a {@code proofgate-events/v1} log (protocol §5) one event at a time with Jackson's streaming parser, so memory
 * does not grow with the log. Every structural problem (invalid JSON, an object that is not alone on its line, an
 * unknown kind or field, a missing or mistyped field) is a {@link ReplayException} naming line and column. {@code
 * recurrent_boundary_blocks} is never structural: any JSON value there becomes a {@link RawValue} for the validator to
 * judge.
 *
 * <p>Unknown fields are errors rather than ignored: a misspelt {@code recurrent_boundary_blocks} would otherwise read
 * as absent evidence and silently keep a latch.
 *
 * <p>Positions are taken only when an error is reported (a missing field is located at its object's closing brace), and
 * once per line: building a {@link JsonLocation} for every field or request costs as much as the parse.
 */
public final class EventReader implements Closeable {

    /**
     * Request ids are object keys in {@code recurrent_boundary_blocks}; interning every distinct id (Jackson's default)
     * fills and flushes the JVM-wide intern cache for nothing.
     */
    public static final JsonFactory FACTORY =
            JsonFactory.builder()
                    .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
                    .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build())
                    .build();

    /** Top-level fields, one bit each; a kind allows a subset. */
    private enum Field {
        KIND("kind"),
        SCHEMA("schema"),
        TP_DEGREE("tp_degree"),
        HASH_BLOCK_SIZE("hash_block_size"),
        MIN_SPAN("min_span_tokens"),
        MAX_SPAN("max_span_tokens"),
        GROUPS("groups"),
        STEP("step"),
        NEW("new"),
        CACHED("cached"),
        PREEMPTED("preempted"),
        EVIDENCE("recurrent_boundary_blocks"),
        ID("id"),
        RANK("rank"),
        DIGEST("digest"),
        PROMPT_TOKENS("prompt_tokens"),
        COMPUTED("computed");

        final String wireName;
        final int bit = 1 << ordinal();

        Field(String wireName) {
            this.wireName = wireName;
        }

        static Field of(String name) {
            return switch (name) {
                case "kind" -> KIND;
                case "schema" -> SCHEMA;
                case "tp_degree" -> TP_DEGREE;
                case "hash_block_size" -> HASH_BLOCK_SIZE;
                case "min_span_tokens" -> MIN_SPAN;
                case "max_span_tokens" -> MAX_SPAN;
                case "groups" -> GROUPS;
                case "step" -> STEP;
                case "new" -> NEW;
                case "cached" -> CACHED;
                case "preempted" -> PREEMPTED;
                case "recurrent_boundary_blocks" -> EVIDENCE;
                case "id" -> ID;
                case "rank" -> RANK;
                case "digest" -> DIGEST;
                case "prompt_tokens" -> PROMPT_TOKENS;
                case "computed" -> COMPUTED;
                default -> null;
            };
        }

        /** The fields of {@code kind}; -1 for a kind the log's version does not have. */
        static int allowed(String kind, boolean restores) {
            return switch (kind) {
                case "step" -> bits(KIND, STEP, NEW, CACHED, PREEMPTED, EVIDENCE);
                case "finished" -> bits(KIND, ID);
                case "held" -> bits(KIND, RANK, DIGEST);
                case "lookup" -> restores ? bits(KIND, ID, DIGEST, PROMPT_TOKENS, COMPUTED) : -1;
                case "topology" -> bits(KIND, SCHEMA, TP_DEGREE, HASH_BLOCK_SIZE, MIN_SPAN, MAX_SPAN, GROUPS);
                default -> -1; // an unknown kind is reported as such, not as a foreign field
            };
        }

        private static int bits(Field... fields) {
            int bits = 0;
            for (Field field : fields) {
                bits |= field.bit;
            }
            return bits;
        }
    }

    private static final FieldNames.Known GROUP_FIELDS =
            new FieldNames.Known(List.of("policy", "block_tokens", "window_tokens"));

    /** The fields of a new request and of a cached one, by index (the switches below name the indexes). */
    private static final FieldNames.Known NEW_FIELDS =
            new FieldNames.Known(
                    List.of("id", "digest", "prompt_tokens", "computed", "scheduled", "block_ids", "external"));

    private static final FieldNames.Known CACHED_FIELDS =
            new FieldNames.Known(List.of("id", "computed", "scheduled", "new_block_ids", "resumed"));

    private final JsonParser parser;

    /** Where a step's cached requests are built, and a new request's block lists read; reused. */
    private final CachedRequests.Builder cachedBuilder = new CachedRequests.Builder();

    private final CachedRequests.Builder newBlocks = new CachedRequests.Builder();
    // per reader, not shared: they remember the parser's own name instances
    private final FieldNames groupFields = new FieldNames(GROUP_FIELDS);
    private final FieldNames newFields = new FieldNames(NEW_FIELDS);
    private final FieldNames cachedFields = new FieldNames(CACHED_FIELDS);
    private final Utf8Check.Malformed startFailure;
    private final String source;

    /**
     * Added to the parser's line numbers: 0 for a log read from its start; for a reader from a later line ({@link
     * #fromLine}), the parser counts from a line of its own before that line.
     */
    private final long lineShift;

    private final Utf8Check check;
    private long previousEndLine;
    private Topology topology;
    private int groupCount;

    /** Whether the log is {@link Formats#EVENTS_V2}: lookups, and new requests' external tokens. */
    private boolean restores;

    public EventReader(InputStream in, String source) throws IOException {
        this(in, source, null, 1);
    }

    /**
     * What the parser of a reader from a later line reads before the log's bytes: a line of blanks, so that the
     * parser's guess of the encoding and its skipping of a byte-order mark see these four bytes and never the log's (a
     * byte-order mark or a zero byte in the middle of a log is an error there, as it is for one reader from the start).
     */
    private static final byte[] RESUME_PREFIX = {' ', ' ', ' ', '\n'};

    /**
     * A reader of the events from the start of line {@code firstLine} on, the topology read before: it reads and
     * reports as one reader from the log's start would from that line (every line number and message the same), given
     * that the lines before ended there and were valid.
     */
    static EventReader fromLine(InputStream rest, String source, Topology topology, boolean restores, long firstLine)
            throws IOException {
        EventReader reader =
                new EventReader(
                        new SequenceInputStream(new ByteArrayInputStream(RESUME_PREFIX), rest),
                        source,
                        topology,
                        firstLine);
        reader.restores = restores;
        return reader;
    }

    /** Whether the log is {@link Formats#EVENTS_V2}, with the restore half, once its topology is read (or given). */
    public boolean restores() {
        return restores;
    }

    private EventReader(InputStream in, String source, Topology known, long firstLine) throws IOException {
        this.source = source;
        boolean startsLater = known != null; // a reader from a later line (fromLine)
        // such a parser's first line is the prefix's: the log's line firstLine is its line 2
        this.lineShift = startsLater ? firstLine - 2 : 0;
        this.topology = known;
        this.groupCount = startsLater ? known.groups().size() : 0;
        this.check = new Utf8Check(in, startsLater ? firstLine - 1 : 1);
        JsonParser created = null;
        Utf8Check.Malformed early = null;
        try {
            // A reader from a later line reads one piece of a log, and gets a factory of its own:
            // a parser copies its factory's table of names at its first new name, and adds its own
            // names to that table when it ends, so with one factory each piece's reader copied the
            // request ids of the piece before (10% of a replay's time)
            created = (startsLater ? FACTORY.copy() : FACTORY).createParser(check);
            if (!(created instanceof UTF8StreamJsonParser)) {
                // the parser guesses UTF-16 and UTF-32 from the first bytes; a log is UTF-8
                early = notUtf8();
            }
        } catch (Utf8Check.Malformed e) {
            early = e; // the parser reads ahead as it is made; reported, located, by readTopology
        } catch (CharConversionException e) {
            early = notUtf8(); // found by fuzzing: the guess failed, and its exception named no place
        }
        this.parser = created;
        this.startFailure = early;
    }

    private static Utf8Check.Malformed notUtf8() {
        return new Utf8Check.Malformed(1, 1, "the log is not UTF-8 (its first bytes read as UTF-16 or UTF-32)");
    }

    /** Reads the first line, which must describe the topology. */
    public Topology readTopology() throws ReplayException, IOException {
        return located(this::readTopologyLine);
    }

    /** The next event, or null at the end of the log. */
    public ReplayLine next() throws ReplayException, IOException {
        return located(readNextLine);
    }

    /**
     * Once {@link #next()} returned null, the line a log that went on would go on at (where the reader of the next
     * piece starts); -1 when the parser counted its lines otherwise than by '\n': a '\r' not followed by '\n' ends a
     * line for it, and a reader from a later line takes its first line from the count of '\n', so where the two differ
     * only one reader from here is exact.
     */
    long lineAfterEnd() {
        long counted = parser.currentLocation().getLineNr() + lineShift;
        return counted == check.line() ? counted : -1;
    }

    /** Made once: a method reference made on every call is an allocation per line. */
    private final Read<ReplayLine> readNextLine = this::nextLine;

    /** A read of the parser that may fail outside {@link #nextToken}. */
    @FunctionalInterface
    private interface Read<T> {
        T run() throws ReplayException, IOException;
    }

    /**
     * Runs a read, turning the two failures that surface away from {@link #nextToken} into located errors: the parser
     * decodes a string's text only when it is read, and the bytes are checked for UTF-8 as the parser pulls them in.
     */
    private <T> T located(Read<T> read) throws ReplayException, IOException {
        try {
            return read.run();
        } catch (JsonProcessingException e) {
            throw invalidJson(e);
        } catch (Utf8Check.Malformed e) {
            // the check counts the log's own lines, not the parser's
            throw new ReplayException(source, e.line, e.column, e.getMessage());
        }
    }

    private Topology readTopologyLine() throws ReplayException, IOException {
        if (startFailure != null) {
            throw startFailure;
        }
        if (topology != null) {
            throw new IllegalStateException("topology already read");
        }
        if (!startObject()) {
            throw new ReplayException(source, 1, 1, "empty log: expected a topology line");
        }
        Line line = readLine();
        if (!"topology".equals(line.kind)) {
            throw error(
                    line.startLine,
                    line.startColumn,
                    "the first line must be the topology (kind \"topology\"), found kind " + Outside.quoted(line.kind));
        }
        topology = line.toTopology();
        groupCount = topology.groups().size();
        return topology;
    }

    private ReplayLine nextLine() throws ReplayException, IOException {
        if (topology == null) {
            throw new IllegalStateException("read the topology first");
        }
        if (startFailure != null) {
            throw startFailure; // a reader from a later line reads no topology line to report it
        }
        if (!startObject()) {
            return null;
        }
        Line line = readLine();
        Event event =
                switch (line.kind) {
                    case "step" -> line.toStep();
                    case "finished" -> new Event.Finished(line.require(line.id, Field.ID));
                    case "held" -> new Event.Held(line.rank(), line.require(line.digest, Field.DIGEST));
                    case "lookup" -> {
                        if (!restores) {
                            throw error(
                                    line.kindLine,
                                    line.kindColumn,
                                    "a lookup is an event of "
                                            + Formats.EVENTS_V2
                                            + " (this log's topology says "
                                            + Formats.EVENTS
                                            + ")");
                        }
                        yield line.toLookup();
                    }
                    case "topology" ->
                            throw error(
                                    line.startLine,
                                    line.startColumn,
                                    "a second topology line (only the first line describes the topology)");
                    default ->
                            throw error(
                                    line.kindLine,
                                    line.kindColumn,
                                    "unknown event kind "
                                            + Outside.quoted(line.kind)
                                            + (restores
                                                    ? " (expected step, finished, held, lookup)"
                                                    : " (expected step, finished, held)"));
                };
        return new ReplayLine(event, line.startLine + lineShift, line.startColumn);
    }

    @Override
    public void close() throws IOException {
        if (parser != null) {
            parser.close();
        }
    }

    /** Moves to the next top-level object, which must begin a new line; false at the end. */
    private boolean startObject() throws ReplayException, IOException {
        JsonToken token = nextToken();
        if (token == null) {
            return false;
        }
        if (token != JsonToken.START_OBJECT) {
            throw errorHere("expected a JSON object, found " + describe(token));
        }
        if (lineHere() <= previousEndLine) {
            throw errorHere("a second JSON value on one line (JSON Lines holds one object per line)");
        }
        return true;
    }

    private Line readLine() throws ReplayException, IOException {
        JsonLocation start = parser.currentTokenLocation();
        Line line = new Line(start.getLineNr(), start.getColumnNr());
        while (nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            Field field = Field.of(name);
            if (field == null) {
                throw errorHere("unknown field " + Outside.quoted(name));
            }
            line.mark(field);
            JsonToken value = nextToken();
            switch (field) {
                case KIND -> line.kind(text(value, name));
                case SCHEMA -> {
                    line.schema = text(value, name);
                    line.schemaAt = parser.currentTokenLocation();
                }
                case TP_DEGREE -> line.tpDegree = line.at(field, parser, integer(value, name));
                case HASH_BLOCK_SIZE -> line.hashBlockSize = line.at(field, parser, integer(value, name));
                case MIN_SPAN -> line.minSpan = line.at(field, parser, integer(value, name));
                case MAX_SPAN ->
                        line.maxSpan =
                                line.at(field, parser, value == JsonToken.VALUE_NULL ? null : integer(value, name));
                case GROUPS -> line.groups = line.at(field, parser.currentTokenLocation(), groups(value));
                case STEP -> line.step = integer(value, name);
                case NEW -> line.newRequests = newRequests(value);
                case CACHED -> line.cached = cachedRequests(value);
                case PREEMPTED -> line.preempted = strings(value, name);
                case EVIDENCE -> line.evidence = raw(value);
                case ID -> line.id = text(value, name);
                case RANK -> line.rank = integer(value, name);
                case DIGEST -> line.digest = text(value, name);
                case PROMPT_TOKENS -> line.promptTokens = atLeast(integer(value, name), 1, name);
                case COMPUTED -> line.computed = atLeast(integer(value, name), 0, name);
            }
        }
        long endLine = lineHere(); // the closing brace's line
        if (endLine != line.startLine) {
            throw error(
                    line.startLine,
                    line.startColumn,
                    "the object spans lines "
                            + (line.startLine + lineShift)
                            + " to "
                            + (endLine + lineShift)
                            + " (JSON Lines holds one object per line)");
        }
        previousEndLine = endLine;
        if (line.kind == null) {
            throw error(line.startLine, line.startColumn, "missing field \"kind\"");
        }
        line.rejectEarlyForeignFields();
        return line;
    }

    private List<Group> groups(JsonToken token) throws ReplayException, IOException {
        expect(token, JsonToken.START_ARRAY, "groups", "a list of groups");
        List<Group> groups = new ArrayList<>();
        JsonToken next;
        while ((next = nextToken()) != JsonToken.END_ARRAY) {
            String where = "groups[" + groups.size() + "]";
            JsonLocation start = parser.currentTokenLocation();
            long line = start.getLineNr();
            long column = start.getColumnNr();
            expect(next, JsonToken.START_OBJECT, where, "an object");
            String policyName = null;
            Long blockTokens = null;
            Long window = null;
            int seen = 0;
            while (nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                int field = groupFields.indexOf(name);
                seen = once(seen, field, groupFields, "groups", groups.size());
                switch (field) {
                    case 0 -> policyName = text(nextToken(), name);
                    case 1 -> blockTokens = integer(nextToken(), name);
                    case 2 -> window = integer(nextToken(), name);
                    default -> throw errorHere("unknown field " + Outside.quoted(name) + " in " + where);
                }
            }
            if (policyName == null || blockTokens == null) {
                throw error(
                        line,
                        column,
                        "missing field \"" + (policyName == null ? "policy" : "block_tokens") + "\" in " + where);
            }
            GroupPolicy policy = GroupPolicy.of(policyName).orElse(null);
            if (policy == null) {
                throw error(
                        line,
                        column,
                        "unknown policy "
                                + Outside.quoted(policyName)
                                + " in "
                                + where
                                + " (expected full, sliding, recurrent_align)");
            }
            try {
                groups.add(new Group(groups.size(), policy, blockTokens, window == null ? 0 : window));
            } catch (IllegalArgumentException e) {
                throw error(line, column, e.getMessage() + " in " + where);
            }
        }
        return groups;
    }

    private List<Event.NewRequest> newRequests(JsonToken token) throws ReplayException, IOException {
        expect(token, JsonToken.START_ARRAY, "new", "a list of requests");
        List<Event.NewRequest> requests = new ArrayList<>();
        JsonToken next;
        while ((next = nextToken()) != JsonToken.END_ARRAY) {
            if (next != JsonToken.START_OBJECT) {
                throw mistyped("new[" + requests.size() + "]", "an object", next);
            }
            String id = null;
            String digest = null;
            long prompt = -1;
            long computed = -1;
            long scheduled = -1;
            long external = 0;
            BlockIds blocks = null;
            int seen = 0;
            int field = -1;
            while ((field = nextField(newFields, field + 1)) != END_OF_OBJECT) {
                String name = field >= 0 ? newFields.name(field) : parser.currentName();
                seen = once(seen, field, newFields, "new", requests.size());
                switch (field) {
                    case 0 -> id = text(nextToken(), name);
                    case 1 -> digest = text(nextToken(), name);
                    case 2 -> prompt = atLeast(integer(nextToken(), name), 1, name);
                    case 3 -> computed = atLeast(integer(nextToken(), name), 0, name);
                    case 4 -> scheduled = atLeast(integer(nextToken(), name), 0, name);
                    case 5 -> blocks = blockIds(nextToken(), name);
                    case 6 -> {
                        if (!restores) {
                            throw errorHere(
                                    "\"external\" in new["
                                            + requests.size()
                                            + "] is a field of "
                                            + Formats.EVENTS_V2
                                            + " (this log's topology says "
                                            + Formats.EVENTS
                                            + ")");
                        }
                        external = atLeast(integer(nextToken(), name), 0, name);
                    }
                    default ->
                            throw errorHere(
                                    "unknown field " + Outside.quoted(name) + " in new[" + requests.size() + "]");
                }
            }
            String missing =
                    id == null
                            ? "id"
                            : digest == null
                                    ? "digest"
                                    : prompt < 0
                                            ? "prompt_tokens"
                                            : computed < 0
                                                    ? "computed"
                                                    : scheduled < 0 ? "scheduled" : blocks == null ? "block_ids" : null;
            if (missing != null) {
                // located at the object's closing brace: the hot path takes no position per object
                throw errorHere("missing field \"" + missing + "\" in new[" + requests.size() + "]");
            }
            tokensFit(computed, scheduled, "new", requests.size());
            if (external > computed) {
                throw errorHere(
                        "\"external\" must be at most \"computed\" in new["
                                + requests.size()
                                + "] ("
                                + external
                                + " > "
                                + computed
                                + ")");
            }
            requests.add(new Event.NewRequest(id, digest, prompt, computed, scheduled, blocks, external));
        }
        return requests;
    }

    private CachedRequests cachedRequests(JsonToken token) throws ReplayException, IOException {
        expect(token, JsonToken.START_ARRAY, "cached", "a list of requests");
        CachedRequests.Builder requests = cachedBuilder;
        requests.reset();
        JsonToken next;
        while ((next = nextToken()) != JsonToken.END_ARRAY) {
            if (next != JsonToken.START_OBJECT) {
                throw mistyped("cached[" + requests.size() + "]", "an object", next);
            }
            String id = null;
            long computed = -1;
            long scheduled = -1;
            boolean blocks = false;
            boolean resumed = false;
            int seen = 0;
            int field = -1;
            while ((field = nextField(cachedFields, field + 1)) != END_OF_OBJECT) {
                String name = field >= 0 ? cachedFields.name(field) : parser.currentName();
                seen = once(seen, field, cachedFields, "cached", requests.size());
                switch (field) {
                    case 0 -> id = text(nextToken(), name);
                    case 1 -> computed = atLeast(integer(nextToken(), name), 0, name);
                    case 2 -> scheduled = atLeast(integer(nextToken(), name), 0, name);
                    case 3 -> {
                        blockLists(nextToken(), name, requests);
                        blocks = true;
                    }
                    case 4 -> resumed = bool(nextToken(), name);
                    default ->
                            throw errorHere(
                                    "unknown field " + Outside.quoted(name) + " in cached[" + requests.size() + "]");
                }
            }
            String missing =
                    id == null
                            ? "id"
                            : computed < 0
                                    ? "computed"
                                    : scheduled < 0 ? "scheduled" : !blocks ? "new_block_ids" : null;
            if (missing != null) {
                throw errorHere("missing field \"" + missing + "\" in cached[" + requests.size() + "]");
            }
            tokensFit(computed, scheduled, "cached", requests.size());
            requests.endRequest(id, computed, scheduled, resumed);
        }
        return requests.build();
    }

    /** A new request's {@code block_ids}. */
    private BlockIds blockIds(JsonToken token, String name) throws ReplayException, IOException {
        blockLists(token, name, newBlocks);
        return newBlocks.takeOpenLists();
    }

    /** Reads a request's block lists, one per group, into {@code into} as its open lists. */
    private void blockLists(JsonToken token, String name, CachedRequests.Builder into)
            throws ReplayException, IOException {
        if (topology == null) {
            throw errorHere("\"" + name + "\" does not belong to the topology line");
        }
        expect(token, JsonToken.START_ARRAY, name, "a list with one list of block ids per group");
        into.dropOpenLists();
        int group = 0;
        JsonToken next;
        while ((next = nextToken()) != JsonToken.END_ARRAY) {
            if (next != JsonToken.START_ARRAY) {
                throw mistyped(name + "[" + group + "]", "a list of block ids", next);
            }
            into.startList();
            int count = 0;
            while ((next = nextToken()) != JsonToken.END_ARRAY) {
                if (next != JsonToken.VALUE_NUMBER_INT) {
                    throw mistyped(name + "[" + group + "][" + count + "]", "an integer", next);
                }
                into.addBlock(longValue(name));
                count++;
            }
            group++;
        }
        if (group != groupCount) {
            throw errorHere("\"" + name + "\" has " + group + " group lists, the topology has " + groupCount);
        }
    }

    private List<String> strings(JsonToken token, String name) throws ReplayException, IOException {
        expect(token, JsonToken.START_ARRAY, name, "a list of request ids");
        List<String> values = new ArrayList<>();
        JsonToken next;
        while ((next = nextToken()) != JsonToken.END_ARRAY) {
            if (next != JsonToken.VALUE_STRING) {
                throw mistyped(name + "[" + values.size() + "]", "a string", next); // named only on failure
            }
            values.add(parser.getText());
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
            case VALUE_NUMBER_INT ->
                    switch (parser.getNumberType()) {
                        case INT, LONG -> new RawValue.Int(parser.getLongValue());
                        default -> new RawValue.Big(parser.getBigIntegerValue());
                    };
            case START_ARRAY -> new RawValue.ListOf(items());
            case START_OBJECT -> {
                Map<String, RawValue> entries = new LinkedHashMap<>();
                while (nextToken() == JsonToken.FIELD_NAME) {
                    String key = parser.currentName();
                    if (entries.containsKey(key)) {
                        // protocol §5: a key appears at most once in every object; two values for
                        // one request have no single meaning, and the real connector keeps the last
                        throw errorHere(
                                "key "
                                        + Outside.quoted(key)
                                        + " appears twice in an object of recurrent_boundary_blocks");
                    }
                    entries.put(key, raw(nextToken()));
                }
                yield new RawValue.MapOf(entries);
            }
            default -> throw errorHere("unexpected " + describe(token));
        };
    }

    /**
     * The items of a list whose opening bracket was just read. Evidence is lists of one entry of three integers, so up
     * to three items are held in locals and the list is made at its size, with no growing list to copy from; a longer
     * list grows as usual.
     */
    private List<RawValue> items() throws ReplayException, IOException {
        JsonToken next = nextToken();
        if (next == JsonToken.END_ARRAY) {
            return List.of();
        }
        RawValue first = raw(next);
        if ((next = nextToken()) == JsonToken.END_ARRAY) {
            return List.of(first);
        }
        RawValue second = raw(next);
        if ((next = nextToken()) == JsonToken.END_ARRAY) {
            return List.of(first, second);
        }
        RawValue third = raw(next);
        if ((next = nextToken()) == JsonToken.END_ARRAY) {
            return List.of(first, second, third);
        }
        List<RawValue> items = new ArrayList<>(8);
        items.add(first);
        items.add(second);
        items.add(third);
        do {
            items.add(raw(next));
        } while ((next = nextToken()) != JsonToken.END_ARRAY);
        return items;
    }

    /**
     * Marks field {@code index} of {@code fields} seen in element {@code element} of {@code list}; a known field seen
     * twice is an error here (protocol §5), an unknown one (index -1) is reported by the caller.
     */
    private int once(int seen, int index, FieldNames fields, String list, int element) throws ReplayException {
        if (index < 0) {
            return seen;
        }
        if ((seen & (1 << index)) != 0) {
            // worded only here: this runs for every field of every request
            throw errorHere("field \"" + fields.name(index) + "\" appears twice in " + list + "[" + element + "]");
        }
        return seen | (1 << index);
    }

    /** What {@link #nextField} returns at the object's closing brace. */
    private static final int END_OF_OBJECT = -2;

    /**
     * Moves to the next field of the current object: its index in {@code fields}, -1 for a field that is not one of
     * them, or {@link #END_OF_OBJECT}. Field {@code expected} is tried first (logs write a request's fields in one
     * order), its name compared as bytes where it stands; any other name is read and matched as usual, so the order is
     * a fast path, not a rule.
     */
    private int nextField(FieldNames fields, int expected) throws ReplayException, IOException {
        JsonToken token;
        if (expected < fields.size()) {
            try {
                if (parser.nextFieldName(fields.serialized(expected))) {
                    return expected;
                }
            } catch (JsonProcessingException e) {
                throw invalidJson(e);
            }
            token = parser.currentToken();
        } else {
            token = nextToken();
        }
        if (token != JsonToken.FIELD_NAME) {
            return END_OF_OBJECT; // inside an object the parser gives a name or the closing brace
        }
        return fields.indexOf(parser.currentName());
    }

    private JsonToken nextToken() throws ReplayException, IOException {
        try {
            return parser.nextToken();
        } catch (JsonProcessingException e) {
            throw invalidJson(e);
        }
    }

    private ReplayException invalidJson(JsonProcessingException e) {
        JsonLocation at = e.getLocation() != null ? e.getLocation() : parser.currentLocation();
        String message = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        java.util.regex.Matcher unexpected = UNEXPECTED.matcher(message);
        int code = unexpected.matches() ? Integer.parseInt(unexpected.group(1)) : -1;
        // The parser decodes a character outside ASCII only where a field name must start; elsewhere
        // it names the character's first byte as if it were the character ("Ã" for an "é"), at that byte.
        boolean leadByte = code >= 0x80 && code <= 0xff && !message.contains("to start field name");
        String problem;
        if (message.startsWith("Invalid UTF-8")) {
            // said of a character outside ASCII where a value must start; every byte the parser reads
            // has passed the UTF-8 check, so the bytes are UTF-8 and the character cannot stand there
            problem =
                    "a character outside ASCII where a JSON value must start (the bytes are UTF-8; JSON allows only"
                            + " space, tab and newlines between values)";
        } else if (leadByte) {
            problem =
                    JsonWords.of(e, lineShift)
                            .replaceFirst(
                                    ", found \".*\"$",
                                    java.util.regex.Matcher.quoteReplacement(
                                            ", found a character outside ASCII (its first byte 0x"
                                                    + Integer.toHexString(code)
                                                    + ")"));
        } else {
            problem = JsonWords.of(e, lineShift);
        }
        return error(at.getLineNr(), at.getColumnNr() - behind(message, code, leadByte), "invalid JSON: " + problem);
    }

    private static final java.util.regex.Pattern UNEXPECTED =
            java.util.regex.Pattern.compile(
                    "^Unexpected character \\('.{1,2}' \\(code (\\d+).*", java.util.regex.Pattern.DOTALL);
    private static final java.util.regex.Pattern NUMBER_LENGTH =
            java.util.regex.Pattern.compile("^Number value length \\((\\d+)\\).*", java.util.regex.Pattern.DOTALL);

    /**
     * How far the parser's place (a byte on the line) is past the start of what is wrong: it names the place after a
     * control character outside a string, the last byte of a character of several bytes it decoded ({@code code}, -1
     * for none), the place after the second byte of one it calls invalid UTF-8, and the end of a number that is too
     * long (whose length it states).
     */
    private static long behind(String parserMessage, int code, boolean leadByte) {
        if (parserMessage.startsWith("Illegal character ((CTRL-CHAR")) {
            return 1;
        }
        if (parserMessage.startsWith("Invalid UTF-8 start byte")) {
            return 2;
        }
        if (code >= 0 && !leadByte) {
            return code < 0x80 ? 0 : code < 0x800 ? 1 : code < 0x10000 ? 2 : 3;
        }
        java.util.regex.Matcher number = NUMBER_LENGTH.matcher(parserMessage);
        return number.matches() ? Long.parseLong(number.group(1)) : 0;
    }

    private String text(JsonToken token, String name) throws ReplayException, IOException {
        if (token != JsonToken.VALUE_STRING) {
            throw mistyped(name, "a string", token);
        }
        return parser.getText();
    }

    private long integer(JsonToken token, String name) throws ReplayException, IOException {
        if (token != JsonToken.VALUE_NUMBER_INT) {
            throw mistyped(name, "an integer", token);
        }
        return longValue(name);
    }

    private long longValue(String name) throws ReplayException, IOException {
        try {
            return parser.getLongValue();
        } catch (InputCoercionException e) {
            // the parser's own words for this name the Java type; the log's reader needs the field
            throw errorHere("\"" + name + "\" is out of range: " + parser.getText());
        }
    }

    private boolean bool(JsonToken token, String name) throws ReplayException {
        if (token == JsonToken.VALUE_TRUE || token == JsonToken.VALUE_FALSE) {
            return token == JsonToken.VALUE_TRUE;
        }
        throw mistyped(name, "a boolean", token);
    }

    /**
     * done = computed + scheduled must be a token count (regression: it overflowed and left the request pending). The
     * request is named by its list and place only on failure: a name built for every request was a tenth of a replay's
     * allocation.
     */
    private void tokensFit(long computed, long scheduled, String list, int element) throws ReplayException {
        if (computed > Long.MAX_VALUE - scheduled) {
            throw errorHere(
                    "\"computed\" + \"scheduled\" is beyond 2^63-1 tokens in "
                            + list
                            + "["
                            + element
                            + "] ("
                            + computed
                            + " + "
                            + scheduled
                            + ")");
        }
    }

    private long atLeast(long value, long minimum, String name) throws ReplayException {
        if (value < minimum) {
            throw errorHere("\"" + name + "\" must be >= " + minimum + ", got " + value);
        }
        return value;
    }

    private void expect(JsonToken token, JsonToken wanted, String name, String what) throws ReplayException {
        if (token != wanted) {
            throw mistyped(name, what, token);
        }
    }

    private ReplayException mistyped(String name, String wanted, JsonToken found) {
        return errorHere("\"" + name + "\" must be " + wanted + ", found " + describe(found));
    }

    private long tokenLine() {
        return parser.currentTokenLocation().getLineNr();
    }

    /**
     * The line of the current token, which is not a field name, without building a location object (several per line
     * otherwise); the same row {@link #tokenLine} reads.
     */
    private long lineHere() {
        return ((ParserBase) parser).getTokenLineNr();
    }

    private long tokenColumn() {
        return parser.currentTokenLocation().getColumnNr();
    }

    private ReplayException errorHere(String problem) {
        return error(tokenLine(), tokenColumn(), problem);
    }

    /** An error at the parser's {@code line}. */
    private ReplayException error(long line, long column, String problem) {
        return new ReplayException(source, line + lineShift, column, problem);
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

    /** The fields of one top-level line; which are allowed depends on its kind. */
    private final class Line {
        final long startLine;
        final long startColumn;
        int seen;
        int allowed = -1;

        /** Fields read before "kind", with their positions, to check once the kind is known. */
        List<Object[]> early;

        String kind;
        long kindLine;
        long kindColumn;
        String schema;
        JsonLocation schemaAt;

        /**
         * Where each of the topology's values starts, for its errors; null on other lines. A topology is one line of a
         * log, so its locations cost the step lines nothing.
         */
        Map<Field, JsonLocation> topologyAt;

        Long tpDegree;
        Long hashBlockSize;
        Long minSpan;
        Long maxSpan;
        List<Group> groups;
        Long step;
        List<Event.NewRequest> newRequests;
        CachedRequests cached;
        List<String> preempted;
        RawValue evidence = RawValue.ABSENT;
        String id;
        Long rank;
        String digest;
        Long promptTokens;
        Long computed;

        Line(long startLine, long startColumn) {
            this.startLine = startLine;
            this.startColumn = startColumn;
        }

        /** Called at the field's name: duplicates and fields foreign to a known kind fail here, located. */
        void mark(Field field) throws ReplayException {
            if ((seen & field.bit) != 0) {
                throw errorHere("field \"" + field.wireName + "\" appears twice");
            }
            seen |= field.bit;
            if (field == Field.KIND) {
                return; // allowed in every kind, and the first field of a line as logs are written
            }
            if (kind == null) {
                if (early == null) {
                    early = new ArrayList<>(2);
                }
                early.add(new Object[] {field, tokenLine(), tokenColumn()});
            } else if ((allowed & field.bit) == 0) {
                throw errorHere("field \"" + field.wireName + "\" does not belong to a " + kind + " event");
            }
        }

        void kind(String value) {
            kind = value;
            allowed = Field.allowed(value, restores);
            if (allowed == -1) { // only an unknown kind is reported at the kind's own place
                kindLine = tokenLine();
                kindColumn = tokenColumn();
            }
        }

        void rejectEarlyForeignFields() throws ReplayException {
            if (early == null) {
                return;
            }
            for (Object[] entry : early) {
                Field field = (Field) entry[0];
                if ((allowed & field.bit) == 0) {
                    throw error(
                            (long) entry[1],
                            (long) entry[2],
                            "field \"" + field.wireName + "\" does not belong to a " + kind + " event");
                }
            }
        }

        String require(String value, Field field) throws ReplayException {
            if (value == null) {
                throw error(startLine, startColumn, "missing field \"" + field.wireName + "\" in a " + kind + " event");
            }
            return value;
        }

        int rank() throws ReplayException {
            if (rank == null) {
                throw error(startLine, startColumn, "missing field \"rank\" in a held event");
            }
            if (rank < Integer.MIN_VALUE || rank > Integer.MAX_VALUE) {
                throw error(startLine, startColumn, "\"rank\" is out of range: " + rank);
            }
            return rank.intValue();
        }

        /** {@code value}, with where it starts in the line: the value the parser read last. */
        <T> T at(Field field, JsonParser parser, T value) {
            return at(field, parser.currentTokenLocation(), value);
        }

        <T> T at(Field field, JsonLocation at, T value) {
            if (topologyAt == null) {
                topologyAt = new java.util.EnumMap<>(Field.class);
            }
            topologyAt.put(field, at);
            return value;
        }

        /** An error of the topology at the value of {@code field} (of the first that is given), else at the line. */
        private ReplayException topologyError(String problem, Field... fields) {
            for (Field field : fields) {
                JsonLocation at = topologyAt == null ? null : topologyAt.get(field);
                if (at != null) {
                    return error(at.getLineNr(), at.getColumnNr(), problem);
                }
            }
            return error(startLine, startColumn, problem);
        }

        Topology toTopology() throws ReplayException {
            if (schema == null) {
                throw error(
                        startLine,
                        startColumn,
                        "missing field \"schema\" in the topology (expected \""
                                + Formats.EVENTS
                                + "\" or \""
                                + Formats.EVENTS_V2
                                + "\")");
            }
            if (!schema.equals(Formats.EVENTS) && !schema.equals(Formats.EVENTS_V2)) {
                throw error(
                        schemaAt.getLineNr(),
                        schemaAt.getColumnNr(),
                        "unsupported schema "
                                + Outside.quoted(schema)
                                + " (expected \""
                                + Formats.EVENTS
                                + "\" or \""
                                + Formats.EVENTS_V2
                                + "\")");
            }
            restores = schema.equals(Formats.EVENTS_V2);
            if (groups == null) {
                throw error(startLine, startColumn, "missing field \"groups\" in the topology");
            }
            long tp = tpDegree == null ? 1 : tpDegree;
            if (tp < 1 || tp > 4096) {
                throw topologyError("\"tp_degree\" must be between 1 and 4096, got " + tp, Field.TP_DEGREE);
            }
            long hash = hashBlockSize == null ? Topology.DEFAULT_HASH_BLOCK_SIZE : hashBlockSize;
            long min = minSpan == null ? Topology.DEFAULT_MIN_SPAN_TOKENS : minSpan;
            long max = maxSpan == null ? Long.MAX_VALUE : maxSpan;
            try {
                return new Topology(groups, (int) tp, hash, min, max);
            } catch (IllegalArgumentException e) {
                // the record's own check says what is wrong; this says where
                String problem = "invalid topology: " + e.getMessage();
                if (groups.isEmpty()) {
                    throw topologyError(problem, Field.GROUPS);
                }
                if (hash < 1) {
                    throw topologyError(problem, Field.HASH_BLOCK_SIZE);
                }
                throw topologyError(problem, min < 0 ? Field.MIN_SPAN : Field.MAX_SPAN, Field.MIN_SPAN);
            }
        }

        Event.Lookup toLookup() throws ReplayException {
            String request = require(id, Field.ID);
            String prefix = require(digest, Field.DIGEST);
            if (promptTokens == null || computed == null) {
                throw error(
                        startLine,
                        startColumn,
                        "missing field \""
                                + (promptTokens == null ? "prompt_tokens" : "computed")
                                + "\" in a lookup event");
            }
            if (computed >= promptTokens) {
                throw error(
                        startLine,
                        startColumn,
                        "\"computed\" must be below \"prompt_tokens\" in a lookup event ("
                                + computed
                                + " >= "
                                + promptTokens
                                + ")");
            }
            return new Event.Lookup(request, prefix, promptTokens, computed);
        }

        Event.Step toStep() throws ReplayException {
            if (step == null) {
                throw error(startLine, startColumn, "missing field \"step\" in a step event");
            }
            return new Event.Step(
                    step,
                    newRequests == null ? List.of() : newRequests,
                    cached == null ? CachedRequests.of(List.of()) : cached,
                    preempted == null ? List.of() : preempted,
                    evidence);
        }
    }
}
