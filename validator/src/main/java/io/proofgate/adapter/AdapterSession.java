package io.proofgate.adapter;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import io.proofgate.json.JsonWords;
import io.proofgate.namespace.NamespaceProbe;
import io.proofgate.namespace.ReferenceNamespace;
import io.proofgate.protocol.Connector;
import io.proofgate.protocol.ConnectorState;
import io.proofgate.protocol.Counters;
import io.proofgate.protocol.GroupBlock;
import io.proofgate.protocol.InvalidEventException;
import io.proofgate.protocol.PendingSnapshot;
import io.proofgate.protocol.Topology;
import io.proofgate.protocol.Verdict;
import io.proofgate.replay.EventReader;
import io.proofgate.replay.Replay;
import io.proofgate.replay.ReplayException;
import io.proofgate.replay.ReplayLine;
import io.proofgate.replay.VerdictWriter;
import io.proofgate.words.Capability;
import io.proofgate.words.Counter;
import io.proofgate.words.Formats;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

/**
 * proofgate's own validator behind the adapter protocol {@code proofgate-adapter/v1} (docs/conformance.md): one message
 * line in, the answer's lines out, the last always the end marker. The conformance kit drives it as an external process
 * ({@link ReferenceAdapter}) and, for its throughput baseline, in process: both see the same lines.
 *
 * <p>Each event goes through the replay parser, so the events a conformance run sends are read exactly as {@code
 * proofgate replay} reads them; a topology line starts a fresh connector.
 */
public final class AdapterSession {

    public static final String END = "{\"kind\":\"end\"}";

    /** Everything the kit can compare: the reference declares it all. */
    public static final List<String> CAPABILITIES =
            java.util.Arrays.stream(Capability.values()).map(Capability::wireName).toList();

    private static final Set<String> EVENT_KINDS = Set.of("step", "finished", "held", "lookup");

    private byte[] topologyLine;
    private Connector connector;

