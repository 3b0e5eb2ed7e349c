package io.proofgate.audit;

import io.proofgate.generate.GraphPaths;
import io.proofgate.graph.Edge;
import io.proofgate.graph.StateGraph;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.TreeMap;

/**
 * Whether the validator followed the spec: every log of both revisions' generated scenarios and
 * every behaviour witness goes through the base's and the head's validator, and each revision's
 * spec says what it must print. A log the two validators answer differently is explained when
 * the specs differ on it too and the head validator says what the head spec says, and
 * unexplained when the specs agree on it (the most important finding: the implementation
 * changed on its own). A log the specs differ on, where the head validator does not say what
 * the head spec says, was not followed. A log that one spec's environment never sends tells
 * nothing about conformance and is counted apart.
 */
public final class ImplementationCheck {

    /** The classes of a finding. */
    public enum Class {
        EXPLAINED("explained"), NOT_FOLLOWED("not_followed"), UNEXPLAINED("unexplained");

        public final String wireName;

        Class(String wireName) {
            this.wireName = wireName;
        }
    }

    /**
     * One class of finding on one model, with the shortest log that shows it.
     *
     * @param difference the first line where what was compared differs, in both versions
     * @param logs how many logs of the audit show this finding
     */
    public record Finding(String fingerprint, Class kind, String model, String difference, List<String> log,
                   List<String> baseValidator, List<String> headValidator, List<String> baseSpec, List<String> headSpec,
                   int logs) {}

    /** All findings of one model, and what was run. */
    public record Result(String model, List<Finding> findings, int logs, int oneSidedLogs) {}

    private record Case(List<String> lines, List<String> labels) {}

    private ImplementationCheck() {}

    static Result run(String model, StateGraph base, StateGraph head, List<Difference> witnesses,
                      RevisionValidator baseValidator, RevisionValidator headValidator) {
        Machine baseMachine = new Machine(base, "base");
        Machine headMachine = new Machine(head, "head");
        SequencedMap<String, Case> cases = new LinkedHashMap<>();
        for (Machine machine : List.of(baseMachine, headMachine)) {
            for (List<Edge> path : GraphPaths.scenarioPaths(machine.graph())) {
                List<String> lines = GraphPaths.replayLines(machine.graph(), path);
                cases.putIfAbsent(String.join("\n", lines), new Case(lines, machine.labels(path)));
            }
        }
        for (Difference witness : witnesses) {
            Machine taker = witness.baseTakes() ? baseMachine : headMachine;
            Optional<List<Edge>> path = taker.walk(labelsOf(witness.witness()));
            path.ifPresent(p -> cases.putIfAbsent(String.join("\n", witness.witness()),
                    new Case(witness.witness(), taker.labels(p))));
        }
        boolean sameValidator = baseValidator.sourceHash().equals(headValidator.sourceHash());
        Map<String, List<Finding>> groups = new TreeMap<>();
        int oneSided = 0;
        for (Case c : cases.values()) {
            Optional<List<Edge>> onBase = baseMachine.walk(c.labels());
            Optional<List<Edge>> onHead = headMachine.walk(c.labels());
            if (onBase.isEmpty() || onHead.isEmpty()) {
                oneSided++;
                continue;
            }
            List<String> baseSpec = GraphPaths.replayOutcome(base, onBase.get());
            List<String> headSpec = GraphPaths.replayOutcome(head, onHead.get());
            String log = String.join("\n", c.lines()) + "\n";
            List<String> baseOut = ReplayWords.of(baseValidator.replay(log));
            List<String> headOut = sameValidator ? baseOut : ReplayWords.of(headValidator.replay(log));
            boolean specChanged = !baseSpec.equals(headSpec);
            Class kind;
            String difference;
            if (!baseOut.equals(headOut)) {
                kind = !specChanged ? Class.UNEXPLAINED : headOut.equals(headSpec) ? Class.EXPLAINED : Class.NOT_FOLLOWED;
                difference = firstDifference(baseOut, headOut, kind == Class.NOT_FOLLOWED ? headSpec : null);
            } else if (specChanged && !headOut.equals(headSpec)) {
                kind = Class.NOT_FOLLOWED;
                difference = firstDifference(headSpec, headOut, null);
            } else {
                continue;
            }
            Finding finding = new Finding("", kind, model, difference, c.lines(), baseOut, headOut, baseSpec, headSpec, 1);
            groups.computeIfAbsent(kind.wireName + "\n" + shape(difference), k -> new ArrayList<>()).add(finding);
        }
        List<Finding> findings = new ArrayList<>();
        for (List<Finding> group : groups.values()) {
            Finding shortest = group.stream().min(Comparator.<Finding>comparingInt(f -> f.log().size())
                    .thenComparing(f -> String.join("\n", f.log()))).orElseThrow();
            String fingerprint = Fingerprints.of("implementation", shortest.kind().wireName, model,
                    String.join("\n", shortest.log()));
            findings.add(new Finding(fingerprint, shortest.kind(), model, shortest.difference(), shortest.log(),
                    shortest.baseValidator(), shortest.headValidator(), shortest.baseSpec(), shortest.headSpec(), group.size()));
        }
        findings.sort(Comparator.comparing((Finding f) -> f.kind().ordinal()).reversed()
                .thenComparing(Finding::difference));
        return new Result(model, findings, cases.size(), oneSided);
    }

    /** A witness's event labels: its replay lines without the topology and without step numbers. */
    private static List<String> labelsOf(List<String> witness) {
        List<String> labels = new ArrayList<>();
        for (String line : witness.subList(1, witness.size())) {
            labels.add(line.replaceFirst("^\\{\"kind\":\"step\",\"step\":\\d+,", "{\"kind\":\"step\","));
        }
        return labels;
    }

    /** "base: X / head: Y" at the first line where the two lists differ (the spec's line too, where given). */
    private static String firstDifference(List<String> base, List<String> head, List<String> spec) {
        int i = 0;
        while (i < base.size() && i < head.size() && base.get(i).equals(head.get(i))) {
            i++;
        }
        String text = "base validator: " + (i < base.size() ? base.get(i) : "<nothing>") + " / head validator: "
                + (i < head.size() ? head.get(i) : "<nothing>");
        if (spec != null) {
            text += " / head spec: " + (i < spec.size() ? spec.get(i) : "<nothing>");
        }
        return text;
    }

    /** A difference without request ids, step numbers and values, so that one change is one finding. */
    private static String shape(String difference) {
        return difference.replaceAll("step=\\d+ ", "").replaceAll("=[^ /]*", "=").replaceAll(" r\\d+ ", " ");
    }
}
