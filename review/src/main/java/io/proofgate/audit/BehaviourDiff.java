package io.proofgate.audit;

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
 * The behaviour difference of two revisions of the spec on one model: each revision's state
 * graph is a machine from input events (the edge labels, {@code lastEvent}) to outputs
 * ({@code lastVerdicts}); their synchronous product, both stepping on the same event, is
 * searched breadth first from the two initial states. A transition where the outputs differ, or
 * where one revision takes an event the other cannot, is a difference; the first one of each
 * class found is its witness, so every witness is a shortest one. The search does not go past a
 * difference: what follows it would be a consequence, not a new change.
 *
 * <p>Pure: the order of the search comes from event labels and never from TLC's fingerprints, so
 * the result is the same on every run and machine.
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
            Difference topology = Difference.of(model, "the model's topology line differs", Difference.Kind.VERDICT,
                    List.of(baseTopology), List.of(baseTopology), List.of(headTopology), true, true, "topology");
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
                List<String> baseVerdicts = baseNext == null ? List.of() : GraphPaths.verdictLines(base, baseNext);
                List<String> headVerdicts = headNext == null ? List.of() : GraphPaths.verdictLines(head, headNext);
                if (baseNext != null && headNext != null && baseVerdicts.equals(headVerdicts)) {
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
                Difference.Kind kind = baseNext != null && headNext != null
                        && shape(baseVerdicts).equals(shape(headVerdicts)) ? Difference.Kind.REASON : Difference.Kind.VERDICT;
                String name = baseNext == null || headNext == null
                        ? GraphPaths.eventKind(reader, path) + " event sent by the " + (baseNext == null ? "head" : "base")
                          + "'s environment only"
                        : ruleChange(baseVerdicts, headVerdicts);
                String where = GraphPaths.eventKind(reader, path) + ", " + topic.slug();
                Difference known = classes.get(name);
                if (known == null) {
                    classes.put(name, Difference.of(model, name, kind, GraphPaths.replayLines(reader, path),
                            baseVerdicts, headVerdicts, baseNext != null, headNext != null, where));
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
    static List<String> shape(List<String> verdicts) {
        return verdicts.stream().map(line -> {
            String[] words = line.split(" ");
            return words[0].equals("rejected") ? words[0] + " " + words[1] + " " + words[2] : line;
        }).toList();
    }

    /**
     * The class of a verdict difference, named by the rule that changed rather than by the
     * event: the first request (in output order) whose verdicts differ, as "rejected C -> not
     * rejected" (row C narrowed; what the head does instead, wait or publish, is in the witness),
     * "not rejected -> rejected C", "rejected C -> rejected D", a reason-only change as "C reason:
     * stating F -> stating G", and otherwise the two outcomes ("plan -> no verdict"). Request ids
     * and values are left out, so one rule's change is one class however many requests and
     * events show it.
     */
    static String ruleChange(List<String> base, List<String> head) {
        java.util.LinkedHashSet<String> ids = new java.util.LinkedHashSet<>();
        for (String line : base) {
            ids.add(line.split(" ")[1]);
        }
        for (String line : head) {
            ids.add(line.split(" ")[1]);
        }
        for (String id : ids) {
            List<String> b = of(base, id);
            List<String> h = of(head, id);
            if (b.equals(h)) {
                continue;
            }
            String baseCode = rejection(b);
            String headCode = rejection(h);
            if (baseCode != null && baseCode.equals(headCode) && shape(b).equals(shape(h))) {
                return facts(b).equals(facts(h))
                        ? baseCode + " reason: the same facts with other values (" + differing(b, h) + ")"
                        : baseCode + " reason: stating " + facts(b) + " -> stating " + facts(h);
            }
            if (baseCode != null || headCode != null) {
                return (baseCode == null ? "not rejected" : "rejected " + baseCode) + " -> "
                        + (headCode == null ? "not rejected" : "rejected " + headCode);
            }
            return outcome(b) + " -> " + outcome(h);
        }
        throw new IllegalStateException("verdicts differ but no request's do: " + base + " / " + head);
    }

    private static List<String> of(List<String> verdicts, String id) {
        return verdicts.stream().filter(line -> line.split(" ")[1].equals(id)).toList();
    }

    private static String rejection(List<String> verdicts) {
        for (String line : verdicts) {
            String[] words = line.split(" ");
            if (words[0].equals("rejected")) {
                return words[2].substring(words[2].indexOf('=') + 1);
            }
        }
        return null;
    }

    private static String facts(List<String> verdicts) {
        for (String line : verdicts) {
            String[] words = line.split(" ");
            if (words[0].equals("rejected")) {
                List<String> facts = new ArrayList<>();
                for (int w = 3; w < words.length; w++) {
                    facts.add(words[w].substring(0, Math.max(0, words[w].indexOf('='))));
                }
                return facts.isEmpty() ? "no facts" : String.join(",", facts);
            }
        }
        return "no facts";
    }

    /** The facts whose values differ between two rejections that state the same facts. */
    private static String differing(List<String> base, List<String> head) {
        String[] b = base.stream().filter(l -> l.startsWith("rejected ")).findFirst().orElseThrow().split(" ");
        String[] h = head.stream().filter(l -> l.startsWith("rejected ")).findFirst().orElseThrow().split(" ");
        List<String> names = new ArrayList<>();
        for (int w = 3; w < b.length && w < h.length; w++) {
            if (!b[w].equals(h[w])) {
                names.add(b[w].substring(0, Math.max(0, b[w].indexOf('='))));
            }
        }
        return String.join(",", names);
    }

    private static String outcome(List<String> verdicts) {
        if (verdicts.isEmpty()) {
            return "no verdict";
        }
        List<String> words = new ArrayList<>();
        for (String line : verdicts) {
            String[] parts = line.split(" ");
            words.add(parts[0].equals("retired") ? "retired " + parts[2].substring(parts[2].indexOf('=') + 1) : parts[0]);
        }
        return String.join(", ", words);
    }
}
