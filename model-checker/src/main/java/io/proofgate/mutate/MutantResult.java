package io.proofgate.mutate;

import java.time.Duration;

/** A mutant, what checking it gave, and how long that took. */
public record MutantResult(Mutation mutation, Outcome outcome, Duration time) {}
