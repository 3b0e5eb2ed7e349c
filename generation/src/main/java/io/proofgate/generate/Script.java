package io.proofgate.generate;

import io.proofgate.format.ScenarioBlock;
import io.proofgate.format.ScenarioStep;
import io.proofgate.format.StateLine;
import io.proofgate.graph.Edge;
import io.proofgate.graph.StateGraph;
import io.proofgate.value.TlaValue;
import io.proofgate.words.Sha256;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One path of the state graph as a conformance scenario: per edge the replay line of the event it records and the state
 * the model says follows, after a narrative of the edge it was built to cover (its last).
 *
 * @param id a hash of the topology and event lines: the scenario's identity, from its events alone
 * @param name readable and unique: the topic, the covered event's requests, and the id
 * @param topic what the covered event exercises; it decides the file the scenario is written to
 * @param topology the topology line every scenario of the model shares
 * @param text the scenario's block, from its {@code scenario} line to its last expectation
 */
public record Script(String id, String name, Topic topic, String topology, String text) {

    private static final int ID_HEX_DIGITS = 10;

    /**
     * The label of an edge: its event's replay line without a step number (the spec has none). A model of vLLM alone
     * adds, after a tab, the contents line that follows the event: one event may leave the blocks holding different
     * things (a verify step's drafts accepted or not, which the connector learns only from the next step), and a
     * scenario says which by its contents.
     */
    static String label(StateGraph graph, Edge edge) {
        ModelState state = new ModelState(graph.state(edge.to()));
        String event = EventJson.line(state.lastEvent(), 0);
        return state.statesContents() ? label(event, state.contents().text()) : event;
    }

    /** The label of an event line without a step number and the contents line after it. */
    static String label(String event, String contents) {
        return event + CONTENTS + contents;
    }

    /** What separates a label's event from the contents line after it. */
    static final String CONTENTS = "\t";

    /** The event line of a label. */
    static String event(String label) {
        int tab = label.indexOf(CONTENTS);
        return tab < 0 ? label : label.substring(0, tab);
    }

    /**
     * {@link #label} for one caller at a time, each state's written once: an edge's label depends on its target only.
     */
    static java.util.function.Function<Edge, String> labels(StateGraph graph) {
        java.util.Map<Long, String> byState = new java.util.HashMap<>();
        return edge -> {
            String label = byState.get(edge.to());
            if (label == null) {
                label = label(graph, edge);
                byState.put(edge.to(), label);
            }
            return label;
        };
    }

    static Script of(StateGraph graph, List<Edge> path) {
        ModelState initial = new ModelState(graph.state(path.getFirst().from()));
        if (!initial.eventKind().equals("topology")) {
            throw new IllegalArgumentException(
                    "the initial state's lastEvent must be the topology line, found kind \""
                            + initial.eventKind()
                            + "\"");
        }
        String topology = EventJson.line(initial.lastEvent(), 0);
        Topic.Context context = new Topic.Context(initial.lastEvent());
        StringBuilder identity = new StringBuilder(topology).append('\n');
        List<ScenarioStep> steps = new ArrayList<>();
        String covers = null;
        long step = 0;
        Topic topic = null;
        String words = "";
        for (int i = 0; i < path.size(); i++) {
            Edge edge = path.get(i);
            ModelState state = new ModelState(graph.state(edge.to()));
            TlaValue.TlaRecord event = state.lastEvent();
            String kind = state.eventKind();
            if (kind.equals("step")) {
                step++;
            }
            if (i == path.size() - 1) {
                topic = Topic.of(context, event);
                words = eventWords(event);
                // the event in the replay format's words: the spec's action names are not the contract
                covers =
                        "covers event "
                                + (i + 1)
                                + " ("
                                + (kind.equals("step") ? "step, " : "")
                                + words
                                + "): "
                                + topic.meaning
                                + " -> "
                                + (state.statesContents() ? state.contents().text() : verdictWords(state));
            }
            context.remember(event);
            String line = EventJson.line(event, kind.equals("step") ? step : 0);
            // a model of vLLM alone: what the blocks hold is part of the scenario (see label)
            identity.append(state.statesContents() ? label(line, state.contents().text()) : line).append('\n');
            steps.add(new ScenarioStep(line, state.expectedLines()));
        }
        String id = digest(identity.toString());
        String name = topic.slug.replace('-', '_') + "__" + slug(words) + "__" + id;
        return new Script(id, name, topic, topology, ScenarioBlock.write(name, List.of(covers), steps));
    }

    /**
     * The covered event in words: "cached r1", "new r2, preempted r1", "finished r1", "rank 0 holds d1", "lookup r2".
     */
    private static String eventWords(TlaValue.TlaRecord event) {
        String kind = ModelState.string(event.get("kind").orElseThrow());
        return switch (kind) {
            case "finished" -> "finished " + ModelState.string(event.get("id").orElseThrow());
            case "lookup" -> "lookup " + ModelState.string(event.get("id").orElseThrow());
            case "held" ->
                    "rank "
                            + ModelState.integer(event.get("rank").orElseThrow())
                            + " holds "
                            + ModelState.string(event.get("digest").orElseThrow());
            default -> {
                List<String> parts = new ArrayList<>();
                for (TlaValue request : event.get("new").map(ModelState::sequence).orElse(List.of())) {
                    parts.add(
                            "new " + ModelState.string(ModelState.record(request, "request").get("id").orElseThrow()));
                }
                for (TlaValue request : event.get("cached").map(ModelState::sequence).orElse(List.of())) {
                    TlaValue.TlaRecord cached = ModelState.record(request, "request");
                    boolean resumed = cached.get("resumed").orElse(null) instanceof TlaValue.TlaBool(boolean b) && b;
                    parts.add((resumed ? "resumed " : "cached ") + ModelState.string(cached.get("id").orElseThrow()));
                }
                for (TlaValue id : event.get("preempted").map(ModelState::sequence).orElse(List.of())) {
                    parts.add("preempted " + ModelState.string(id));
                }
                yield parts.isEmpty() ? "empty step" : String.join(", ", parts);
            }
        };
    }

    /**
     * The covered state's verdicts without their facts: "rejected r1 conflict", "plan r1", "hit r2 6912", "load r2
     * 6912", "no verdict".
     */
    private static String verdictWords(ModelState state) {
        List<String> verdicts = new ArrayList<>();
        for (StateLine.Verdict line : state.stateVerdicts()) {
            verdicts.add(
                    switch (line) {
                        case StateLine.Plan plan -> "plan " + plan.id();
                        case StateLine.Rejected rejected -> "rejected " + rejected.id() + " " + rejected.code();
                        case StateLine.Retired retired -> "retired " + retired.id() + " " + retired.cause();
                        case StateLine.Hit hit -> "hit " + hit.id() + " " + hit.tokens();
                        case StateLine.Load load -> "load " + load.id() + " " + load.span();
                    });
        }
        return verdicts.isEmpty() ? "no verdict" : String.join(", ", verdicts);
    }

    private static String slug(String words) {
        return words.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_|_$", "");
    }

    private static String digest(String text) {
        return Sha256.of(text).substring(0, ID_HEX_DIGITS);
    }
}
