package io.proofgate.words;

import java.util.Arrays;
import java.util.Optional;

/** How a KV-cache group stores its state (protocol §2 "Topology"). */
public enum GroupPolicy {
    FULL("full"),
    SLIDING("sliding"),
    RECURRENT_ALIGN("recurrent_align");

    private final String wireName;

    GroupPolicy(String wireName) {
        this.wireName = wireName;
    }

    /** The name used in replay logs and in the spec. */
    public String wireName() {
        return wireName;
    }

    /** The policy of a wire name; empty for a name this version does not know. */
    public static Optional<GroupPolicy> of(String wireName) {
        return Arrays.stream(values()).filter(p -> p.wireName.equals(wireName)).findFirst();
    }
}
