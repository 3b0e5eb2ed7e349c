package io.proofgate.conform;

import io.proofgate.words.Capability;
import java.util.List;
import java.util.Set;

/** How one scenario went. */
public sealed interface Result {

    Scenario scenario();

    /** Seconds the scenario took, shrinking included. */
    double seconds();

    record Passed(Scenario scenario, double seconds) implements Result {}

    /**
     * The implementation said something else. {@code shortest} is the shortest prefix of the
     * scenario that still fails, with its own first difference; {@code events} its length.
     */
    record Failed(Scenario scenario, Mismatch mismatch, int events, Mismatch shortest, double seconds) implements Result {}

    /** Needs capabilities the adapter did not declare. */
    record NotRun(Scenario scenario, Set<Capability> missing, double seconds) implements Result {}

    /** The adapter broke the protocol on this scenario: the run cannot be judged. */
    record Errored(Scenario scenario, String message, double seconds) implements Result {}

    /**
     * The first difference of a run: after which event ({@code event} counts from 1; 0 is the
     * topology, events + 1 the summary), the rule it falls under, both sides as lines.
     */
    record Mismatch(int event, String rule, List<String> expected, List<String> actual) {}
}
