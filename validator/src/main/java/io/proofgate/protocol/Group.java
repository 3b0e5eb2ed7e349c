package io.proofgate.protocol;

import io.proofgate.words.GroupPolicy;

/**
 * One KV-cache group of the topology. {@code windowTokens} is meaningful only for {@link GroupPolicy#SLIDING} and is 0
 * otherwise.
 */
public record Group(int index, GroupPolicy policy, long blockTokens, long windowTokens) {
    public Group {
        if (index < 0) {
            throw new IllegalArgumentException("group index must be >= 0, got " + index);
        }
        if (blockTokens <= 0) {
            throw new IllegalArgumentException("block_tokens must be > 0, got " + blockTokens);
        }
        if (policy == GroupPolicy.SLIDING ? windowTokens <= 0 : windowTokens != 0) {
            throw new IllegalArgumentException(
                    policy == GroupPolicy.SLIDING
                            ? "window_tokens must be > 0 for a sliding group, got " + windowTokens
                            : "window_tokens applies only to sliding groups");
        }
    }

    public boolean isRecurrent() {
        return policy == GroupPolicy.RECURRENT_ALIGN;
    }
}
