package io.proofgate.tlc;

import java.util.Optional;

/**
 * What TLC found violated. {@code name} is the invariant or property named in the message; TLC 2.18 names none for
 * temporal properties (2116 "Temporal properties were violated.") or for deadlock.
 */
public record Violation(Kind kind, Optional<String> name, TlcMessage message) {

    public enum Kind {
        /** 2107 "Invariant X is violated by the initial state:" and 2110 "Invariant X is violated." */
        INVARIANT,
        /** 2108 "Property X is violated by the initial state:" */
        PROPERTY,
        /** 2112 "Action property X is violated." */
        ACTION_PROPERTY,
        /** 2116 "Temporal properties were violated." */
        TEMPORAL_PROPERTY,
        /** 2114 "Deadlock reached." */
        DEADLOCK
    }
}
