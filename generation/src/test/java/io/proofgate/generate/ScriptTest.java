package io.proofgate.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.graph.Edge;
import io.proofgate.graph.StateGraph;
import io.proofgate.value.TlaState;
import io.proofgate.value.TlaValue;
import io.proofgate.value.TlaValueReader;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * Scenarios written from model states: the event lines, the expected lines (verdicts with their facts in the reasons'
 * order, pending stores, ranks, counters), the narrative, and an identity and a file that come from the events alone.
 */
class ScriptTest {

    static final String TOPOLOGY =
            "[kind |-> \"topology\", schema |-> \"proofgate-events/v1\", tp_degree |-> 1,"
                    + " hash_block_size |-> 256, min_span_tokens |-> 1024, max_span_tokens |-> 1000000, groups |->"
                    + " <<[policy |-> \"full\", block_tokens |-> 2304, window_tokens |-> 0],"
                    + " [policy |-> \"recurrent_align\", block_tokens |-> 2304, window_tokens |-> 0]>>]";
    static final String NEW_R1 =
            "[kind |-> \"step\", new |-> <<[id |-> \"r1\", digest |-> \"d1\", prompt_tokens |-> 6992, computed |-> 0,"
                + " scheduled |-> 6912, block_ids |-> <<<<11, 12, 13>>, <<0, 0, 71>>>>]>>, cached |-> <<>>, preempted"
                + " |-> <<>>, recurrent_boundary_blocks |-> (\"r1\" :> <<<<1, 42, 6912>>>>)]";
    static final String CACHED_R1 =
            "[kind |-> \"step\", new |-> <<>>, cached |-> <<[id |-> \"r1\", computed |-> 6912,"
                    + " scheduled |-> 80, new_block_ids |-> <<<<>>, <<>>>>, resumed |-> FALSE]>>, preempted |-> <<>>,"
                    + " recurrent_boundary_blocks |-> (\"r1\" :> <<<<1, %d, 6912>>>>)]";

    static TlaState state(String event, String verdicts, String pending, int rejected) {
        return TlaValueReader.state(
                "test",
                "/\\ lastEvent = "
                        + event
                        + "\n/\\ lastVerdicts = "
                        + verdicts
                        + "\n/\\ pending = "
                        + pending
                        + "\n/\\ held = [d1 |-> {}]\n/\\ plans = 0\n/\\ rejected = "
                        + rejected
                        + "\n/\\ skippedQuorum = 0\n/\\ retiredFinished = 0\n");
    }

    static final String LATCHED =
            "(\"r1\" :> [digest |-> \"d1\", span |-> 6912, done |-> 6912,"
                    + " table |-> <<<<11, 12, 13>>, <<0, 0, 71>>>>, latch |-> {<<1, 42>>}])";

    /** init -> new r1 latched -> cached r1 with block {@code block}: a conflict unless it is 42. */
    static StateGraph graph(int block, String facts) {
        SequencedMap<Long, TlaState> states = new LinkedHashMap<>();
        states.put(7L, state(TOPOLOGY, "<<>>", "<<>>", 0));
        states.put(-3L, state(NEW_R1, "<<>>", LATCHED, 0));
        states.put(
                99L,
                state(
                        CACHED_R1.formatted(block),
                        "<<[kind |-> \"rejected\", id |-> \"r1\", code |-> \"conflict\", target |-> 6912"
                                + facts
                                + "]>>",
                        "<<>>",
                        1));
        return new StateGraph(
                states,
                new LinkedHashSet<>(List.of(7L)),
                List.of(
                        new Edge(7, -3, Optional.of("SchedulerSchedules")),
                        new Edge(-3, 99, Optional.of("SchedulerSchedules"))));
    }

    static final String FACTS = ", latched |-> 42, block |-> 43, observed |-> 6912, group |-> 1";

    @Test
    void aScenarioStatesEventsExpectationsAndItsNarrative() {
        StateGraph graph = graph(43, FACTS);
        Script script = Script.of(graph, graph.edges());
        assertEquals(Topic.PROOF_COMPLETE, script.topic());
        assertEquals("proof_complete__cached_r1__" + script.id(), script.name());
        assertEquals(
                """
                scenario proof_complete__cached_r1__%s
                # covers event 2 (step, cached r1): exact-target entries cover every recurrent group (rows latch, "same set" and conflict) -> rejected r1 conflict
                event {"kind":"step","step":1,"new":[{"id":"r1","digest":"d1","prompt_tokens":6992,"computed":0,"scheduled":6912,"block_ids":[[11,12,13],[0,0,71]]}],"recurrent_boundary_blocks":{"r1":[[1,42,6912]]}}
                ----
                pending r1 done=6912 table=[[11,12,13],[0,0,71]] latch=[[1,42]]
                counters plans=0 rejected=0 store_skipped_quorum=0 retired_finished=0

                event {"kind":"step","step":2,"cached":[{"id":"r1","computed":6912,"scheduled":80,"new_block_ids":[[],[]],"resumed":false}],"recurrent_boundary_blocks":{"r1":[[1,43,6912]]}}
                ----
                rejected r1 code=conflict observed=6912 target=6912 group=1 block=43 latched=42
                pending none
                counters plans=0 rejected=1 store_skipped_quorum=0 retired_finished=0
                """
                        .formatted(script.id()),
                script.text());
    }

