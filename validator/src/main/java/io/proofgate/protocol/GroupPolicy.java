package io.proofgate.protocol;

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

    /** The policy with this wire name, or null when there is none. */
    public static GroupPolicy fromWireName(String name) {
        for (GroupPolicy policy : values()) {
            if (policy.wireName.equals(name)) {
                return policy;
            }
        }
        return null;
    }
}
