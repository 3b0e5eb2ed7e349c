package io.proofgate.review;

import io.proofgate.conform.Scenario;
import io.proofgate.words.Capability;

import java.util.Set;

/** What became of one scenario in an audit of a connector change. */
public sealed interface Outcome {

    Scenario scenario();

    /** Both revisions answered every message; {@code comparison} says whether and how they differ. */
    record Compared(Scenario scenario, Comparison comparison) implements Outcome {}

    /** Not run: a revision lacks a capability the scenario needs. */
    record NotRun(Scenario scenario, Set<Capability> missing) implements Outcome {}

    /**
     * A revision broke the protocol, or the run stopped before the scenario: it could not be judged.
     *
     * @param side "base", "head", or "run" when the run stopped before it
     */
    record Errored(Scenario scenario, String side, String message) implements Outcome {}
}
