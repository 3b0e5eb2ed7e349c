package io.proofgate.mutate;

/** What checking one mutant on the models gave. */
public sealed interface Outcome {

    /** A model's check failed: TLC named {@code by} (an invariant or property), or failed evaluating. */
    record Killed(String model, String by) implements Outcome {}

    /** Every model passed: the spec's properties cannot tell this mutant from the spec. */
    record Survived() implements Outcome {}

    /** A model's check ran past the limit before it could say. */
    record TimedOut(String model) implements Outcome {}

    /** SANY or the config refused the mutant: it is not a spec, and does not count in the score. */
    record NotCompilable(String problem) implements Outcome {}

    default String word() {
        return switch (this) {
            case Killed k -> "killed";
            case Survived s -> "survived";
            case TimedOut t -> "timed-out";
            case NotCompilable n -> "not-compilable";
        };
    }
}
