package io.proofgate.conform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.proofgate.adapter.AdapterSession;
import io.proofgate.words.CopyTiming;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The one-pass reading of plain answer lines ({@link PlainAnswers}) against the tree's reading ({@link
 * AnswerReader#readTree}), which alone decides what a line means: on every line the reference adapter answers every
 * scenario with, and on lines altered from them at random (fields moved, added, removed, retyped, repeated; numbers
 * written as {@code -0} or beyond 64 bits; text after the object). Wherever the one pass reads a line, the tree reads
 * it the same.
 */
class PlainAnswersTest {

    private static final Set<String> PLAIN = Set.of("plan", "rejected", "retired", "state", "end");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Every answer line of the reference adapter on every scenario, each distinct line once, in order. */
    static List<String> answers;

    @BeforeAll
    static void answerEveryScenario() throws ConformException {
        List<Scenario> scenarios = new ArrayList<>(ScenarioReader.read(ConformTest.GENERATED));
        scenarios.addAll(ScenarioReader.read(ConformTest.HAND_WRITTEN));
        AdapterSession session = new AdapterSession();
        java.util.LinkedHashSet<String> lines = new java.util.LinkedHashSet<>(session.answer("{\"kind\":\"hello\"}"));
        for (Scenario scenario : scenarios) {
            lines.addAll(session.answer(scenario.topology()));
            for (Scenario.Event event : scenario.events()) {
                lines.addAll(session.answer(event.line()));
            }
            lines.addAll(session.answer(AdapterClient.SUMMARY));
        }
        answers = List.copyOf(lines);
    }

    @Test
    void everyPlainLineOfTheReferenceIsReadInOnePassAsTheTreeReadsIt() throws Exception {
        Map<String, Integer> read = new TreeMap<>();
        for (String line : answers) {
            Line tree = AnswerReader.readTree(line);
            String kind = MAPPER.readTree(line).path("kind").asText();
            Line plain = PlainAnswers.read(line);
            if (PLAIN.contains(kind)) {
                assertNotNull(plain, line);
                assertEquals(tree, plain, line);
                read.merge(kind, 1, Integer::sum);
            } else {
                assertNull(plain, line);
            }
            assertEquals(tree, AnswerReader.read(line), line);
        }
        assertEquals(PLAIN, read.keySet(), "every plain kind is among the reference's answers: " + read);
        // the scenarios share ids and digests, so their 230 thousand answer lines are about 650 distinct ones
        assertTrue(read.values().stream().mapToInt(Integer::intValue).sum() > 500, read.toString());
    }

    @Test
    void aLineReadInOnePassIsReadAlikeAsATree() {
        List<String> plain = answers.stream().filter(line -> PlainAnswers.read(line) != null).toList();
        int[] outcomes = new int[2]; // read in one pass, left to the tree
        qt().withExamples(3000)
                .forAll(longs().all())
                .checkAssert(
                        seed -> {
                            SplittableRandom random = new SplittableRandom(seed);
                            String line = altered(plain.get(random.nextInt(plain.size())), random);
                            Line fast = PlainAnswers.read(line);
                            if (fast == null) {
                                outcomes[1]++;
                                return;
                            }
                            outcomes[0]++;
                            try {
                                assertEquals(AnswerReader.readTree(line), fast, line);
                            } catch (AdapterException e) {
                                throw new AssertionError(
                                        "read in one pass, refused as a tree (" + e.getMessage() + "): " + line, e);
                            }
                        });
        assertTrue(
                outcomes[0] > 300 && outcomes[1] > 300,
                "both readings are exercised: " + outcomes[0] + " and " + outcomes[1]);
    }

    @Test
    void aStringBeyondTheParsersLimitIsRefusedWhereverItStands() {
        int limit = Json.READER.getFactory().streamReadConstraints().getMaxStringLength();
        String line =
                "{\"kind\":\"retired\",\"id\":\"r1\",\"step\":1,\"cause\":\"finished\",\"note\":\""
                        + "a".repeat(limit + 1)
                        + "\"}";
        assertNull(PlainAnswers.read(line), "an ignored field is read past, not parsed to its end");
        AdapterException refused =
                org.junit.jupiter.api.Assertions.assertThrows(AdapterException.class, () -> AnswerReader.read(line));
        assertTrue(
                refused.getMessage().contains("a string is longer than " + limit + " characters"),
                refused.getMessage());
    }

