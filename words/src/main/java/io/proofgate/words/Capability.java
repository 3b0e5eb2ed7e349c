package io.proofgate.words;

import java.util.Optional;

/**
 * What an adapter declares it can do in its {@code hello} line (docs/conformance.md, "Capabilities"), by wire name.
 * Each decides which expectations the kit compares or which scenarios it runs; the report names what a missing one left
 * out.
 */
public enum Capability {
    REASON_FACTS("reason_facts", "the facts of each rejection's reason (observed, target, group, block, entry, ...)"),
    STATE(
            "state",
            "the connector's state after each event (pending stores with done, table and latch; held digests;"
                    + " counters)"),
    SLIDING("sliding", "scenarios whose topology has a sliding group"),
    WIDE_INTEGERS("wide_integers", "scenarios whose evidence holds integers beyond 64 bits"),
    /** Answers lookups and loads its hits: the restore half (docs/conformance.md, "Restores"). */
    RESTORE("restore", "scenarios with lookups (the restore half: hits and loads)"),
    /** Answers namespace probes; only an audit of a connector change sends them (docs/conformance.md). */
    NAMESPACE("namespace", "namespace probes (an audit's namespace impact)");

    private final String wireName;
    private final String what;

    Capability(String wireName, String what) {
        this.wireName = wireName;
        this.what = what;
    }

    public String wireName() {
        return wireName;
    }

    /** What it covers, in the report's words. */
    public String what() {
        return what;
    }

    /** The capability of a wire name; empty for a name this version does not know. */
    public static Optional<Capability> of(String wireName) {
        for (Capability capability : values()) {
            if (capability.wireName.equals(wireName)) {
                return Optional.of(capability);
            }
        }
        return Optional.empty();
    }
}
