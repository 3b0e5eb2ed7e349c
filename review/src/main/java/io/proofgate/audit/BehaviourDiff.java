package io.proofgate.audit;

import io.proofgate.format.StateLine;
import io.proofgate.generate.GraphPaths;
import io.proofgate.graph.Edge;
import io.proofgate.graph.StateGraph;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SequencedMap;
import java.util.TreeSet;

/**
 * The behaviour difference of two revisions of the spec on one model: each revision's state graph is a machine from
 * input events (the edge labels, {@code lastEvent}) to outputs ({@code lastVerdicts}); their synchronous product, both
 * stepping on the same event, is searched breadth first from the two initial states. A transition where the outputs
 * differ, or where one revision takes an event the other cannot, is a difference; the first one of each class found is
 * its witness, so every witness is a shortest one. The search does not go past a difference: what follows it would be a
 * consequence, not a new change.
 *
 * <p>Pure: the order of the search comes from event labels and never from TLC's fingerprints, so the result is the same
 * on every run and machine.
 */
public final class BehaviourDiff {

    /** The whole comparison of one model. {@code complete} is false when {@code maxPairs} stopped the search. */
    public record Result(String model, List<Difference> differences, long pairs, boolean complete) {
        public Result {
            differences = List.copyOf(differences);
        }
    }

    private record Pair(long base, long head) {}

    private record Step(Pair from, String label) {}

    private BehaviourDiff() {}

    static Result compare(String model, Machine baseMachine, Machine headMachine, long maxPairs) {
        Objects.requireNonNull(model);
        StateGraph base = baseMachine.graph();
        StateGraph head = headMachine.graph();
        long baseStart = baseMachine.start();
        long headStart = headMachine.start();
        String baseTopology = GraphPaths.topology(base, baseStart);
        String headTopology = GraphPaths.topology(head, headStart);
        if (!baseTopology.equals(headTopology)) {
            Difference topology =
                    Difference.of(
                            model,
                            "the model's topology line differs",
                            Difference.Kind.VERDICT,
                            List.of(baseTopology),
                            List.of(baseTopology),
                            List.of(headTopology),
                            true,
                            true,
                            "topology");
            return new Result(model, List.of(topology), 1, true);
        }
        SequencedMap<String, Difference> classes = new LinkedHashMap<>();
        Map<Pair, Step> parent = new HashMap<>();
        ArrayDeque<Pair> queue = new ArrayDeque<>();
        Pair start = new Pair(baseStart, headStart);
        parent.put(start, null);
        queue.add(start);
        boolean complete = true;
        while (!queue.isEmpty()) {
            if (parent.size() > maxPairs) {
                complete = false;
                break;
            }
            Pair pair = queue.poll();
            Map<String, Long> baseOut = baseMachine.successors(pair.base());
            Map<String, Long> headOut = headMachine.successors(pair.head());
            TreeSet<String> events = new TreeSet<>(baseOut.keySet());
            events.addAll(headOut.keySet());
            for (String event : events) {
                Long baseNext = baseOut.get(event);
                Long headNext = headOut.get(event);
                List<StateLine.Verdict> baseLines =
                        baseNext == null ? List.of() : GraphPaths.stateVerdicts(base, baseNext);
                List<StateLine.Verdict> headLines =
                        headNext == null ? List.of() : GraphPaths.stateVerdicts(head, headNext);
                if (baseNext != null && headNext != null && baseLines.equals(headLines)) {
                    Pair next = new Pair(baseNext, headNext);
                    if (!parent.containsKey(next)) {
                        parent.put(next, new Step(pair, event));
                        queue.add(next);
                    }
                    continue;
                }
                List<String> labels = labels(parent, pair);
                labels.add(event);
                // the topic is read from the events, so either side that takes them all will do
                StateGraph reader = baseNext != null ? base : head;
                List<Edge> path = (baseNext != null ? baseMachine : headMachine).walk(labels).orElseThrow();
                GraphPaths.Topic topic = GraphPaths.topic(reader, path);
                Difference.Kind kind =
                        baseNext != null && headNext != null && shape(baseLines).equals(shape(headLines))
                                ? Difference.Kind.REASON
                                : Difference.Kind.VERDICT;
                List<String> baseVerdicts = baseLines.stream().map(StateLine::text).toList();
                List<String> headVerdicts = headLines.stream().map(StateLine::text).toList();
                String name =
                        baseNext == null || headNext == null
                                ? GraphPaths.eventKind(reader, path)
                                        + " event sent by the "
                                        + (baseNext == null ? "head" : "base")
                                        + "'s environment only"
                                : ruleChange(baseLines, headLines);
                String where = GraphPaths.eventKind(reader, path) + ", " + topic.slug();
                Difference known = classes.get(name);
                if (known == null) {
                    classes.put(
                            name,
                            Difference.of(
                                    model,
                                    name,
                                    kind,
                                    GraphPaths.replayLines(reader, path),
                                    baseVerdicts,
                                    headVerdicts,
                                    baseNext != null,
                                    headNext != null,
                                    where));
                } else {
                    classes.put(name, known.seenAlso(where));
                }
            }
        }
        return new Result(model, List.copyOf(classes.values()), parent.size(), complete);
    }

