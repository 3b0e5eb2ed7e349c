package io.proofgate.conform;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import io.proofgate.format.ScenarioBlock;
import io.proofgate.format.ScenarioFile;
import io.proofgate.format.ScenarioFormatException;
import io.proofgate.format.ScenarioStep;
import io.proofgate.format.StateLine;
import io.proofgate.json.JsonPlaces;
import io.proofgate.words.Capability;
import io.proofgate.words.CopyTiming;
import io.proofgate.words.GroupPolicy;
import io.proofgate.words.Outside;
import io.proofgate.words.PoisonCode;
import io.proofgate.words.RetireCause;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Reads the scenarios under a folder: generated {@code *.scenarios} files (docs/generation.md, "Scenario files", read
 * by {@link ScenarioFile}) and hand-written {@code NAME.jsonl} logs with {@code NAME.expected} beside them ({@code
 * replay}'s output). Files are read in path order, so a run's order is the same on every machine. A malformed file is a
 * {@link ConformException} at {@code FILE:LINE:COLUMN}.
 */
public final class ScenarioReader {

    private ScenarioReader() {}

    public static List<Scenario> read(Path root) throws ConformException {
        if (!Files.isDirectory(root)) {
            throw new ConformException(root + ": not a folder of scenarios");
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new ConformException(root + ": cannot be read (a file or folder under it is not readable)");
        }
        List<Scenario> scenarios = new ArrayList<>();
        for (Path file : files) {
            String name = file.getFileName().toString();
            if (name.endsWith(".scenarios")) {
                scenarios.addAll(generated(root, file));
            } else if (name.endsWith(".jsonl")) {
                scenarios.add(handWritten(root, file));
            } else if (name.endsWith(".expected")
                    && !Files.exists(
                            file.resolveSibling(name.substring(0, name.length() - ".expected".length()) + ".jsonl"))) {
                throw new ConformException(
                        Outside.at(file, 1, 1)
                                + "an expected output without its log "
                                + name.substring(0, name.length() - ".expected".length())
                                + ".jsonl beside it");
            }
        }
        return scenarios;
    }

    /**
     * The largest scenario file read (a generated file, a hand-written log or its expected output): every scenario is
     * held in memory for the run, so a larger file is refused before it is read (docs/conformance.md, "Limits").
     */
    public static final long MAX_FILE_BYTES = 256L << 20;

    /** The longest line of a scenario file, an event's included: it is sent to the adapter whole. */
    public static final int MAX_LINE_BYTES = 4 << 20;

    /**
     * The file's lines, read one at a time (never the whole file as one array), each checked to be UTF-8 and within
     * {@link #MAX_LINE_BYTES}; refused with its place otherwise.
     */
    private static List<String> lines(Path file) throws ConformException {
        try {
            long size = Files.size(file);
            if (size > MAX_FILE_BYTES) {
                throw new ConformException(
                        Outside.bare(file.toString())
                                + ": "
                                + String.format("%,d", size)
                                + " bytes, over the limit of "
                                + (MAX_FILE_BYTES >> 20)
                                + " MiB for a scenario file (every scenario is held in memory for the run)");
            }
            List<String> lines = new ArrayList<>();
            try (java.io.InputStream in = new java.io.BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
                java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream(256);
                for (int b = in.read(); ; b = in.read()) {
                    if (b == '\n' || b < 0) {
                        lines.add(decode(file, lines.size() + 1, line.toByteArray()));
                        line.reset();
                        if (b < 0) {
                            return lines;
                        }
                    } else if (line.size() == MAX_LINE_BYTES) {
                        throw new ConformException(
                                Outside.bare(file.toString())
                                        + ":"
                                        + (lines.size() + 1)
                                        + ":1: a line of more than "
                                        + (MAX_LINE_BYTES >> 20)
                                        + " MiB, over the limit for a line of a scenario file");
                    } else {
                        line.write(b);
                    }
                }
            }
        } catch (NoSuchFileException e) {
            throw new ConformException(Outside.bare(file.toString()) + ": no such file");
        } catch (IOException e) {
            throw new ConformException(Outside.bare(file.toString()) + ": cannot be read: " + e.getMessage());
        }
    }

    /** One line's text; a byte that is not UTF-8 is refused at its line and character, as an editor counts them. */
    private static String decode(Path file, int number, byte[] bytes) throws ConformException {
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(bytes);
        java.nio.CharBuffer out = java.nio.CharBuffer.allocate(bytes.length);
        java.nio.charset.CoderResult result = StandardCharsets.UTF_8.newDecoder().decode(in, out, true);
        if (result.isError()) {
            String before = new String(bytes, 0, in.position(), StandardCharsets.UTF_8);
            throw new ConformException(
                    Outside.bare(file.toString())
                            + ":"
                            + number
                            + ":"
                            + (before.codePointCount(0, before.length()) + 1)
                            + ": not UTF-8 (byte 0x"
                            + String.format("%02x", bytes[in.position()] & 0xff)
                            + ")");
        }
        return out.flip().toString();
    }

    private static String suite(Path root, Path file, boolean folder) {
        Path relative = root.relativize(folder ? file.getParent() : file);
        String text = relative.toString().replace('\\', '/');
        if (!folder) {
            text = text.substring(0, text.lastIndexOf('.'));
        }
        return text.isEmpty() ? root.toAbsolutePath().normalize().getFileName().toString() : text;
    }

    // ---- generated files

    private static List<Scenario> generated(Path root, Path file) throws ConformException {
        List<String> lines = lines(file);
        String suite = suite(root, file, false);
        ScenarioFile read;
        try {
            read = ScenarioFile.read(file.toString(), lines);
        } catch (ScenarioFormatException e) {
            throw new ConformException(e.getMessage());
        }
        JsonNode topologyNode = json(file, read.topologyLine(), "topology ".length() + 1, read.topology());
        List<Scenario> scenarios = new ArrayList<>();
        for (ScenarioBlock block : read.scenarios()) {
            Events events = new Events(file, topologyNode);
            List<Scenario.After> after = new ArrayList<>();
            List<StateLine.Contents> contents = new ArrayList<>();
            for (ScenarioStep step : block.steps()) {
                Scenario.Event event = events.add(step.event(), step.line(), "event ".length() + 1);
                // the expected lines start two lines below the event, after the separator
                Optional<StateLine.Contents> stated = contents(file, step.line() + 1, step.expected());
                if (stated.isPresent()) {
                    contents.add(stated.get());
                } else {
                    after.add(after(file, step.line() + 1, step.expected(), event.step()));
                }
                if (!contents.isEmpty() && !after.isEmpty()) {
                    throw new ConformException(
                            file
                                    + ":"
                                    + (step.line() + 2)
                                    + ":1: a scenario states either the blocks' "
                                    + "contents after every event or a connector's verdicts and state, not both");
                }
            }
            if (!contents.isEmpty() && !recurrentOnly(topologyNode)) {
                throw new ConformException(
                        file
                                + ":"
                                + read.topologyLine()
                                + ":1: a scenario that states the blocks' contents (scenario "
                                + block.name()
                                + ") needs a topology of recurrent_align groups only: its contents are recurrent"
                                + " states, and an attention group's pages have none stated");
            }
            scenarios.add(
                    new Scenario(
                            suite,
                            block.name(),
                            file,
                            block.line(),
                            read.topology(),
                            events.list(),
                            contents.isEmpty()
                                    ? new Scenario.PerEvent(List.copyOf(after))
                                    : new Scenario.BlockContents(contents),
                            events.needs(),
                            events.named()));
        }
        return scenarios;
    }

    /** Whether every group of a topology line is recurrent. */
    private static boolean recurrentOnly(JsonNode topology) {
        JsonNode groups = topology.path("groups");
        if (!groups.isArray() || groups.isEmpty()) {
            return false;
        }
        for (JsonNode group : groups) {
            if (!GroupPolicy.RECURRENT_ALIGN.wireName().equals(group.path("policy").asText(""))) {
                return false;
            }
        }
        return true;
    }

    /** The blocks' contents where the lines after an event are a contents line, alone. */
    private static Optional<StateLine.Contents> contents(Path file, int first, List<String> expected)
            throws ConformException {
        if (expected.isEmpty() || !expected.getFirst().startsWith("contents ")) {
            return Optional.empty();
        }
        if (expected.size() != 1) {
            throw new ConformException(file + ":" + (first + 2) + ":1: a contents line stands alone after its event");
        }
        try {
            return Optional.of((StateLine.Contents) StateLine.read(file.toString(), first + 1, expected.getFirst()));
        } catch (ScenarioFormatException e) {
            throw new ConformException(e.getMessage());
        }
    }

    /** The lines after one event: verdicts in the scenario words, then the state lines. */
    private static Scenario.After after(Path file, int first, List<String> expected, String step)
            throws ConformException {
        List<Line.VerdictLine> verdicts = new ArrayList<>();
        List<StateLine> state = new ArrayList<>();
        List<String> pending = new ArrayList<>();
        TreeMap<String, String> latched = new TreeMap<>();
        StateLine.Counters counters = null;
        for (int k = 0; k < expected.size(); k++) {
            String line = expected.get(k);
            String where = Outside.at(file, first + k + 1, 1);
            StateLine read;
            try {
                read = StateLine.read(file.toString(), first + k + 1, line);
            } catch (ScenarioFormatException e) {
                throw new ConformException(e.getMessage());
            }
            switch (read) {
                case StateLine.Verdict verdict -> {
                    if (!state.isEmpty()) {
                        throw new ConformException(where + "a verdict after the state lines");
                    }
                    verdicts.add(verdict(where, verdict, step));
                }
                case StateLine.NoPending none -> state.add(none);
                case StateLine.Pending store -> {
                    state.add(store);
                    pending.add(store.id());
                    if (!store.latch().equals("[]")) {
                        latched.put(store.id(), store.latch());
                    }
                }
                case StateLine.Held held -> state.add(held);
                case StateLine.Counters counted -> {
                    state.add(counted);
                    counters = counted;
                }
                case StateLine.Contents stated ->
                        throw new ConformException(
                                where
                                        + "a contents line stands alone after its event, in a scenario that states the"
                                        + " blocks' contents");
            }
        }
        if (counters == null) {
            throw new ConformException(
                    Outside.at(file, first, 1) + "the lines after an event end with a counters line");
        }
        Line.Summary summary = new Line.Summary(counters, "0", List.copyOf(pending), latched);
        return new Scenario.After(List.copyOf(verdicts), new Line.State(state), summary);
    }

    /** {@code verdict} said in {@code step}; a code or cause this version does not know is refused. */
    private static Line.VerdictLine verdict(String where, StateLine.Verdict verdict, String step)
            throws ConformException {
        // an unknown code or cause would compare as text against any adapter's
        switch (verdict) {
            case StateLine.Retired retired when RetireCause.of(retired.cause()).isEmpty() ->
                    throw new ConformException(where + "unknown retirement cause " + Outside.quoted(retired.cause()));
            case StateLine.Rejected rejected when PoisonCode.of(rejected.code()).isEmpty() ->
                    throw new ConformException(where + "unknown rejection code " + Outside.quoted(rejected.code()));
            default -> {}
        }
        return Line.VerdictLine.of(step, verdict);
    }

    // ---- hand-written logs

    private static Scenario handWritten(Path root, Path file) throws ConformException {
        String name = file.getFileName().toString();
        String stem = name.substring(0, name.length() - ".jsonl".length());
        Path expectedFile = file.resolveSibling(stem + ".expected");
        if (!Files.exists(expectedFile)) {
            throw new ConformException(
                    Outside.at(file, 1, 1) + "a log without its expected output " + stem + ".expected beside it");
        }
        List<String> log = lines(file);
        String topology = null;
        Events events = null;
        for (int i = 0; i < log.size(); i++) {
            String line = log.get(i);
            if (line.isBlank()) {
                continue;
            }
            if (topology == null) {
                topology = line;
                events = new Events(file, json(file, i + 1, 1, topology));
            } else {
                events.add(line, i + 1, 1);
            }
        }
        if (events == null || events.list().isEmpty()) {
            throw new ConformException(
                    Outside.at(file, 1, 1) + "a scenario log holds a topology line and at least one event");
        }
        List<String> output = lines(expectedFile);
        List<Line.VerdictLine> verdicts = new ArrayList<>();
        Line.Summary summary = null;
        for (int i = 0; i < output.size(); i++) {
            if (output.get(i).isBlank()) {
                continue;
            }
            String where = Outside.at(expectedFile, i + 1, 1);
            if (summary != null) {
                throw new ConformException(where + "a line after the summary");
            }
            Line line;
            try {
                line = AnswerReader.read(output.get(i));
            } catch (AdapterException e) {
                throw new ConformException(where + e.getMessage().replaceFirst("^printed ", ""));
            }
            String printed =
                    switch (line) {
                        case Line.VerdictLine verdict -> {
                            verdicts.add(verdict);
                            // replay never prints how a connector copies: a plan as replay prints it
                            yield verdict instanceof Line.Plan plan
                                    ? new Line.Plan(plan.step(), plan.said(), CopyTiming.IN_STEP, false).json()
                                    : verdict.json();
                        }
                        case Line.Summary last -> {
                            summary = last;
                            yield last.json();
                        }
                        default ->
                                throw new ConformException(where + "an expected output holds verdicts and one summary");
                    };
            sameFields(expectedFile, i + 1, output.get(i), printed);
        }
        if (summary == null) {
            throw new ConformException(
                    Outside.at(expectedFile, 1, 1) + "no summary line: the expected output is incomplete");
        }
        return new Scenario(
                suite(root, file, true),
                stem,
                file,
                1,
                topology,
                events.list(),
                new Scenario.WholeLog(List.copyOf(verdicts), summary),
                events.needs(),
                events.named());
    }

    /**
     * Refuses a line of an expected output whose fields are not those replay prints for it ({@code printed}): a field
     * the reader does not know (a misspelt {@code ignored_held}) would otherwise be dropped, and what it states never
     * checked; one replay prints that the line lacks, or one it never prints ({@code "ignored_held":0}, a plan's {@code
     * copy}), means the file is not replay's output.
     */
    private static void sameFields(Path file, int line, String text, String printed) throws ConformException {
        JsonNode written;
        JsonNode replays;
        try {
            written = Json.tree(text);
            replays = Json.tree(printed);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a line the reader took is JSON", e);
        }
        for (var field : written.properties()) {
            String name = field.getKey();
            if (!replays.has(name)) {
                throw new ConformException(
                        located(file, line, JsonPlaces.of(text, written).key(written, name))
                                + Outside.quoted(name)
                                + " is not a field replay prints in this line");
            }
        }
        for (var field : replays.properties()) {
            String name = field.getKey();
            if (!written.has(name)) {
                throw new ConformException(
                        Outside.at(file, line, 1)
                                + "no "
                                + Outside.quoted(name)
                                + ", which replay prints in this line");
            }
        }
    }

    /** {@code file} at {@code place}, a "LINE:COLUMN" in the one line {@code line} of it. */
    private static String located(Path file, int line, String place) {
        return Outside.at(file, line, Long.parseLong(place.substring(place.indexOf(':') + 1)));
    }

    // ---- events

    private static JsonNode json(Path file, int line, int column, String text) throws ConformException {
        try {
            JsonNode node = Json.tree(text);
            if (node == null || !node.isObject()) {
                throw new ConformException(Outside.at(file, line, column) + "not a JSON object");
            }
            return node;
        } catch (JsonProcessingException e) {
            long offset = e.getLocation() == null ? 1 : Math.max(1, e.getLocation().getColumnNr());
            throw new ConformException(
                    file
                            + ":"
                            + line
                            + ":"
                            + (column + offset - 1)
                            + ": not JSON: "
                            + io.proofgate.json.JsonWords.of(e, line - 1));
        }
    }

    /** A scenario's events as they are read: the ids named so far, the step, what they need. */
    private static final class Events {
        private final Path file;
        private final List<Scenario.Event> list = new ArrayList<>();

        /** Each id named so far, with the index of the first event naming it. */
        private final java.util.Map<String, Integer> named = new java.util.HashMap<>();

        private final Set<Capability> needs = EnumSet.noneOf(Capability.class);

        /** The prompt of each looked-up request whose first step has not come. */
        private final java.util.Map<String, Long> lookedUp = new java.util.HashMap<>();

        private String step = "0";

        Events(Path file, JsonNode topology) {
            this.file = file;
            for (JsonNode group : topology.path("groups")) {
                if (GroupPolicy.SLIDING.wireName().equals(group.path("policy").asText())) {
                    needs.add(Capability.SLIDING);
                }
            }
        }

        Scenario.Event add(String line, int lineNumber, int column) throws ConformException {
            JsonNode node = json(file, lineNumber, column, line);
            if ("lookup".equals(node.path("kind").asText()) && node.path("id").isTextual()) {
                needs.add(Capability.RESTORE);
                name(node.path("id").asText());
                lookedUp.put(node.path("id").asText(), node.path("prompt_tokens").asLong());
            }
            for (JsonNode request : node.path("new")) {
                Long prompt = lookedUp.remove(request.path("id").asText());
                // the kit sends it with the adapter's hit and the rest of the prompt (Lookups)
                if (prompt != null
                        && request.path("computed").asLong() + request.path("scheduled").asLong() != prompt) {
                    throw new ConformException(
                            file
                                    + ":"
                                    + lineNumber
                                    + ":"
                                    + column
                                    + ": request "
                                    + io.proofgate.words.Outside.quoted(request.path("id").asText())
                                    + " was looked up, and its first step"
                                    + " does not compute its prompt of "
                                    + prompt
                                    + " tokens to the end (the kit sends it with the"
                                    + " adapter's hit as computed, and the rest of the prompt as scheduled)");
                }
            }
            for (String field : List.of("new", "cached")) {
                for (JsonNode request : node.path(field)) {
                    if (request.path("id").isTextual()) {
                        name(request.path("id").asText());
                    }
                }
            }
            for (JsonNode id : node.path("preempted")) {
                if (id.isTextual()) {
                    name(id.asText());
                }
            }
            if ("finished".equals(node.path("kind").asText()) && node.path("id").isTextual()) {
                name(node.path("id").asText());
            }
            if ("step".equals(node.path("kind").asText()) && node.path("step").isIntegralNumber()) {
                step = node.path("step").asText();
            }
            if (wide(node)) {
                needs.add(Capability.WIDE_INTEGERS);
            }
            Scenario.Event event = new Scenario.Event(line, lineNumber, step);
            list.add(event);
            return event;
        }

        private void name(String id) {
            named.putIfAbsent(id, list.size());
        }

        java.util.Map<String, Integer> named() {
            return named;
        }

        private static boolean wide(JsonNode node) {
            if (node.isIntegralNumber()) {
                return node.bigIntegerValue().bitLength() > 63;
            }
            for (JsonNode child : node) {
                if (wide(child)) {
                    return true;
                }
            }
            return false;
        }

        List<Scenario.Event> list() {
            return List.copyOf(list);
        }

        Set<Capability> needs() {
            return needs.isEmpty() ? Set.of() : EnumSet.copyOf(needs);
        }
    }
}
