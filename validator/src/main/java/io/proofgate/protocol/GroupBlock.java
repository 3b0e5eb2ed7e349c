package io.proofgate.protocol;

/** A block of one group: one element of a latch or of a plan's recurrent blocks. */
public record GroupBlock(int group, long block) {}