    /** The event labels from the start to {@code pair}. */
    private static List<String> labels(Map<Pair, Step> parent, Pair pair) {
        List<String> labels = new ArrayList<>();
        for (Step step = parent.get(pair); step != null; step = parent.get(step.from())) {
            labels.add(step.label());
        }
        java.util.Collections.reverse(labels);
        return labels;
    }

    /** The verdicts without their reason facts: what decides whether a difference is of verdicts or of reasons only. */
    static List<StateLine.Verdict> shape(List<StateLine.Verdict> verdicts) {
        return verdicts.stream()
                .map(
                        line ->
                                line instanceof StateLine.Rejected rejected
                                        ? new StateLine.Rejected(rejected.id(), rejected.code(), List.of())
                                        : line)
                .toList();
    }

    /**
     * The class of a verdict difference, named by the rule that changed rather than by the event: the first request (in
     * output order) whose verdicts differ, as "rejected C -> not rejected" (row C narrowed; what the head does instead,
     * wait or publish, is in the witness), "not rejected -> rejected C", "rejected C -> rejected D", a reason-only
     * change as "C reason: stating F -> stating G", and otherwise the two outcomes ("plan -> no verdict"). Request ids
     * and values are left out, so one rule's change is one class however many requests and events show it.
     */
    static String ruleChange(List<StateLine.Verdict> base, List<StateLine.Verdict> head) {
        java.util.LinkedHashSet<String> ids = new java.util.LinkedHashSet<>();
        base.forEach(line -> ids.add(line.id()));
        head.forEach(line -> ids.add(line.id()));
        for (String id : ids) {
            List<StateLine.Verdict> b = of(base, id);
            List<StateLine.Verdict> h = of(head, id);
            if (b.equals(h)) {
                continue;
            }
            StateLine.Rejected baseRejection = rejection(b);
            StateLine.Rejected headRejection = rejection(h);
            if (baseRejection != null
                    && headRejection != null
                    && baseRejection.code().equals(headRejection.code())
                    && shape(b).equals(shape(h))) {
                return factNames(baseRejection).equals(factNames(headRejection))
                        ? baseRejection.code()
                                + " reason: the same facts with other values ("
                                + differing(baseRejection, headRejection)
                                + ")"
                        : baseRejection.code()
                                + " reason: stating "
                                + factNames(baseRejection)
                                + " -> stating "
                                + factNames(headRejection);
            }
            if (baseRejection != null || headRejection != null) {
                return (baseRejection == null ? "not rejected" : "rejected " + baseRejection.code())
                        + " -> "
                        + (headRejection == null ? "not rejected" : "rejected " + headRejection.code());
            }
            return outcome(b) + " -> " + outcome(h);
        }
        throw new IllegalStateException("verdicts differ but no request's do: " + base + " / " + head);
    }

    private static List<StateLine.Verdict> of(List<StateLine.Verdict> verdicts, String id) {
        return verdicts.stream().filter(line -> line.id().equals(id)).toList();
    }

    /** The first rejection among {@code verdicts}, or null. */
    private static StateLine.Rejected rejection(List<StateLine.Verdict> verdicts) {
        for (StateLine.Verdict line : verdicts) {
            if (line instanceof StateLine.Rejected rejected) {
                return rejected;
            }
        }
        return null;
    }

    /** A fact's name: "observed" of "observed=8448". */
    private static String name(String fact) {
        return fact.substring(0, Math.max(0, fact.indexOf('=')));
    }

    private static String factNames(StateLine.Rejected rejected) {
        List<String> names = rejected.facts().stream().map(BehaviourDiff::name).toList();
        return names.isEmpty() ? "no facts" : String.join(",", names);
    }

    /** The facts whose values differ between two rejections that state the same facts. */
    private static String differing(StateLine.Rejected base, StateLine.Rejected head) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < base.facts().size() && i < head.facts().size(); i++) {
            if (!base.facts().get(i).equals(head.facts().get(i))) {
                names.add(name(base.facts().get(i)));
            }
        }
        return String.join(",", names);
    }

    private static String outcome(List<StateLine.Verdict> verdicts) {
        if (verdicts.isEmpty()) {
            return "no verdict";
        }
        List<String> words = new ArrayList<>();
        for (StateLine.Verdict line : verdicts) {
            words.add(
                    switch (line) {
                        case StateLine.Plan plan -> "plan";
                        case StateLine.Rejected rejected -> "rejected";
                        case StateLine.Retired retired -> "retired " + retired.cause();
                        case StateLine.Hit hit -> "hit";
                        case StateLine.Load load -> "load";
                    });
        }
        return String.join(", ", words);
    }
}
