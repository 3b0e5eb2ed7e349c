package io.proofgate.generate;

import io.proofgate.format.StateLine;
import io.proofgate.graph.Edge;
import io.proofgate.graph.StateGraph;
import io.proofgate.value.TlaValue;

import java.util.ArrayList;
import java.util.List;

/**
 * A path of a model's state graph read as the scenarios read it, for tools that compare two graphs (audit): the replay
 * lines of its events, the covered event's topic, and what the model says each event produces, in the words the
 * conformance scripts use. The one public door into the generator's reading of the spec's states.
 */
public final class GraphPaths {

    private GraphPaths() {}

    /** What a path's last event exercises: the topic's file slug and its meaning in the protocol's words. */
    public record Topic(String slug, String meaning) {}

    /** The label of an edge: its event's replay line without a step number. Labels of one state's edges differ. */
    public static String label(StateGraph graph, Edge edge) {
        // an event whose kind is not a string is refused here, as writing its replay line would refuse it
        new ModelState(graph.state(edge.to())).eventKind();
        return Script.label(graph, edge);
    }

    /** The topology line of the graph's initial state, as a replay log's first line. */
    public static String topology(StateGraph graph, long initial) {
        ModelState state = new ModelState(graph.state(initial));
        if (!state.eventKind().equals("topology")) {
            throw new IllegalArgumentException(
                    "the initial state's lastEvent must be the topology line, found kind \""
                            + state.eventKind()
                            + "\"");
        }
        return EventJson.line(state.lastEvent(), 0);
    }

    /** The replay lines of a path from an initial state: the topology, then one line per edge with step numbers. */
    public static List<String> replayLines(StateGraph graph, List<Edge> path) {
        List<String> labels = new ArrayList<>(path.size());
        for (Edge edge : path) {
            labels.add(label(graph, edge));
        }
        return replayLines(graph, path, topology(graph, path.getFirst().from()), labels);
    }

    /**
     * {@link #replayLines} from the path's labels ({@link #label}, one per edge, as a caller that keeps them per state
     * has them): the same lines, without writing each event again.
     */
    public static List<String> replayLines(StateGraph graph, List<Edge> path, String topology, List<String> labels) {
        List<String> lines = new ArrayList<>(labels.size() + 1);
        lines.add(topology);
        long step = 0;
        for (int i = 0; i < labels.size(); i++) {
            String label = Script.event(labels.get(i));
            if (EventJson.isStep(label)) {
                step++;
            }
            long number = step;
            Edge edge = path.get(i);
            lines.add(
                    EventJson.withStep(label, number)
                            .orElseGet(
                                    () -> EventJson.line(new ModelState(graph.state(edge.to())).lastEvent(), number)));
        }
        return lines;
    }

    /** The topic of the path's last event, read from the path's events alone, as the generator files scenarios. */
    public static Topic topic(StateGraph graph, List<Edge> path) {
        io.proofgate.generate.Topic.Context context =
                new io.proofgate.generate.Topic.Context(
                        new ModelState(graph.state(path.getFirst().from())).lastEvent());
        for (int i = 0; i < path.size() - 1; i++) {
            context.remember(new ModelState(graph.state(path.get(i).to())).lastEvent());
        }
        io.proofgate.generate.Topic topic =
                io.proofgate.generate.Topic.of(context, new ModelState(graph.state(path.getLast().to())).lastEvent());
        return new Topic(topic.slug, topic.meaning);
    }

    /**
     * The last event of the path in words: "new request", "cached request", "resumed request", "preemption",
     * "finished", "held" (the first scheduled request names a step).
     */
    public static String eventKind(StateGraph graph, List<Edge> path) {
        TlaValue.TlaRecord event = new ModelState(graph.state(path.getLast().to())).lastEvent();
        String kind = ModelState.string(event.get("kind").orElseThrow());
        if (!kind.equals("step")) {
            return kind;
        }
        if (event.get("new").map(ModelState::sequence).filter(l -> !l.isEmpty()).isPresent()) {
            return "new request";
        }
        List<TlaValue> cached = event.get("cached").map(ModelState::sequence).orElse(List.of());
        if (!cached.isEmpty()) {
            boolean resumed =
                    ModelState.record(cached.getFirst(), "request").get("resumed").orElse(null)
                                    instanceof TlaValue.TlaBool(boolean b)
                            && b;
            return resumed ? "resumed request" : "cached request";
        }
        return "preemption";
    }

    /** The verdicts the event that led to {@code state} produced, as the scenario states them. */
    public static List<StateLine.Verdict> stateVerdicts(StateGraph graph, long state) {
        return new ModelState(graph.state(state)).stateVerdicts();
    }

    /**
     * What the event that led to one state adds to a replay's outcome: whether it is a step, its verdicts' script
     * lines, and the summary line were the log to end there.
     */
    public record StateOutcome(boolean step, List<StateLine.Verdict> verdicts, String summary) {}

    /** The {@link StateOutcome} of {@code state}. */
    public static StateOutcome stateOutcome(StateGraph graph, long state) {
        ModelState model = new ModelState(graph.state(state));
        return new StateOutcome(
                model.eventKind().equals("step"), List.copyOf(model.stateVerdicts()), model.summaryLine());
    }

    /**
     * What replay prints for a log whose events are the path's, in comparable words: each verdict's line with the step
     * it is said in ({@link StateLine.Verdict#text(String)}), then the summary line of the last state. A validator's
     * replay output normalised the same way must be equal when it follows the model. Each state's part is {@code
     * outcomes}' ({@link #stateOutcome}), so that a caller keeps each state's once: many paths pass through one state.
     */
    public static List<String> replayOutcome(
            StateGraph graph, List<Edge> path, java.util.function.LongFunction<StateOutcome> outcomes) {
        List<String> lines = new ArrayList<>();
        long step = 0;
        for (Edge edge : path) {
            StateOutcome state = outcomes.apply(edge.to());
            if (state.step()) {
                step++;
            }
            for (StateLine.Verdict verdict : state.verdicts()) {
                lines.add(verdict.text(String.valueOf(step)));
            }
        }
        lines.add(outcomes.apply(path.isEmpty() ? graph.initialStates().getFirst() : path.getLast().to()).summary());
        return lines;
    }

    /** The paths {@code proofgate generate} writes as scenarios: the canonical shortest path through every edge. */
    public static List<List<Edge>> scenarioPaths(StateGraph graph) {
        return CanonicalCover.cover(graph, Script.labels(graph)).paths();
    }

    /**
     * As {@link #scenarioPaths(StateGraph)}, each edge's {@link #label} given by {@code label}: a caller that keeps
     * each state's label (an edge's depends on the state it leads to only) gives them, so that a state reached by many
     * edges has its event written once.
     */
    public static List<List<Edge>> scenarioPaths(StateGraph graph, java.util.function.Function<Edge, String> label) {
        return CanonicalCover.cover(graph, label).paths();
    }

    /**
     * Whether the graph is of a model of vLLM alone, whose states say what vLLM's blocks hold instead of a connector's
     * verdicts (docs/generation.md, "Scenarios with the blocks' contents"): there is no verdict of the model for a
     * validator to follow.
     */
    public static boolean statesContents(StateGraph graph) {
        return new ModelState(graph.state(graph.initialStates().getFirst())).statesContents();
    }

    /** The event record that led to {@code state}. */
    public static TlaValue.TlaRecord event(StateGraph graph, long state) {
        return new ModelState(graph.state(state)).lastEvent();
    }
}
