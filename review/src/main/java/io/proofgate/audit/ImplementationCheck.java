package io.proofgate.audit;

import io.proofgate.generate.GraphPaths;
import io.proofgate.graph.Edge;
import io.proofgate.words.EventObject;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.TreeMap;

/**
 * Whether the validator followed the spec: every log of both revisions' generated scenarios and every behaviour witness
 * goes through the base's and the head's validator, and each revision's spec says what it must print. A log the two
 * validators answer differently is explained when the specs differ on it too and the head validator says what the head
 * spec says, and unexplained when the specs agree on it (the most important finding: the implementation changed on its
 * own). A log the specs differ on, where the head validator does not say what the head spec says, was not followed. A
 * log that one spec's environment never sends tells nothing about conformance and is counted apart.
 */
public final class ImplementationCheck {

    /** The classes of a finding. */
    public enum Class {
        EXPLAINED("explained"),
        NOT_FOLLOWED("not_followed"),
        UNEXPLAINED("unexplained");

        private final String wireName;

        Class(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }

    /**
     * One class of finding on one model, with the shortest log that shows it.
     *
     * @param difference the first line where what was compared differs, in both versions
     * @param logs how many logs of the audit show this finding
     */
    public record Finding(
            String fingerprint,
            Class kind,
            String model,
            String difference,
            List<String> log,
            List<String> baseValidator,
            List<String> headValidator,
            List<String> baseSpec,
            List<String> headSpec,
            int logs) {}

    /**
     * All findings of one model, and what was run.
     *
     * @param replayed the logs that went through the validators: all that both specs' environments send, or, where both
     *     revisions' validators are built from the same sources, those the specs answer differently (on any other the
     *     validators answer alike, and the specs too: it cannot show a finding)
     */
    public record Result(String model, List<Finding> findings, int logs, int oneSidedLogs, int replayed) {}

    /**
     * One log: its lines, and joined as a log without its last newline (written once: it is both the key that makes the
     * logs distinct and what the validators read), its events' labels, and the machine whose path it was found on, with
     * that path.
     */
    private record Case(List<String> lines, String text, List<String> labels, Machine taker, List<Edge> path) {}

    private ImplementationCheck() {}

    static Result run(
            String model,
            Machine baseMachine,
            Machine headMachine,
            List<Difference> witnesses,
            RevisionValidator baseValidator,
            RevisionValidator headValidator) {
        if (GraphPaths.statesContents(baseMachine.graph()) || GraphPaths.statesContents(headMachine.graph())) {
            return new Result(
                    model, List.of(), 0, 0, 0); // vLLM alone: no verdict of the model for a validator to follow
        }
        SequencedMap<String, Case> cases = new LinkedHashMap<>();
        // each graph's scenarios are found on a thread of their own, then taken base first, as one after the other did
        for (List<Case> side :
                List.of(baseMachine, headMachine).parallelStream().map(ImplementationCheck::scenarios).toList()) {
            for (Case c : side) {
                cases.putIfAbsent(c.text(), c);
            }
        }
        for (Difference witness : witnesses) {
            Machine taker = witness.baseTakes() ? baseMachine : headMachine;
            Optional<List<Edge>> path = taker.walk(labelsOf(witness.witness()));
            String text = String.join("\n", witness.witness());
            path.ifPresent(p -> cases.putIfAbsent(text, new Case(witness.witness(), text, taker.labels(p), taker, p)));
        }
        boolean sameValidator = baseValidator.sourceHash().equals(headValidator.sourceHash());
        List<Case> all = List.copyOf(cases.values());
        // the validators are pure, so the logs run in parallel; classification below keeps the cases' order
        List<Outcome> outcomes =
                all.parallelStream()
                        .map(c -> outcome(c, baseMachine, headMachine, baseValidator, headValidator, sameValidator))
                        .toList();
        Map<String, List<Finding>> groups = new TreeMap<>();
        int oneSided = 0;
        int replayed = 0;
        for (int n = 0; n < all.size(); n++) {
            Case c = all.get(n);
            Outcome o = outcomes.get(n);
            if (o == null) {
                oneSided++;
                continue;
            }
            if (o.baseOut() == null) {
                continue; // one validator, and the specs agree: no finding
            }
            replayed++;
            boolean specChanged = !o.baseSpec().equals(o.headSpec());
            Class kind;
            if (!o.baseOut().equals(o.headOut())) {
                kind =
                        !specChanged
                                ? Class.UNEXPLAINED
                                : o.headOut().equals(o.headSpec()) ? Class.EXPLAINED : Class.NOT_FOLLOWED;
            } else if (specChanged && !o.headOut().equals(o.headSpec())) {
                kind = Class.NOT_FOLLOWED;
            } else {
                continue;
            }
            // what the head validator should have said: the head spec's words where it did not follow, else the
            // base validator's (what it said before it changed); a finding is grouped by that expectation
            Divergence divergence =
                    kind == Class.NOT_FOLLOWED
                            ? Divergence.of("head spec", o.headSpec(), o.headOut())
                            : Divergence.of("base validator", o.baseOut(), o.headOut());
            String difference = divergence.text();
            Finding finding =
                    new Finding(
                            "",
                            kind,
                            model,
                            difference,
                            c.lines(),
                            o.baseOut(),
                            o.headOut(),
                            o.baseSpec(),
                            o.headSpec(),
                            1);
            groups.computeIfAbsent(kind.wireName() + "\n" + shape(divergence.expected()), k -> new ArrayList<>())
                    .add(finding);
        }
        List<Finding> findings = new ArrayList<>();
        for (List<Finding> group : groups.values()) {
            Finding shortest =
                    group.stream()
                            .min(
                                    Comparator.<Finding>comparingInt(f -> f.log().size())
                                            .thenComparing(f -> String.join("\n", f.log())))
                            .orElseThrow();
            String fingerprint =
                    Fingerprints.of(
                            "implementation", shortest.kind().wireName(), model, String.join("\n", shortest.log()));
            findings.add(
                    new Finding(
                            fingerprint,
                            shortest.kind(),
                            model,
                            shortest.difference(),
                            shortest.log(),
                            shortest.baseValidator(),
                            shortest.headValidator(),
                            shortest.baseSpec(),
                            shortest.headSpec(),
                            group.size()));
        }
        findings.sort(
                Comparator.comparing((Finding f) -> f.kind().ordinal()).reversed().thenComparing(Finding::difference));
        return new Result(model, findings, cases.size(), oneSided, replayed);
    }

