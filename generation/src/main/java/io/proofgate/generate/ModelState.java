package io.proofgate.generate;

import io.proofgate.format.ReplaySummary;
import io.proofgate.format.StateLine;
import io.proofgate.value.TlaState;
import io.proofgate.value.TlaValue;
import io.proofgate.value.TlaValuePrinter;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads one state of the spec the way a conformance script states it: the event that led to it ({@code lastEvent}), the
 * verdicts it produced ({@code lastVerdicts}), and the connector's observable state ({@code pending}, the four
 * counters). The lines are written from the model's values alone, as {@link StateLine}s, in which the script runner
 * writes the validator's state too.
 */
final class ModelState {

    private final TlaState state;

    ModelState(TlaState state) {
        this.state = state;
    }

    TlaValue.TlaRecord lastEvent() {
        return record(variable("lastEvent"), "lastEvent");
    }

    String eventKind() {
        return string(field(lastEvent(), "kind"));
    }

    /**
     * Whether the model states what vLLM's blocks hold after each event ({@code lastContents}) instead of a connector's
     * verdicts and state: a model of vLLM alone (MCAlignPoolGen.tla).
     */
    boolean statesContents() {
        return state.get("lastContents").isPresent();
    }

    /** What every block holds after this state's event, and which it let go ({@code lastContents}). */
    StateLine.Contents contents() {
        TlaValue.TlaRecord contents = record(variable("lastContents"), "lastContents");
        java.util.SortedMap<Long, String> blocks = new java.util.TreeMap<>();
        List<TlaValue> holds = sequence(field(contents, "blocks"));
        for (int i = 0; i < holds.size(); i++) {
            blocks.put(i + 1L, string(holds.get(i)));
        }
        java.util.SortedSet<Long> released = new java.util.TreeSet<>();
        if (!(field(contents, "released") instanceof TlaValue.TlaSet(List<TlaValue> ids))) {
            throw new IllegalArgumentException(
                    "lastContents.released is not a set: " + TlaValuePrinter.print(contents));
        }
        ids.forEach(id -> released.add(integer(id)));
        return new StateLine.Contents(blocks, released);
    }

    /** The expected lines after this state's event: verdicts, pending stores, counters; or the blocks' contents. */
    List<String> expectedLines() {
        if (statesContents()) {
            return new ArrayList<>(List.of(contents().text()));
        }
        List<String> lines = verdictLines();
        Map<String, TlaValue.TlaRecord> pending = pending();
        if (pending.isEmpty()) {
            lines.add(new StateLine.NoPending().text());
        }
        pending.forEach(
                (id, store) ->
                        lines.add(
                                new StateLine.Pending(
                                                id,
                                                String.valueOf(integer(field(store, "done"))),
                                                blocks(field(store, "table")),
                                                pairs(field(store, "latch")))
                                        .text()));
        held().forEach((digest, ranks) -> lines.add(new StateLine.Held(digest, ranks).text()));
        lines.add(counters().text());
        return lines;
    }

    /** The connector's four counters in the model's variables. */
    private StateLine.Counters counters() {
        return new StateLine.Counters(
                String.valueOf(integer(variable("plans"))),
                String.valueOf(integer(variable("rejected"))),
                String.valueOf(integer(variable("skippedQuorum"))),
                String.valueOf(integer(variable("retiredFinished"))));
    }

    /**
     * What replay's summary line states, in comparable words: the four counters, the pending request ids in String
     * order, and the non-empty latches.
     */
    String summaryLine() {
        if (statesContents()) {
            return "summary " + contents().text();
        }
        Map<String, TlaValue.TlaRecord> pending = pending();
        Map<String, String> latched = new java.util.LinkedHashMap<>();
        pending.forEach(
                (id, store) -> {
                    String latch = pairs(field(store, "latch"));
                    if (!latch.equals("[]")) {
                        latched.put(id, latch);
                    }
                });
        return new ReplaySummary(counters(), "0", List.copyOf(pending.keySet()), latched).words();
    }

    /** The verdicts the state's event produced, in output order. */
    List<TlaValue.TlaRecord> verdicts() {
        if (statesContents()) {
            return List.of(); // vLLM alone: no connector's verdicts
        }
        return sequence(variable("lastVerdicts")).stream().map(v -> record(v, "verdict")).toList();
    }

    /** The pending stores after the state's event, by request id. */
    Map<String, TlaValue.TlaRecord> pendingStores() {
        return pending();
    }