    /**
     * A line's words join its fields: a code with its facts written into it read as that code with those facts, and
     * passed a run whose adapter declares reason_facts without stating one.
     */
    @Test
    void aCodeOrCauseNoneOfTheProtocolsIsRefusedInEitherReading() {
        for (String line :
                List.of(
                        "{\"kind\":\"rejected\",\"step\":2,\"id\":\"r1\",\"code\":\"future_boundary observed=8448"
                                + " target=8192 group=1\"}",
                        "{\"kind\":\"retired\",\"step\":3,\"id\":\"r1\",\"cause\":\"quorum step=3\"}")) {
            assertNull(PlainAnswers.read(line), line);
            AdapterException refused =
                    org.junit.jupiter.api.Assertions.assertThrows(
                            AdapterException.class, () -> AnswerReader.read(line));
            assertTrue(
                    refused.getMessage()
                            .matches(
                                    "printed a (rejection whose code is neither one of .* nor a word of its own"
                                            + "|retirement whose cause is none of ).*"),
                    refused.getMessage());
        }
        assertEquals(
                "rejected r1 step=2 code=future_boundary",
                ((Line.Rejected)
                                PlainAnswers.read(
                                        "{\"kind\":\"rejected\",\"step\":2,\"id\":\"r1\",\"code\":\"future_boundary\"}"))
                        .words(java.util.Set.of()));
    }

    /**
     * How a plan's blocks are copied is read by the tree alone, which checks its values: a copy the one-pass reading
     * skipped would be judged in the plan's step, as if copied there.
     */
    @Test
    void aPlansCopyAndPinAreReadAndCheckedByTheTree() throws AdapterException {
        String plan =
                "{\"kind\":\"plan\",\"step\":2,\"id\":\"r1\",\"digest\":\"d1\",\"span\":2304,"
                        + "\"blocks_by_group\":[[11],[41]],\"recurrent\":[[1,41]]";
        String async = plan + ",\"copy\":\"async\",\"pinned\":true}";
        assertNull(PlainAnswers.read(async));
        Line.Plan read = (Line.Plan) AnswerReader.read(async);
        assertEquals(CopyTiming.ASYNC, read.copy());
        assertTrue(read.pinned());
        assertEquals(
                ((Line.Plan) AnswerReader.read(plan + "}")).words(java.util.Set.of()),
                read.words(java.util.Set.of()),
                "how it is copied is not compared with a policy");
        assertEquals(CopyTiming.IN_STEP, ((Line.Plan) AnswerReader.read(plan + ",\"copy\":\"in_step\"}")).copy());
        for (String bad :
                List.of(
                        plan + ",\"copy\":\"later\"}",
                        plan + ",\"copy\":\"async\",\"pinned\":1}",
                        plan + ",\"pinned\":true}")) {
            AdapterException refused =
                    org.junit.jupiter.api.Assertions.assertThrows(AdapterException.class, () -> AnswerReader.read(bad));
            assertTrue(
                    refused.getMessage()
                            .matches(
                                    "printed a plan (whose \"copy\" is neither|whose \"pinned\" is not"
                                            + "|pinned for a copy in its step).*"),
                    refused.getMessage());
        }
        Line.Saved saved =
                (Line.Saved)
                        AnswerReader.read(
                                "{\"kind\":\"saved\",\"step\":4,\"id\":\"r1\",\"digest\":\"d1\",\"span\":2304}");
        assertTrue(read.endsWith(saved));
        assertFalse(
                ((Line.Plan) AnswerReader.read(plan + "}")).endsWith(saved), "a copy in the step has no saved line");
    }

    /**
     * A rejection for a reason of the connector's own is its behaviour: a verdict, compared like any, never an error.
     */
    @Test
    void aRejectionCodeOfTheConnectorsOwnIsAVerdict() throws AdapterException {
        String line = "{\"kind\":\"rejected\",\"step\":2,\"id\":\"r1\",\"code\":\"no_boundary_mapping\"}";
        assertEquals(
                "rejected r1 step=2 code=no_boundary_mapping",
                ((Line.Rejected) AnswerReader.read(line)).words(java.util.Set.of()));
        assertNull(
                PlainAnswers.read(line),
                "read again as a tree, which knows the protocol's codes from a connector's own");
    }

