package io.proofgate.conform;

import io.proofgate.words.Capability;

import java.util.List;
import java.util.Set;

/** How one scenario went. */
public sealed interface Result {

    Scenario scenario();

    /** Seconds the scenario took, shrinking included. */
    double seconds();

    /**
     * Every plan safe and, where the kit models the adapter's policy, the same answers. {@code missed}: the requests
     * the scenario publishes under latch-at-target that an adapter of its own policy never published, {@code
     * missedHits} those whose lookup latch-at-target answers with a longer hit than the adapter did (both reported
     * apart, not failed).
     */
    record Passed(Scenario scenario, List<String> missed, List<String> missedHits, double seconds) implements Result {
        public Passed(Scenario scenario, double seconds) {
            this(scenario, List.of(), List.of(), seconds);
        }
    }

    /**
     * A plan the adapter printed publishes blocks that do not hold its prefix, or a hit or load restores what the store
     * does not hold: {@code event} is the event it answers (1-based), which is also the shortest failing prefix, and
     * {@code sent} those events as the adapter was sent them (a looked-up request with the adapter's hit); {@code plan}
     * the answer as printed; {@code findings} what is wrong: each wrong block, what it should hold and what it holds.
     */
    record Unsafe(Scenario scenario, int event, List<String> sent, String plan, List<String> findings, double seconds)
            implements Result {
        public Unsafe {
            sent = List.copyOf(sent);
        }

        /** How the report introduces {@link #plan}: a plan is published, a hit or load answered. */
        public String verb() {
            return plan.startsWith("{\"kind\":\"plan\"") ? "published" : "answered";
        }
    }

    /**
     * The implementation said something else. {@code shortest} is the shortest prefix of the scenario that still fails,
     * with its own first difference; {@code events} its length.
     */
    record Failed(Scenario scenario, Mismatch mismatch, int events, Mismatch shortest, double seconds)
            implements Result {}

    /** Needs capabilities the adapter did not declare. */
    record NotRun(Scenario scenario, Set<Capability> missing, double seconds) implements Result {}

    /**
     * The adapter said the scenario does not apply to its connector (for example, the vLLM field its connector reads
     * cannot carry the scenario's evidence): not run, with its reason.
     */
    record NotApplicable(Scenario scenario, String reason, double seconds) implements Result {}

    /** The adapter broke the protocol on this scenario: the run cannot be judged. */
    record Errored(Scenario scenario, String message, double seconds) implements Result {}

    /**
     * The first difference of a run: after which event ({@code event} counts from 1; 0 is the topology, events + 1 the
     * summary), the rule it falls under, both sides as lines.
     */
    record Mismatch(int event, String rule, List<String> expected, List<String> actual) {}
}
