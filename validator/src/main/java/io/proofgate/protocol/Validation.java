package io.proofgate.protocol;

import io.proofgate.words.PoisonCode;

import java.math.BigInteger;

/**
 * The validation of one request's evidence in one step (protocol §3, the spec's {@code Keep}, {@code Latch(X)} and
 * {@code Poison(code, facts)}), before it is compared with the latch.
 */
sealed interface Validation {

    /** Nothing at the exact target: keep the latch as it is. */
    record Keep() implements Validation {}

    /**
     * A proof to latch: exact-target blocks covering every recurrent group; {@code blockByGroup[g]} is 0 for other
     * groups.
     */
    record Latch(long[] blockByGroup) implements Validation {}

    /**
     * {@code facts}: the reason's words after block, each {@code " key=value"} (empty when none); {@code observed},
     * {@code group} and {@code block} are null where they do not apply, and exact: a log's integer beyond 64 bits is
     * stated as the log wrote it.
     */
    record Poison(PoisonCode code, String facts, BigInteger observed, Integer group, BigInteger block)
            implements Validation {
        static Poison of(PoisonCode code, String facts) {
            return new Poison(code, facts, null, null, null);
        }

        static Poison of(PoisonCode code, String facts, long observed, Integer group, long block) {
            return new Poison(code, facts, BigInteger.valueOf(observed), group, BigInteger.valueOf(block));
        }
    }

    Keep KEEP = new Keep();
}
