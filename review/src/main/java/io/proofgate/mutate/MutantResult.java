package io.proofgate.mutate;

/** A mutant and what checking it gave. */
public record MutantResult(Mutation mutation, Outcome outcome) {}