    /** {@code line} with a few random alterations, some of which keep it plain. */
    private static String altered(String line, SplittableRandom random) {
        try {
            ObjectNode root = (ObjectNode) MAPPER.readTree(line);
            for (int i = random.nextInt(3); i >= 0; i--) {
                alter(pick(root, random), random);
            }
            String text = MAPPER.writeValueAsString(root);
            return switch (random.nextInt(12)) {
                case 0 -> text + " {}";
                case 1 -> " " + text.replace(",", " , ") + "\n";
                case 2 -> text.replaceFirst("\\{", "{\"id\":\"again\","); // the kind not first
                case 3 -> text.substring(0, random.nextInt(text.length()));
                case 4, 5 -> integerWritten(text, random, "-0"); // the tree's numbers say 0
                case 6 -> integerWritten(text, random, "-" + random.nextInt(3));
                case 7 -> text.replaceFirst("(\"kind\":\"[a-z]+\")", "$1,\"id\":\"again\""); // a key twice, or one more
                case 8 -> text.replaceFirst("(\"kind\":\"[a-z]+\")", "$1,\"extra\":1,\"extra\":2");
                default -> text;
            };
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    /** {@code text} with one of its integers, at random, written as {@code written}. */
    private static String integerWritten(String text, SplittableRandom random, String written) {
        java.util.regex.Matcher integers = INTEGER.matcher(text);
        List<int[]> spans = new ArrayList<>();
        while (integers.find()) {
            spans.add(new int[] {integers.start(), integers.end()});
        }
        if (spans.isEmpty()) {
            return text;
        }
        int[] span = spans.get(random.nextInt(spans.size()));
        return text.substring(0, span[0]) + written + text.substring(span[1]);
    }

    private static final java.util.regex.Pattern INTEGER =
            java.util.regex.Pattern.compile("(?<=[\\[,:])-?[0-9]+(?=[,\\]}])");

    /** A random object or list of the tree, the root included. */
    private static JsonNode pick(JsonNode node, SplittableRandom random) {
        List<JsonNode> containers = new ArrayList<>();
        collect(node, containers);
        return containers.get(random.nextInt(containers.size()));
    }

    private static void collect(JsonNode node, List<JsonNode> containers) {
        if (node.isContainerNode()) {
            containers.add(node);
            node.forEach(child -> collect(child, containers));
        }
    }

    private static void alter(JsonNode container, SplittableRandom random) {
        if (container instanceof ObjectNode object) {
            List<String> names = new ArrayList<>();
            object.fieldNames().forEachRemaining(names::add);
            switch (random.nextInt(4)) {
                case 0 -> { // fields in another order (the kind too, now and then)
                    List<String> order = new ArrayList<>(names);
                    java.util.Collections.shuffle(order, new java.util.Random(random.nextLong()));
                    ObjectNode copy = object.deepCopy();
                    object.removeAll();
                    order.forEach(name -> object.set(name, copy.get(name)));
                }
                case 1 -> object.set("extra_" + random.nextInt(3), value(random));
                case 2 -> {
                    if (!names.isEmpty()) {
                        object.remove(names.get(random.nextInt(names.size())));
                    }
                }
                default -> {
                    if (!names.isEmpty()) {
                        object.set(names.get(random.nextInt(names.size())), value(random));
                    }
                }
            }
        } else if (container instanceof ArrayNode list) {
            if (!list.isEmpty() && random.nextBoolean()) {
                list.set(random.nextInt(list.size()), value(random));
            } else {
                list.add(value(random));
            }
        }
    }

    /** A value of some JSON type: mostly integers, as an answer's fields are. */
    private static JsonNode value(SplittableRandom random) {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        return switch (random.nextInt(10)) {
            case 0 -> nodes.textNode(random.nextBoolean() ? "text" : "te\"x\\t\u0007");
            case 1 -> nodes.numberNode(new BigInteger("-0"));
            case 2 -> nodes.numberNode(BigInteger.TWO.pow(70).add(BigInteger.valueOf(random.nextInt(3))));
            case 3 -> random.nextBoolean() ? nodes.numberNode(1.5) : nodes.numberNode(new java.math.BigDecimal("1E+2"));
            case 4 -> nodes.nullNode();
            case 5 -> nodes.booleanNode(true);
            case 6 -> nodes.arrayNode().add(random.nextInt(4)).add(random.nextInt(4));
            case 7 -> nodes.objectNode().put("id", "r" + random.nextInt(3));
            default -> nodes.numberNode(random.nextInt(5) - 1);
        };
    }
}