    /** The verdict lines only, for naming and grouping tests. */
    List<String> verdictLines() {
        List<String> lines = new ArrayList<>();
        for (StateLine.Verdict line : stateVerdicts()) {
            lines.add(line.text());
        }
        return lines;
    }

    /** The verdicts the state's event produced, as the scenario states them, in output order. */
    List<StateLine.Verdict> stateVerdicts() {
        List<StateLine.Verdict> lines = new ArrayList<>();
        if (statesContents()) {
            return lines; // vLLM alone: no connector's verdicts
        }
        for (TlaValue verdict : sequence(variable("lastVerdicts"))) {
            lines.add(verdictLine(record(verdict, "verdict")));
        }
        return lines;
    }

    private static StateLine.Verdict verdictLine(TlaValue.TlaRecord verdict) {
        String kind = string(field(verdict, "kind"));
        String id = string(field(verdict, "id"));
        StateLine.Verdict line =
                switch (kind) {
                    case "plan" ->
                            new StateLine.Plan(
                                    id,
                                    string(field(verdict, "digest")),
                                    String.valueOf(integer(field(verdict, "span"))),
                                    blocks(field(verdict, "blocks_by_group")),
                                    pairs(field(verdict, "recurrent")));
                    case "rejected" -> new StateLine.Rejected(id, string(field(verdict, "code")), facts(verdict));
                    case "retired" -> new StateLine.Retired(id, string(field(verdict, "cause")));
                    case "hit" -> new StateLine.Hit(id, String.valueOf(integer(field(verdict, "tokens"))));
                    case "load" ->
                            new StateLine.Load(
                                    id,
                                    string(field(verdict, "digest")),
                                    String.valueOf(integer(field(verdict, "span"))),
                                    blocks(field(verdict, "blocks_by_group")));
                    default ->
                            throw new IllegalArgumentException(
                                    "unknown verdict kind \"" + kind + "\": " + TlaValuePrinter.print(verdict));
                };
        return line;
    }

    /**
     * The order in which a rejection's reason states its facts (docs/protocol.md, "Reasons"); every field of a spec
     * verdict but kind, id and code must be one of them.
     */
    private static final List<String> FACT_ORDER =
            List.of(
                    "observed",
                    "target",
                    "group",
                    "block",
                    "entry",
                    "length",
                    "element",
                    "found",
                    "policy",
                    "first",
                    "latched",
                    "problem");

    private static final List<String> VERDICT_HEAD = List.of("kind", "id", "code");

    private static List<String> facts(TlaValue.TlaRecord verdict) {
        for (TlaValue.Field field : verdict.fields()) {
            if (!VERDICT_HEAD.contains(field.name()) && !FACT_ORDER.contains(field.name())) {
                throw new IllegalArgumentException(
                        "rejected verdict has an unknown fact \""
                                + field.name()
                                + "\": "
                                + TlaValuePrinter.print(verdict));
            }
        }
        List<String> facts = new ArrayList<>();
        for (String name : FACT_ORDER) {
            verdict.get(name)
                    .ifPresent(
                            value ->
                                    facts.add(
                                            name
                                                    + "="
                                                    + switch (value) {
                                                        case TlaValue.TlaInt(long number) -> Long.toString(number);
                                                        case TlaValue.TlaString(String word) -> word;
                                                        default ->
                                                                throw new IllegalArgumentException(
                                                                        "fact "
                                                                                + name
                                                                                + " is neither a number nor a string: "
                                                                                + TlaValuePrinter.print(verdict));
                                                    }));
        }
        return facts;
    }

    /** Ranks holding each digest, for digests that at least one rank holds, in String order. */
    private Map<String, String> held() {
        Map<String, String> held = new TreeMap<>();
        TlaValue.TlaRecord byDigest = record(variable("held"), "held");
        for (TlaValue.Field field : byDigest.fields()) {
            if (!(field.value() instanceof TlaValue.TlaSet(List<TlaValue> ranks))) {
                throw new IllegalArgumentException(
                        "held[" + field.name() + "] is not a set: " + TlaValuePrinter.print(field.value()));
            }
            if (!ranks.isEmpty()) {
                held.put(
                        field.name(),
                        ranks.stream()
                                .map(ModelState::integer)
                                .sorted()
                                .map(String::valueOf)
                                .collect(java.util.stream.Collectors.joining(",", "[", "]")));
            }
        }
        return held;
    }

