package io.proofgate.review;

import io.proofgate.conform.Line;
import io.proofgate.conform.PlanSafety;
import io.proofgate.conform.Rules;
import io.proofgate.conform.Scenario;
import io.proofgate.conform.ScenarioRun;
import io.proofgate.conform.Transcript;
import io.proofgate.words.Capability;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Compares two revisions' transcripts of one scenario, message by message, and classifies the first difference: by kind
 * (a verdict, a reason only, an order only, the state only) and against the model's expectation for that part (fix,
 * regression, both differ, model silent). Pure: the transcripts are the only input.
 *
 * <p>Two revisions are compared on everything they say (a rejection's reason text included), but only under the
 * capabilities both declare: a state line one revision prints and the other does not is no difference of the
 * connector's. The model is asked under the same capabilities.
 */
public final class Classifier {

    private final Set<Capability> common;

    /** The common capabilities without reason_facts: what names a verdict class by its identity. */
    private final Set<Capability> identity;

    public Classifier(Set<Capability> base, Set<Capability> head) {
        Set<Capability> both = EnumSet.noneOf(Capability.class);
        both.addAll(base);
        both.retainAll(head);
        this.common = Set.copyOf(both);
        both.remove(Capability.REASON_FACTS);
        this.identity = Set.copyOf(both);
    }

    /** The capabilities both revisions declare: what is compared, and what a scenario may need. */
    public Set<Capability> common() {
        return common;
    }

    public Comparison compare(Scenario scenario, int prefix, Transcript base, Transcript head) {
        Optional<String> notA = ScenarioRun.notApplicable(base);
        Optional<String> notB = ScenarioRun.notApplicable(head);
        if (notA.isPresent() || notB.isPresent()) {
            // a plan printed before the not_applicable, or beside it, was published all the same: safety first
            Optional<Safety> safety = safety(scenario, 1, base, head);
            if (safety.isPresent()) {
                int k = safety.get().event();
                return new Comparison.Differs(
                        k,
                        DifferenceKind.VERDICT,
                        safety.get().judgement(),
                        "plan: published, then the scenario said not to apply",
                        json(verdicts(base.answer(k))),
                        json(verdicts(head.answer(k))),
                        List.of(safety.get().finding()));
            }
            // else a scenario that does not apply to a revision's connector is compared no further
            return notA.isPresent() && notB.isPresent()
                    ? new Comparison.NotApplicable(notA.get())
                    : new Comparison.OneRefused(
                            ScenarioRun.notApplicableAt(notA.isPresent() ? base : head).orElseThrow(),
                            notA.isPresent() ? "base" : "head",
                            "not applicable: " + notA.or(() -> notB).get());
        }
        List<Line.VerdictLine> printedBefore = new ArrayList<>();
        for (int k = 0; k < prefix + 2; k++) {
            List<Line> a = base.answer(k);
            List<Line> b = head.answer(k);
            Line.Refused refusedA = refusal(a);
            Line.Refused refusedB = refusal(b);
            if (refusedA != null || refusedB != null) {
                if (refusedA == null || refusedB == null) {
                    // a refusal's message is prose; that both refuse is what counts
                    return new Comparison.OneRefused(
                            k, refusedA != null ? "base" : "head", (refusedA != null ? refusedA : refusedB).message());
                }
                return new Comparison.BothRefused(k, refusedA.message(), refusedB.message());
            }
            if (k == 0) {
                continue; // the topology's answer is empty or a refusal
            }
            if (k == prefix + 1) {
                Line.Summary summaryA = (Line.Summary) a.getFirst();
                Line.Summary summaryB = (Line.Summary) b.getFirst();
                if (summaryA.json().equals(summaryB.json())) {
                    return new Comparison.Same();
                }
                Line.Summary expected = ScenarioRun.expectedSummary(scenario, prefix);
                ModelJudgement judgement =
                        expected == null
                                ? ModelJudgement.MODEL_SILENT
                                : ModelJudgement.judge(same(expected, summaryA), same(expected, summaryB));
                return new Comparison.Differs(
                        k,
                        DifferenceKind.STATE_ONLY,
                        judgement,
                        Rules.ofSummary(summaryA, summaryB),
                        List.of(summaryA.json()),
                        List.of(summaryB.json()),
                        expected == null
                                ? List.of(
                                        "(the model states no summary here: a hand-written log's is known at its end)")
                                : List.of(expected.json()));
            }
            List<Line.VerdictLine> verdictsA = verdicts(a);
            List<Line.VerdictLine> verdictsB = verdicts(b);
            Line.State stateA = state(a);
            Line.State stateB = state(b);
            List<String> jsonA = verdictsA.stream().map(Line.VerdictLine::json).toList();
            List<String> jsonB = verdictsB.stream().map(Line.VerdictLine::json).toList();
            List<String> savedA = saved(a);
            List<String> savedB = saved(b);
            if (jsonA.equals(jsonB) && !savedA.equals(savedB)) {
                // when the workers' copies end is how the connector saves: a difference of the copies, judged for
                // safety
                return copyDifference(scenario, k, base, head, concat(jsonA, savedA), concat(jsonB, savedB));
            }
            if (jsonA.equals(jsonB)) {
                if (stateA == null || stateB == null || stateA.lines().equals(stateB.lines())) {
                    printedBefore.addAll(verdictsA);
                    continue;
                }
                return stateDifference(scenario, k, stateA, stateB);
            }
            DifferenceKind kind;
            String rule;
            if (jsonA.stream().sorted().toList().equals(jsonB.stream().sorted().toList())) {
                kind = DifferenceKind.ORDER_ONLY;
                rule = "order: " + outcomes(verdictsA) + " -> " + outcomes(verdictsB);
            } else if (copyOnly(verdictsA, verdictsB)) {
                kind = DifferenceKind.VERDICT;
                rule = "plan: how its blocks are copied differs (copy, pinned)";
            } else if (words(verdictsA, identity).equals(words(verdictsB, identity))) {
                kind = DifferenceKind.REASON_ONLY;
                rule = reasonRule(verdictsA, verdictsB);
            } else {
                kind = DifferenceKind.VERDICT;
                rule = Rules.ofVerdicts(verdictsA, verdictsB, identity);
            }
            ModelJudgement judgement;
            List<String> model;
            switch (scenario.expected()) {
                case Scenario.PerEvent perEvent -> {
                    List<Line.VerdictLine> expected = perEvent.after().get(k - 1).verdicts();
                    judgement =
                            ModelJudgement.judge(
                                    words(expected, common).equals(words(verdictsA, common)),
                                    words(expected, common).equals(words(verdictsB, common)));
                    model = json(expected);
                }
                case Scenario.WholeLog whole -> {
                    judgement =
                            ModelJudgement.judge(
                                    continues(whole.verdicts(), printedBefore, verdictsA),
                                    continues(whole.verdicts(), printedBefore, verdictsB));
                    List<Line.VerdictLine> next =
                            whole.verdicts()
                                    .subList(
                                            Math.min(printedBefore.size(), whole.verdicts().size()),
                                            Math.min(
                                                    whole.verdicts().size(),
                                                    printedBefore.size()
                                                            + Math.max(verdictsA.size(), verdictsB.size())));
                    model = json(next);
                }
                case Scenario.BlockContents stated -> {
                    // vLLM's blocks only: the model says nothing of a connector's verdicts; safety below decides
                    judgement = ModelJudgement.MODEL_SILENT;
                    model = List.of("(the model states vLLM's block contents, no verdicts)");
                }
            }
            Optional<Safety> safety = safety(scenario, k, base, head);
            if (safety.isPresent()) {
                judgement = safety.get().judgement();
                model = new ArrayList<>(model);
                model.add(safety.get().finding());
            }
            return new Comparison.Differs(k, kind, judgement, rule, json(verdictsA), json(verdictsB), model);
        }
        return new Comparison.Same();
    }

    /** The same verdicts but for how a plan's blocks are copied: when, and whether pinned. */
    private static boolean copyOnly(List<Line.VerdictLine> a, List<Line.VerdictLine> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).json().equals(b.get(i).json())
                    && !(a.get(i) instanceof Line.Plan x
                            && b.get(i) instanceof Line.Plan y
                            && x.words(Set.of()).equals(y.words(Set.of())))) {
                return false;
            }
        }
        return true;
    }

    private static List<String> saved(List<Line> answer) {
        return answer.stream().filter(Line.Saved.class::isInstance).map(line -> ((Line.Saved) line).json()).toList();
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> both = new ArrayList<>(a);
        both.addAll(b);
        return both;
    }

    /** The same verdicts after message {@code k}, but the copies that end there differ. */
    private static Comparison.Differs copyDifference(
            Scenario scenario, int k, Transcript base, Transcript head, List<String> a, List<String> b) {
        Optional<Safety> safety = safety(scenario, k, base, head);
        return new Comparison.Differs(
                k,
                DifferenceKind.VERDICT,
                safety.map(Safety::judgement).orElse(ModelJudgement.MODEL_SILENT),
                "saved: the copies that end here differ",
                a,
                b,
                List.of(
                        safety.map(Safety::finding)
                                .orElse("(the model states no copies: it judges them for safety only)")));
    }

    /** A safety regression or fix at event {@code event}, with the finding the model's lines end with. */
    private record Safety(ModelJudgement judgement, String finding, int event) {}

    /**
     * Safety first: where exactly one side has a plan unsafe at message {@code k} or later (an asynchronous copy turns
     * unsafe at a later event; answers alike up to {@code k} cannot differ in safety before it), the difference is a
     * safety regression or fix.
     */
    private static Optional<Safety> safety(Scenario scenario, int k, Transcript base, Transcript head) {
        Optional<PlanSafety.Unsafe> unsafeA = PlanSafety.firstUnsafeFrom(scenario, base, k);
        Optional<PlanSafety.Unsafe> unsafeB = PlanSafety.firstUnsafeFrom(scenario, head, k);
        if (unsafeA.isPresent() == unsafeB.isPresent()) {
            return Optional.empty();
        }
        return Optional.of(
                new Safety(
                        unsafeB.isPresent() ? ModelJudgement.SAFETY_REGRESSION : ModelJudgement.SAFETY_FIX,
                        // said of the side that is unsafe, not of the model's lines it is printed under
                        (unsafeB.isPresent() ? "(unsafe at the head: " : "(unsafe at the base: ")
                                + unsafeB.or(() -> unsafeA).get().findings().getFirst()
                                + ")",
                        unsafeB.or(() -> unsafeA).get().event()));
    }

    private Comparison.Differs stateDifference(Scenario scenario, int k, Line.State a, Line.State b) {
        List<String> model;
        ModelJudgement judgement;
        if (scenario.expected() instanceof Scenario.PerEvent perEvent) {
            Line.State expected = perEvent.after().get(k - 1).state();
            judgement = ModelJudgement.judge(expected.lines().equals(a.lines()), expected.lines().equals(b.lines()));
            model = expected.texts();
        } else {
            judgement = ModelJudgement.MODEL_SILENT;
            model =
                    List.of(
                            scenario.expected() instanceof Scenario.BlockContents
                                    ? "(the model states vLLM's block contents, no connector state)"
                                    : "(the model states no state for a hand-written log)");
        }
        return new Comparison.Differs(
                k, DifferenceKind.STATE_ONLY, judgement, Rules.ofState(a, b), a.texts(), b.texts(), model);
    }

    /**
     * Whether {@code said}, printed after {@code before}, keeps a hand-written log's verdicts a prefix of the expected
     * ones.
     */
    private boolean continues(
            List<Line.VerdictLine> expected, List<Line.VerdictLine> before, List<Line.VerdictLine> said) {
        int end = before.size() + said.size();
        if (end > expected.size()) {
            return false;
        }
        return words(expected.subList(before.size(), end), common).equals(words(said, common));
    }

    /**
     * "rejected C: reason facts F, G differ" or "rejected C: reason text differs": which part of the first differing
     * reason changed.
     */
    private static String reasonRule(List<Line.VerdictLine> a, List<Line.VerdictLine> b) {
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i) instanceof Line.Rejected x
                    && b.get(i) instanceof Line.Rejected y
                    && !x.json().equals(y.json())) {
                if (x.facts().equals(y.facts())) {
                    return "rejected " + x.code() + ": reason text differs";
                }
                List<String> names = new ArrayList<>();
                for (String fact : x.facts()) {
                    String name = fact.substring(0, Math.max(0, fact.indexOf('=')));
                    if (!y.facts().contains(fact) && !names.contains(name)) {
                        names.add(name);
                    }
                }
                for (String fact : y.facts()) {
                    String name = fact.substring(0, Math.max(0, fact.indexOf('=')));
                    if (!x.facts().contains(fact) && !names.contains(name)) {
                        names.add(name);
                    }
                }
                return "rejected "
                        + x.code()
                        + ": reason fact"
                        + (names.size() == 1 ? " " : "s ")
                        + String.join(", ", names)
                        + (names.size() == 1 ? " differs" : " differ");
            }
        }
        return "a reason differs";
    }

    private static String outcomes(List<Line.VerdictLine> verdicts) {
        if (verdicts.isEmpty()) {
            return "no verdict";
        }
        List<String> names = new ArrayList<>();
        for (Line.VerdictLine verdict : verdicts) {
            names.add(
                    switch (verdict) {
                        case Line.Plan p -> "plan";
                        case Line.Rejected r -> "rejected " + r.code();
                        case Line.Retired r -> "retired " + r.cause();
                        case Line.Hit h -> "hit of " + h.tokens() + " tokens";
                        case Line.Load l -> "load";
                    });
        }
        return String.join(", ", names);
    }

    private static boolean same(Line.Summary expected, Line.Summary said) {
        return expected.words(Set.of()).equals(said.words(Set.of()));
    }

    private static List<String> words(List<Line.VerdictLine> verdicts, Set<Capability> capabilities) {
        return verdicts.stream().map(v -> v.words(capabilities)).toList();
    }

    private static List<String> json(List<Line.VerdictLine> verdicts) {
        return verdicts.isEmpty() ? List.of("(no verdict)") : verdicts.stream().map(Line.VerdictLine::json).toList();
    }

    private static Line.Refused refusal(List<Line> answer) {
        for (Line line : answer) {
            if (line instanceof Line.Refused refused) {
                return refused;
            }
        }
        return null;
    }

    private static List<Line.VerdictLine> verdicts(List<Line> answer) {
        List<Line.VerdictLine> verdicts = new ArrayList<>();
        for (Line line : answer) {
            if (line instanceof Line.VerdictLine verdict) {
                verdicts.add(verdict);
            }
        }
        return verdicts;
    }

    private static Line.State state(List<Line> answer) {
        for (Line line : answer) {
            if (line instanceof Line.State state) {
                return state;
            }
        }
        return null;
    }
}