    /** The logs {@code proofgate generate} would write from the machine's graph, with their event labels. */
    private static List<Case> scenarios(Machine machine) {
        List<Case> cases = new ArrayList<>();
        for (List<Edge> path : GraphPaths.scenarioPaths(machine.graph(), machine::label)) {
            List<String> labels = machine.labels(path);
            List<String> lines = machine.replayLines(path, labels);
            cases.add(new Case(lines, String.join("\n", lines), labels, machine, path));
        }
        return cases;
    }

    /**
     * What both specs and both validators say of one log; null when one spec's environment never sends it. The
     * validators' words are null where they were not asked: one validator, and specs that agree.
     */
    private record Outcome(List<String> baseSpec, List<String> headSpec, List<String> baseOut, List<String> headOut) {}

    private static Outcome outcome(
            Case c,
            Machine baseMachine,
            Machine headMachine,
            RevisionValidator baseValidator,
            RevisionValidator headValidator,
            boolean sameValidator) {
        // the machine a log was found on takes it along that path: only the other one walks it
        Optional<List<Edge>> onBase = c.taker() == baseMachine ? Optional.of(c.path()) : baseMachine.walk(c.labels());
        Optional<List<Edge>> onHead = c.taker() == headMachine ? Optional.of(c.path()) : headMachine.walk(c.labels());
        if (onBase.isEmpty() || onHead.isEmpty()) {
            return null;
        }
        List<String> baseSpec = baseMachine.replayOutcome(onBase.get());
        List<String> headSpec = headMachine.replayOutcome(onHead.get());
        if (sameValidator && baseSpec.equals(headSpec)) {
            return new Outcome(baseSpec, headSpec, null, null);
        }
        String log = c.text() + "\n";
        String basePrinted = baseValidator.replay(log);
        List<String> baseOut = ReplayWords.of(basePrinted);
        if (sameValidator) {
            return new Outcome(baseSpec, headSpec, baseOut, baseOut);
        }
        String headPrinted = headValidator.replay(log);
        // two validators mostly print the same: read once what they printed alike
        List<String> headOut = headPrinted.equals(basePrinted) ? baseOut : ReplayWords.of(headPrinted);
        return new Outcome(baseSpec, headSpec, baseOut, headOut);
    }

    /** A witness's event labels: its replay lines without the topology and without step numbers. */
    private static List<String> labelsOf(List<String> witness) {
        List<String> labels = new ArrayList<>();
        for (String line : witness.subList(1, witness.size())) {
            labels.add(EventObject.withoutStep(line));
        }
        return labels;
    }

    /** Where the head validator's output first departs from what it is compared with. */
    private record Divergence(String against, String expected, String actual) {
        static Divergence of(String against, List<String> expected, List<String> actual) {
            int i = 0;
            while (i < expected.size() && i < actual.size() && expected.get(i).equals(actual.get(i))) {
                i++;
            }
            return new Divergence(
                    against,
                    i < expected.size() ? expected.get(i) : "<nothing>",
                    i < actual.size() ? actual.get(i) : "<nothing>");
        }

        String text() {
            return against + ": " + expected + " / head validator: " + actual;
        }
    }

    /** A line without its step number, request id and values, so that one change is one finding. */
    private static String shape(String line) {
        return line.replaceAll("=[^ ]*", "=").replaceAll("^(\\w+) \\S+ ", "$1 ");
    }
}