    /** Pending stores by request id in Java's String order (the validator's TreeMap order). */
    private Map<String, TlaValue.TlaRecord> pending() {
        Map<String, TlaValue.TlaRecord> stores = new TreeMap<>();
        switch (variable("pending")) {
            case TlaValue.TlaFunction function ->
                    function.pairs()
                            .forEach(pair -> stores.put(string(pair.key()), record(pair.value(), "pending store")));
            case TlaValue.TlaSeq seq when seq.elements().isEmpty() -> {}
            // TLC prints a function whose domain is a set of strings as a record.
            case TlaValue.TlaRecord record ->
                    record.fields().forEach(field -> stores.put(field.name(), record(field.value(), "pending store")));
            case TlaValue other ->
                    throw new IllegalArgumentException(
                            "pending is not a function of ids: " + TlaValuePrinter.print(other));
        }
        return stores;
    }

    /** Sequences of sequences of block ids, as BlockIds prints them: [[11,12,13],[42]]. */
    private static String blocks(TlaValue value) {
        StringBuilder text = new StringBuilder("[");
        List<TlaValue> groups = sequence(value);
        for (int g = 0; g < groups.size(); g++) {
            text.append(g == 0 ? "" : ",").append('[');
            List<TlaValue> ids = sequence(groups.get(g));
            for (int i = 0; i < ids.size(); i++) {
                text.append(i == 0 ? "" : ",").append(integer(ids.get(i)));
            }
            text.append(']');
        }
        return text.append(']').toString();
    }

    /** (group, block) pairs of a latch (a set) or a plan's recurrent list, sorted by group then block. */
    private static String pairs(TlaValue value) {
        List<long[]> pairs = new ArrayList<>();
        List<TlaValue> elements =
                switch (value) {
                    case TlaValue.TlaSet set -> set.elements();
                    case TlaValue.TlaSeq seq -> seq.elements();
                    default ->
                            throw new IllegalArgumentException(
                                    "expected a set or sequence of pairs: " + TlaValuePrinter.print(value));
                };
        for (TlaValue element : elements) {
            List<TlaValue> pair = sequence(element);
            pairs.add(new long[] {integer(pair.get(0)), integer(pair.get(1))});
        }
        pairs.sort(Comparator.<long[]>comparingLong(p -> p[0]).thenComparingLong(p -> p[1]));
        StringBuilder text = new StringBuilder("[");
        for (int i = 0; i < pairs.size(); i++) {
            text.append(i == 0 ? "" : ",")
                    .append('[')
                    .append(pairs.get(i)[0])
                    .append(',')
                    .append(pairs.get(i)[1])
                    .append(']');
        }
        return text.append(']').toString();
    }

    private TlaValue variable(String name) {
        return state.get(name)
                .orElseThrow(
                        () ->
                                new IllegalArgumentException(
                                        "the state has no variable \""
                                                + name
                                                + "\" (is this the proofgate Publication spec?)"));
    }

    static TlaValue field(TlaValue.TlaRecord record, String name) {
        return record.get(name)
                .orElseThrow(
                        () ->
                                new IllegalArgumentException(
                                        "record has no field \"" + name + "\": " + TlaValuePrinter.print(record)));
    }

    /** A record; a function on strings (what {@code @@} of records gives) counts as one. */
    static TlaValue.TlaRecord record(TlaValue value, String what) {
        if (value instanceof TlaValue.TlaRecord record) {
            return record;
        }
        if (value instanceof TlaValue.TlaFunction function
                && function.pairs().stream().allMatch(pair -> pair.key() instanceof TlaValue.TlaString)) {
            return new TlaValue.TlaRecord(
                    function.pairs().stream()
                            .map(pair -> new TlaValue.Field(((TlaValue.TlaString) pair.key()).value(), pair.value()))
                            .toList());
        }
        throw new IllegalArgumentException(what + " is not a record: " + TlaValuePrinter.print(value));
    }

    /** A sequence; TLC prints the empty function as {@code <<>>} too. */
    static List<TlaValue> sequence(TlaValue value) {
        if (value instanceof TlaValue.TlaSeq(List<TlaValue> elements)) {
            return elements;
        }
        throw new IllegalArgumentException("expected a sequence: " + TlaValuePrinter.print(value));
    }

    static String string(TlaValue value) {
        if (value instanceof TlaValue.TlaString(String text)) {
            return text;
        }
        throw new IllegalArgumentException("expected a string: " + TlaValuePrinter.print(value));
    }

    static long integer(TlaValue value) {
        if (value instanceof TlaValue.TlaInt(long number)) {
            return number;
        }
        throw new IllegalArgumentException("expected an integer: " + TlaValuePrinter.print(value));
    }
}
