package io.proofgate.tlc;

/** What a trace state's first line says led to it. */
public sealed interface TraceStep {

    /** {@code 1: <Initial predicate>}: the state satisfies Init. */
    record Initial() implements TraceStep {}

    /** {@code 2: <Inc line 18, col 8 to line 23, col 23 of module Tiny>}: no parameters in 2.18. */
    record Action(String name, String module, SourceRange range) implements TraceStep {}

    /** {@code 3: Stuttering} (message 2218): the behaviour stays in the previous state forever. */
    record Stuttering() implements TraceStep {}

    /**
     * {@code 4: Back to state: <Step ... of module Lasso>} (message 2122): {@code via} leads from the last state back
     * to state {@code state}, closing the lasso.
     */
    record BackTo(int state, Action via) implements TraceStep {}
}