    /** The answer to one message, each line without its newline, ending with {@link #END}. */
    public List<String> answer(String message) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        String kind;
        try {
            kind = kindOf(message);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            // the parser's own text ("Unrecognized token ...") is not proofgate's words, and quotes the input raw
            return List.of(error("not a JSON object with a string \"kind\": invalid JSON: " + JsonWords.of(e)), END);
        } catch (IOException e) {
            return List.of(error("not a JSON object with a string \"kind\": " + e.getMessage()), END);
        }
        try {
            switch (kind) {
                case "hello" -> {
                    return List.of(hello(), END);
                }
                case "topology" -> {
                    topologyLine = message.getBytes(StandardCharsets.UTF_8);
                    try (EventReader reader = reader(new byte[0])) {
                        Topology topology = reader.readTopology();
                        connector = new Connector(topology, reader.restores());
                    }
                    return List.of(END);
                }
                case "namespace" -> {
                    return List.of(namespace(message), END);
                }
                case "summary" -> {
                    if (connector == null) {
                        return List.of(error("a summary before any topology"), END);
                    }
                    try (VerdictWriter writer = new VerdictWriter(out)) {
                        writer.writeSummary(connector);
                    }
                    return lines(out);
                }
                default -> {
                    if (!EVENT_KINDS.contains(kind)) {
                        return List.of(error("unknown message kind \"" + kind + "\""), END);
                    }
                    if (connector == null) {
                        return List.of(error("an event before any topology"), END);
                    }
                    ReplayLine line;
                    try (EventReader reader = reader(message.getBytes(StandardCharsets.UTF_8))) {
                        reader.readTopology();
                        line = reader.next();
                    }
                    try (VerdictWriter writer = new VerdictWriter(out)) {
                        for (Verdict verdict : connector.apply(line.event())) {
                            writer.write(verdict);
                        }
                    }
                    writeState(connector.state(), out);
                    return lines(out);
                }
            }
        } catch (ReplayException e) {
            return List.of(error("column " + e.column() + ": " + e.problem()), END);
        } catch (InvalidEventException e) {
            return List.of(error(e.getMessage()), END);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in-memory streams only
        }
    }

    /** This validator's answer to a namespace probe (docs/conformance.md, "Namespace probes"). */
    private static String namespace(String message) {
        NamespaceProbe probe;
        try {
            probe = NamespaceProbe.parse(message);
        } catch (IllegalArgumentException e) {
            return error("a namespace probe it cannot read: " + e.getMessage());
        }
        var values = REFERENCE.answer(probe);
        return json(
                out -> {
                    out.writeStringField("kind", "namespace");
                    out.writeObjectFieldStart("values");
                    for (var value : values.entrySet()) {
                        out.writeStringField(value.getKey(), value.getValue());
                    }
                    out.writeEndObject();
                });
    }

    /**
     * The running validator, reached as the spec audit reaches any revision's: through replay and its store classes.
     */
    private static final ReferenceNamespace REFERENCE =
            new ReferenceNamespace(
                    log -> {
                        ByteArrayOutputStream out = new ByteArrayOutputStream();
                        try {
                            Replay.run(new ByteArrayInputStream(log.getBytes(StandardCharsets.UTF_8)), "probe", out);
                            return out.toString(StandardCharsets.UTF_8);
                        } catch (ReplayException e) {
                            return out.toString(StandardCharsets.UTF_8) + "error: " + e.getMessage() + "\n";
                        } catch (IOException e) {
                            throw new UncheckedIOException(e); // in-memory streams only
                        }
                    },
                    name -> Class.forName(name, true, AdapterSession.class.getClassLoader()));

    private EventReader reader(byte[] event) throws IOException {
        byte[] log = new byte[topologyLine.length + 1 + event.length];
        System.arraycopy(topologyLine, 0, log, 0, topologyLine.length);
        log[topologyLine.length] = '\n';
        System.arraycopy(event, 0, log, topologyLine.length + 1, event.length);
        return new EventReader(new ByteArrayInputStream(log), "event");
    }

    private static String kindOf(String message) throws IOException {
        try (JsonParser parser = EventReader.FACTORY.createParser(message)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not an object");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                if (name.equals("kind") && value == JsonToken.VALUE_STRING) {
                    return parser.getText();
                }
                parser.skipChildren();
            }
            throw new IOException("no \"kind\"");
        }
    }

    private static String hello() {
        return json(
                out -> {
                    out.writeStringField("kind", "hello");
                    out.writeStringField("protocol", Formats.ADAPTER);
                    out.writeStringField("implementation", "proofgate validator (reference)");
                    out.writeArrayFieldStart("capabilities");
                    for (String capability : CAPABILITIES) {
                        out.writeString(capability);
                    }
                    out.writeEndArray();
                });
    }

    static String error(String message) {
        return json(
                out -> {
                    out.writeStringField("kind", "error");
                    out.writeStringField("message", message);
                });
    }

    /** The {@code state} line: what the scenarios' state lines state, as JSON. */
    private static void writeState(ConnectorState state, ByteArrayOutputStream sink) throws IOException {
        sink.write(
                json(out -> {
                            out.writeStringField("kind", "state");
                            out.writeArrayFieldStart("pending");
                            for (PendingSnapshot store : state.pending().values()) {
                                out.writeStartObject();
                                out.writeStringField("id", store.id());
                                out.writeNumberField("done", store.done());
                                out.writeFieldName("table");
                                out.writeStartArray();
                                for (long[] group : store.table().byGroup()) {
                                    out.writeArray(group, 0, group.length);
                                }
                                out.writeEndArray();
                                out.writeFieldName("latch");
                                writePairs(out, store.latch());
                                out.writeEndObject();
                            }
                            out.writeEndArray();
                            out.writeObjectFieldStart("held");
                            for (var held : state.held().entrySet()) {
                                out.writeFieldName(held.getKey());
                                out.writeStartArray();
                                for (int rank : held.getValue()) {
                                    out.writeNumber(rank);
                                }
                                out.writeEndArray();
                            }
                            out.writeEndObject();
                            Counters counters = state.counters();
                            out.writeObjectFieldStart("counters");
                            out.writeNumberField(Counter.PLANS.wireName(), counters.plans());
                            out.writeNumberField(Counter.REJECTED.wireName(), counters.rejected());
                            out.writeNumberField(
                                    Counter.STORE_SKIPPED_QUORUM.wireName(), counters.storeSkippedQuorum());
                            out.writeNumberField(Counter.RETIRED_FINISHED.wireName(), counters.retiredFinished());
                            out.writeEndObject();
                        })
                        .getBytes(StandardCharsets.UTF_8));
        sink.write('\n');
    }

    private static void writePairs(JsonGenerator out, List<GroupBlock> pairs) throws IOException {
        out.writeStartArray();
        for (GroupBlock pair : pairs) {
            out.writeStartArray();
            out.writeNumber(pair.group());
            out.writeNumber(pair.block());
            out.writeEndArray();
        }
        out.writeEndArray();
    }

    @FunctionalInterface
    private interface Fields {
        void write(JsonGenerator out) throws IOException;
    }

    private static String json(Fields fields) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
        try (JsonGenerator out = EventReader.FACTORY.createGenerator(bytes)) {
            out.writeStartObject();
            fields.write(out);
            out.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static List<String> lines(ByteArrayOutputStream out) {
        List<String> lines = new java.util.ArrayList<>(out.toString(StandardCharsets.UTF_8).lines().toList());
        lines.add(END);
        return lines;
    }
}
