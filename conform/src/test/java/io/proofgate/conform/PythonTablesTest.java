package io.proofgate.conform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.proofgate.adapter.AdapterSession;
import io.proofgate.format.StateLine;
import io.proofgate.protocol.Group;
import io.proofgate.protocol.Topology;
import io.proofgate.words.Capability;
import io.proofgate.words.ConnectorPolicy;
import io.proofgate.words.CopyTiming;
import io.proofgate.words.Formats;
import io.proofgate.words.GroupPolicy;
import io.proofgate.words.PoisonCode;
import io.proofgate.words.RetireCause;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The Python adapter library ({@code adapters/python}) restates tables of the Java side: the rejection codes with their
 * sentences, the facts of a reason in their order, the capabilities, the group policies, the retirement causes, the
 * counters of a summary, the protocol's name and end marker, the topology's defaults and the limits of a namespace
 * answer. python3 prints the library's tables and each is compared with Java's, so that a change on one side fails here
 * until the other follows.
 */
class PythonTablesTest {

    /** Prints the library's tables as one JSON object; run in {@code adapters/python}, so the library imports. */
    private static final String PROGRAM =
            """
            import json
            from proofgate_adapter import events, namespace, protocol, verdicts
            summary = verdicts.State([verdicts.PendingStore("r2", 0, [[]], {1: 42}), verdicts.PendingStore("r1", 0, [[]], ())],
                                     {}, verdicts.Counters(1, 2, 3, 4), 5).summary()
            print(json.dumps({"sentences": verdicts.SENTENCES, "facts": verdicts.FACTS, "fields": verdicts.FIELDS,
                              "capabilities": protocol.CAPABILITIES, "connector_policies": protocol.CONNECTOR_POLICIES, "policies": events.POLICIES, "causes": verdicts.CAUSES, "copies": verdicts.COPIES,
                              "protocol": protocol.PROTOCOL, "end": protocol.END, "defaults": events.DEFAULTS,
                              "max_names": namespace.MAX_NAMES, "max_hex_digits": namespace.MAX_HEX_DIGITS,
                              "summary": summary}))
            """;

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode library;