    @Test
    void theIdentityComesFromTheEventsAlone() {
        Script conflict = Script.of(graph(43, FACTS), graph(43, FACTS).edges());
        Script fewerFacts = Script.of(graph(43, ", block |-> 43"), graph(43, ", block |-> 43").edges());
        Script otherBlock = Script.of(graph(44, FACTS), graph(44, FACTS).edges());
        assertEquals(conflict.id(), fewerFacts.id(), "expectations are not part of the identity");
        assertEquals(conflict.name(), fewerFacts.name());
        assertNotEquals(conflict.text(), fewerFacts.text());
        assertNotEquals(conflict.id(), otherBlock.id(), "events are");
    }

    @Test
    void filesHoldTheTopologyOnceAndScenariosByName() {
        Script a = Script.of(graph(43, FACTS), graph(43, FACTS).edges());
        Script b = Script.of(graph(44, FACTS), graph(44, FACTS).edges());
        Map<String, String> files = ScenarioFiles.write(List.of(b, a), "ci", "spec/MC.cfg");
        assertEquals(List.of("ci/proof-complete.scenarios"), List.copyOf(files.keySet()));
        String text = files.get("ci/proof-complete.scenarios");
        assertEquals(1, text.lines().filter(l -> l.startsWith("topology ")).count());
        Script first = a.name().compareTo(b.name()) < 0 ? a : b;
        Script second = first == a ? b : a;
        assertTrue(text.indexOf(first.name()) < text.indexOf(second.name()));
        assertEquals(
                Map.of("ci/proof-complete.scenarios", text),
                ScenarioFiles.write(List.of(a, b), "ci", "spec/MC.cfg"),
                "independent of input order");
        WrittenCoverage.Count count = WrittenCoverage.count(graph(43, FACTS), Map.of("x", a.text()));
        assertEquals(2, count.edges());
    }

    @Test
    void topicsFollowTheEvidenceRowsInTableOrder() {
        Map<String, Topic> cases = new LinkedHashMap<>();
        cases.put("Absent", Topic.STEP_CACHED);
        cases.put("JsonNull", Topic.FIELD_NULL);
        cases.put("JsonText", Topic.FIELD_NOT_A_MAPPING);
        cases.put("JsonObject", Topic.VALUE_OTHER_REQUEST);
        cases.put("(\"r9\" :> <<>>)", Topic.VALUE_OTHER_REQUEST);
        cases.put("(\"r1\" :> JsonNull)", Topic.VALUE_NULL);
        cases.put("(\"r1\" :> JsonTrue)", Topic.VALUE_NOT_A_LIST);
        cases.put("(\"r1\" :> JsonList)", Topic.VALUE_EMPTY);
        cases.put("(\"r1\" :> <<>>)", Topic.VALUE_EMPTY);
        cases.put("(\"r1\" :> <<<<1, 42>>>>)", Topic.ENTRY_MALFORMED);
        cases.put("(\"r1\" :> <<<<2, 42, 6912>>>>)", Topic.ENTRY_UNKNOWN_GROUP);
        cases.put("(\"r1\" :> <<<<0, 42, 6912>>>>)", Topic.ENTRY_NON_RECURRENT_GROUP);
        cases.put("(\"r1\" :> <<<<1, 0, 2304>>>>)", Topic.ENTRY_NULL_BLOCK);
        cases.put("(\"r1\" :> <<<<1, 42, 7168>>>>)", Topic.ENTRY_FUTURE);
        cases.put("(\"r1\" :> <<<<1, 42, 2304>>>>)", Topic.ENTRY_INTERMEDIATE);
        cases.put("(\"r1\" :> <<<<1, 41, 2304>>, <<1, 42, 6912>>>>)", Topic.PROOF_COMPLETE);
        cases.put("(\"r1\" :> <<<<1, 42, 6912>>, <<1, 43, 6912>>>>)", Topic.PROOF_DUPLICATE_GROUP);
        cases.put("(\"r1\" :> <<<<1, 41, 2304>>, <<1, 0, 6912>>>>)", Topic.ENTRY_NULL_BLOCK);
        TlaValue.TlaRecord topology = ModelState.record(TlaValueReader.value("t", TOPOLOGY), "topology");
        cases.forEach(
                (field, topic) -> {
                    Topic.Context context = new Topic.Context(topology);
                    context.remember(ModelState.record(TlaValueReader.value("t", NEW_R1), "event"));
                    String event = CACHED_R1.formatted(42).replace("(\"r1\" :> <<<<1, 42, 6912>>>>)", field);
                    assertEquals(
                            topic,
                            Topic.of(context, ModelState.record(TlaValueReader.value("t", event), "event")),
                            field);
                });
    }
}
