package io.proofgate.tlc;

import io.proofgate.value.TlaState;

/**
 * One numbered state of a TLC trace. Stuttering and back-to-state entries carry no variables: their state is the
 * previous one or state {@code BackTo.state()}.
 */
public record TraceState(int number, TraceStep step, TlaState state) {}