    @BeforeAll
    static void readTheLibrarysTables() throws IOException, InterruptedException {
        Path folder = Path.of("../adapters/python").toAbsolutePath().normalize();
        ProcessBuilder builder =
                new ProcessBuilder("python3", "-c", PROGRAM).directory(folder.toFile()).redirectErrorStream(true);
        builder.environment().put("PYTHONDONTWRITEBYTECODE", "1");
        Process process = builder.start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "python3 did not end within 120 s");
        assertEquals(0, process.exitValue(), output);
        library = JSON.readTree(output);
    }

    @Test
    void theRejectionCodesAndTheirSentencesArePoisonCodesInOrder() {
        Map<String, String> java = new LinkedHashMap<>();
        for (PoisonCode code : PoisonCode.values()) {
            java.put(code.wireName(), code.sentence());
        }
        Map<String, String> python = new LinkedHashMap<>();
        for (var entry : table("sentences").properties()) {
            python.put(entry.getKey(), entry.getValue().asText());
        }
        assertEquals(List.copyOf(java.keySet()), List.copyOf(python.keySet()), "verdicts.SENTENCES' codes");
        assertEquals(java, python, "verdicts.SENTENCES");
    }

    @Test
    void theCapabilitiesAreCapabilitysWireNamesInOrder() {
        assertEquals(
                Arrays.stream(Capability.values()).map(Capability::wireName).toList(),
                words("capabilities"),
                "protocol.CAPABILITIES");
    }

    @Test
    void theConnectorPoliciesAreConnectorPolicysWireNamesInOrder() {
        assertEquals(
                Arrays.stream(ConnectorPolicy.values()).map(ConnectorPolicy::wireName).toList(),
                words("connector_policies"),
                "protocol.CONNECTOR_POLICIES");
    }

    @Test
    void thePoliciesAndTheRetirementCausesAreJavasInOrder() {
        assertEquals(
                Arrays.stream(GroupPolicy.values()).map(GroupPolicy::wireName).toList(),
                words("policies"),
                "events.POLICIES");
        assertEquals(
                Arrays.stream(RetireCause.values()).map(RetireCause::wireName).toList(),
                words("causes"),
                "verdicts.CAUSES");
        assertEquals(
                Arrays.stream(CopyTiming.values()).map(CopyTiming::wireName).toList(),
                words("copies"),
                "verdicts.COPIES");
    }

    /**
     * No table of the facts' order is on the kit's class path (the generator's is private to generation; the validator
     * writes each reason's facts where it finds them), so the facts are taken from what the Java side states: every
     * rejection of the generated scenarios (the generator's words, which GeneratedScenariosTest holds the validator to)
     * and of replay's expected outputs, read by the kit's own reader. Each names only facts of the library's table, in
     * the table's order, and together they name every fact of it.
     */
    @Test
    void theFactsAreThoseTheScenariosStateInTheirOrder() throws ConformException {
        List<String> facts = words("facts");
        Set<String> named = new TreeSet<>();
        List<Scenario> scenarios = new ArrayList<>(ScenarioReader.read(ConformTest.GENERATED));
        scenarios.addAll(ScenarioReader.read(ConformTest.HAND_WRITTEN));
        for (Scenario scenario : scenarios) {
            for (Line.VerdictLine verdict : verdicts(scenario)) {
                if (verdict instanceof Line.Rejected rejected) {
                    List<String> names =
                            rejected.facts().stream().map(fact -> fact.substring(0, fact.indexOf('='))).toList();
                    assertTrue(
                            facts.containsAll(names),
                            () ->
                                    scenario.id()
                                            + ": "
                                            + rejected.facts()
                                            + " names a fact that verdicts.FACTS lacks: "
                                            + facts);
                    List<Integer> positions = names.stream().map(facts::indexOf).toList();
                    assertEquals(
                            positions.stream().sorted().toList(),
                            positions,
                            () ->
                                    scenario.id()
                                            + ": "
                                            + rejected.facts()
                                            + " are not in verdicts.FACTS' order: "
                                            + facts);
                    named.addAll(names);
                }
            }
        }
        assertEquals(new TreeSet<>(facts), named, "verdicts.FACTS against the facts the scenarios state");
    }

    @Test
    void theFactsThatAreAlsoFieldsAreThoseTheKitWritesAsFields() throws IOException {
        List<String> facts = words("facts").stream().map(fact -> fact + "=1").toList();
        JsonNode line = JSON.readTree(new Line.Rejected("r1", "1", "empty", facts, "", "").json());
        List<String> fields =
                names(line).stream().filter(name -> !List.of("kind", "step", "id", "code").contains(name)).toList();
        assertEquals(fields, words("fields"), "verdicts.FIELDS");
    }

    @Test
    void aSummaryIsTheOneReplayPrintsWithTheSameCounters() throws IOException {
        TreeMap<String, String> latched = new TreeMap<>(Map.of("r2", "[[1,42]]"));
        JsonNode java =
                JSON.readTree(
                        new Line.Summary(new StateLine.Counters("1", "2", "3", "4"), "5", List.of("r1", "r2"), latched)
                                .json());
        assertEquals(
                java, table("summary"), "State.summary() with Counters(1, 2, 3, 4), ignored_held 5, r1 and r2 pending");
        assertEquals(names(java), names(table("summary")), "the order of State.summary()'s fields");
    }

    @Test
    void theProtocolsNameEndMarkerDefaultsAndNamespaceLimitsAreJavas() {
        assertEquals(Formats.ADAPTER, table("protocol").asText(), "protocol.PROTOCOL");
        assertEquals(AdapterSession.END + "\n", table("end").asText(), "protocol.END");
        Topology defaults = Topology.of(new Group(0, GroupPolicy.FULL, 1, 0));
        JsonNode python = table("defaults");
        assertEquals(
                List.of("tp_degree", "hash_block_size", "min_span_tokens", "max_span_tokens"),
                names(python),
                "events.DEFAULTS' fields");
        assertEquals(defaults.tpDegree(), python.get("tp_degree").asLong(), "events.DEFAULTS tp_degree");
        assertEquals(
                defaults.hashBlockSize(), python.get("hash_block_size").asLong(), "events.DEFAULTS hash_block_size");
        assertEquals(
                defaults.minSpanTokens(), python.get("min_span_tokens").asLong(), "events.DEFAULTS min_span_tokens");
        // unbounded: Long.MAX_VALUE in Java, None in Python
        assertEquals(Long.MAX_VALUE, defaults.maxSpanTokens());
        assertTrue(
                python.get("max_span_tokens").isNull(),
                "events.DEFAULTS max_span_tokens: " + python.get("max_span_tokens"));
        assertEquals(AnswerReader.MAX_NAMES, table("max_names").asInt(), "namespace.MAX_NAMES");
        assertEquals(AnswerReader.MAX_HEX_DIGITS, table("max_hex_digits").asInt(), "namespace.MAX_HEX_DIGITS");
    }

    private static JsonNode table(String name) {
        JsonNode table = library.get(name);
        assertNotNull(table, "python3 printed no " + name + ": " + library);
        return table;
    }

    private static List<String> words(String name) {
        JsonNode table = table(name);
        assertTrue(table.isArray(), name + " is not a list: " + table);
        List<String> words = new ArrayList<>();
        table.forEach(word -> words.add(word.asText()));
        return words;
    }

    private static List<String> names(JsonNode object) {
        return object.properties().stream().map(Map.Entry::getKey).toList();
    }

    private static List<Line.VerdictLine> verdicts(Scenario scenario) {
        return switch (scenario.expected()) {
            case Scenario.PerEvent perEvent ->
                    perEvent.after().stream().flatMap(after -> after.verdicts().stream()).toList();
            case Scenario.WholeLog wholeLog -> wholeLog.verdicts();
            case Scenario.BlockContents stated -> List.of();
        };
    }
}
