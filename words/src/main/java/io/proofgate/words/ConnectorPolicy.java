package io.proofgate.words;

import java.util.Arrays;
import java.util.Optional;

/**
 * What a connector decides on top of vLLM's hand-offs, as an adapter declares it in its hello ({@code
 * "connector_policy"}): the conformance kit judges every plan's safety whatever the policy, and compares verdicts,
 * states and summaries with a policy only where it models it.
 */
public enum ConnectorPolicy {
    /** The seed's: one plan per request at the target, the exact proof latched across steps (protocol §3). */
    LATCH_AT_TARGET("latch-at-target"),
    /** A policy of the connector's own, which the kit does not model: judged on safety alone. */
    OWN("own");

    private final String wireName;

    ConnectorPolicy(String wireName) {
        this.wireName = wireName;
    }

    /** The policy as an adapter's hello writes it. */
    public String wireName() {
        return wireName;
    }

    /** The policy a hello names, if it is one. */
    public static Optional<ConnectorPolicy> of(String wireName) {
        return Arrays.stream(values()).filter(p -> p.wireName.equals(wireName)).findFirst();
    }
}
