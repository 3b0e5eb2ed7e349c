package io.proofgate.mutate;

import io.proofgate.check.Model;

import java.time.Duration;
import java.util.OptionalLong;

/**
 * The limits of each TLC run on a mutant. The one that decides an outcome is the state bound: counted in distinct
 * states, with one worker, it stops a run at the same state on every machine, loaded or not. The timeout only guards
 * against a TLC that hangs without finding states; it is long enough that no run within the bound comes near it.
 *
 * @param maxStates distinct states a run may find, the same for every model; empty: each model's {@link
 *     #maxStates(Model) default}
 */
public record MutantLimits(Duration timeout, OptionalLong maxStates) {

    /**
     * Times a model's recorded distinct states. A mutant that loosens a guard can grow the state space; in a full run
     * of the 481 mutants and named mistakes (docs/mutate.md) no TLC run found more states than the largest generation
     * model has unmutated (1,641, ci).
     */
    public static final long FACTOR = 20;

    /** The least default bound, for small models (and models without a recorded count). */
    public static final long FLOOR = 100_000;

    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(30);

    public MutantLimits {
        if (maxStates.isPresent() && maxStates.getAsLong() < 1) {
            throw new IllegalArgumentException("--max-states must be at least 1");
        }
    }

    /** The defaults: each model's own state bound, and the hang guard. */
    public static MutantLimits defaults() {
        return new MutantLimits(DEFAULT_TIMEOUT, OptionalLong.empty());
    }

    /**
     * The state bound of a run on {@code model}: the one given, else {@value #FACTOR} times its recorded states, at
     * least {@value #FLOOR}.
     */
    public long maxStates(Model model) {
        return maxStates.orElseGet(() -> Math.max(FLOOR, FACTOR * model.distinctStates().orElse(0)));
    }
}
