package io.proofgate.tlc;

/** How a TLC run ended. */
public enum TlcEnding {
    /** Message 2193: "Model checking completed. No error has been found." */
    OK,
    /** An invariant, property or deadlock check failed; the run has a counterexample. */
    VIOLATION,
    /** Anything else: parse or semantic errors, evaluation errors, or output cut short. */
    ERROR
}
