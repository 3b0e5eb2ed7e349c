package io.proofgate.audit;

import io.proofgate.check.CounterexamplePrinter;
import io.proofgate.tlc.TlcResult;
import io.proofgate.tlc.TraceState;
import io.proofgate.tlc.Violation;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether the head's spec keeps, on one model, the invariants and properties that model checks (its config's, run on
 * the base's model files), which the base's spec passes. A change that breaks one is a safety difference: not a verdict
 * a reviewer weighs, a published block that may not hold the state it is published for. A safety difference cannot be
 * accepted, since a spec that violates its own invariants is no protocol to compare against; the change, or the
 * invariant, has to change.
 */
public record Safety(String model, Optional<Broken> broken) {

    /**
     * What the head violates on the model, with TLC's counterexample.
     *
     * @param property the invariant or property TLC names ({@code temporal properties} where it names none)
     * @param counterexample the trace for people: each state with the action that led to it and the variables it
     *     changed
     */
    public record Broken(String property, Violation.Kind kind, List<TraceState> trace, String counterexample) {
        public Broken {
            trace = List.copyOf(trace);
        }

        /** The kind as the reports write it. */
        public String kindName() {
            return kind.name().toLowerCase(Locale.ROOT).replace('_', ' ');
        }
    }

    static Safety holds(String model) {
        return new Safety(model, Optional.empty());
    }

    /**
     * The head's violation as TLC reported it; empty when the run is not a violation with a trace (then it is no
     * finding, but an error).
     */
    static Optional<Safety> violated(String model, TlcResult result) {
        if (result.unfinished()) {
            return Optional.empty();
        }
        return result.run()
                .violation()
                .filter(v -> v.kind() != Violation.Kind.DEADLOCK && !result.run().trace().isEmpty())
                .map(
                        v ->
                                new Safety(
                                        model,
                                        Optional.of(
                                                new Broken(
                                                        v.name().orElse("temporal properties"),
                                                        v.kind(),
                                                        result.run().trace(),
                                                        CounterexamplePrinter.print(result.run().trace())))));
    }

    /**
     * A broken model's identity: the model and what it violates, never the trace (TLC's order may change with the
     * spec).
     */
    public String fingerprint() {
        return Fingerprints.of("safety", model, broken.map(Broken::property).orElse(""));
    }
}
