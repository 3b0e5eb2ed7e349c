package io.proofgate.words;

import java.util.Arrays;
import java.util.Optional;

/**
 * When a connector's workers copy a plan's blocks, as a {@code plan} answer's {@code "copy"} says (docs/conformance.md,
 * "Safety and policies"): the kit judges the blocks at every point a copy may read them.
 */
public enum CopyTiming {
    /** In the step of the event the plan answers (the default). */
    IN_STEP("in_step"),
    /** Later, up to the adapter's {@code saved} line for the plan. */
    ASYNC("async");

    private final String wireName;

    CopyTiming(String wireName) {
        this.wireName = wireName;
    }

    /** The timing as a plan answer writes it. */
    public String wireName() {
        return wireName;
    }

    /** The timing a plan answer names, if it is one. */
    public static Optional<CopyTiming> of(String wireName) {
        return Arrays.stream(values()).filter(c -> c.wireName.equals(wireName)).findFirst();
    }
}
