package io.proofgate.review;

import io.proofgate.conform.Scenario;

import java.util.List;

/**
 * The scenarios whose first difference falls under one rule with one kind and one judgement, with the shortest witness:
 * the first {@code events} events of {@code witness}, and the answers both revisions and the model give at its last
 * message.
 *
 * @param scenarios how many scenarios show it
 * @param seenIn the scenario files (suites) it was seen in, in order
 * @param fingerprint SHA-256 of the class and its witness's lines, 16 hex digits
 */
public record DifferenceClass(
        Comparison.Differs first,
        int scenarios,
        List<String> seenIn,
        Scenario witness,
        int events,
        String fingerprint) {

    public DifferenceClass {
        seenIn = List.copyOf(seenIn);
    }

    /** The witness as a replay log: the topology line, then its events. */
    public List<String> witnessLines() {
        List<String> lines = new java.util.ArrayList<>();
        lines.add(witness.topology());
        witness.events().subList(0, events).forEach(e -> lines.add(e.line()));
        return lines;
    }
}
