package io.proofgate.review;

import io.proofgate.audit.Fingerprints;
import io.proofgate.conform.Conform;
import io.proofgate.conform.ConformException;
import io.proofgate.conform.Scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Groups an audit's differing scenarios into classes (kind, judgement, rule) and gives each its shortest witness: the
 * scenario whose difference comes earliest (the first in scenario order on a tie), shrunk to its shortest prefix that
 * still shows a difference of the class. Safety regressions come first, then safety fixes, then the other classes, each
 * in the order of their first scenario, so the report is the same bytes run after run.
 */
public final class Classes {

    private Classes() {}

    public static List<DifferenceClass> of(
            ConnectorAudit.Run run, Conform.Adapters base, Conform.Adapters head, ConnectorAudit.Settings settings)
            throws ConformException {
        Map<String, List<Outcome.Compared>> byClass = new LinkedHashMap<>();
        for (Outcome outcome : run.outcomes()) {
            if (outcome instanceof Outcome.Compared compared && compared.comparison() instanceof Comparison.Differs d) {
                byClass.computeIfAbsent(d.classKey(), k -> new ArrayList<>()).add(compared);
            }
        }
        List<DifferenceClass> classes = new ArrayList<>();
        for (var entry : byClass.entrySet()) {
            Outcome.Compared shortest = null;
            List<String> seenIn = new ArrayList<>();
            for (Outcome.Compared compared : entry.getValue()) {
                int at = ((Comparison.Differs) compared.comparison()).message();
                if (shortest == null || at < ((Comparison.Differs) shortest.comparison()).message()) {
                    shortest = compared;
                }
                if (!seenIn.contains(compared.scenario().suite())) {
                    seenIn.add(compared.scenario().suite());
                }
            }
            Scenario scenario = shortest.scenario();
            Comparison.Differs differs = (Comparison.Differs) shortest.comparison();
            // the event of the difference; a summary's difference is seen after the last event
            int upTo = Math.min(differs.message(), scenario.events().size());
            ConnectorAudit.Witness witness = ConnectorAudit.shrink(scenario, upTo, differs, base, head, settings);
            List<String> parts = new ArrayList<>(List.of(entry.getKey(), scenario.topology()));
            scenario.events().subList(0, witness.events()).forEach(e -> parts.add(e.line()));
            classes.add(
                    new DifferenceClass(
                            witness.differs(),
                            entry.getValue().size(),
                            seenIn,
                            scenario,
                            witness.events(),
                            Fingerprints.of(parts.toArray(String[]::new))));
        }
        // safety regressions first, then safety fixes, then the rest, each in the order of their first scenario
        List<DifferenceClass> ranked = new ArrayList<>(classes);
        ranked.sort(
                java.util.Comparator.comparingInt(
                        c ->
                                switch (c.first().judgement()) {
                                    case SAFETY_REGRESSION -> 0;
                                    case SAFETY_FIX -> 1;
                                    default -> 2;
                                }));
        return List.copyOf(ranked);
    }
}
