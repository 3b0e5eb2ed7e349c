package io.proofgate.mutate;

/** What checking one mutant on the models gave. */
public sealed interface Outcome {

    /** A model's check failed: TLC named {@code by} (an invariant or property), or failed evaluating. */
    record Killed(String model, String by) implements Outcome {}

    /** Every model passed: the spec's properties cannot tell this mutant from the spec. */
    record Survived() implements Outcome {}

    /**
     * A limit stopped a model's check before it could say: the mutant's outcome is unknown, so it counts as not killed
     * and leaves the run unfinished.
     */
    sealed interface Unfinished extends Outcome {
        String model();
    }

    /**
     * The check found more distinct states than {@code --max-states} allows: decided by the mutant and the model alone,
     * the same on every machine.
     */
    record OverStateBound(String model, long maxStates) implements Unfinished {}

    /** The check ran past {@code --timeout} (a guard against a hung TLC; it depends on the machine). */
    record TimedOut(String model) implements Unfinished {}

    /** SANY or the config refused the mutant: it is not a spec, and does not count in the score. */
    record NotCompilable(String problem) implements Outcome {}

    default String wireName() {
        return switch (this) {
            case Killed k -> "killed";
            case Survived s -> "survived";
            case OverStateBound o -> "over-state-bound";
            case TimedOut t -> "timed-out";
            case NotCompilable n -> "not-compilable";
        };
    }
}
