package io.proofgate.protocol;

import java.util.List;

/**
 * The KV-cache groups in index order plus the store geometry (protocol §2). Immutable.
 *
 * @param maxSpanTokens {@link Long#MAX_VALUE} when unbounded
 */
public record Topology(List<Group> groups, int tpDegree, long hashBlockSize, long minSpanTokens, long maxSpanTokens) {

    public static final long DEFAULT_HASH_BLOCK_SIZE = 256;
    public static final long DEFAULT_MIN_SPAN_TOKENS = 1024;

    public Topology {
        groups = List.copyOf(groups);
        if (groups.isEmpty()) {
            throw new IllegalArgumentException("a topology needs at least one group");
        }
        for (int i = 0; i < groups.size(); i++) {
            if (groups.get(i).index() != i) {
                throw new IllegalArgumentException("group " + i + " has index " + groups.get(i).index());
            }
        }
        if (tpDegree < 1) {
            throw new IllegalArgumentException("tp_degree must be >= 1, got " + tpDegree);
        }
        if (hashBlockSize < 1) {
            throw new IllegalArgumentException("hash_block_size must be >= 1, got " + hashBlockSize);
        }
        if (minSpanTokens < 0 || maxSpanTokens < minSpanTokens) {
            throw new IllegalArgumentException(
                    "target bounds must satisfy 0 <= min_span_tokens <= max_span_tokens, got "
                            + minSpanTokens
                            + " and "
                            + maxSpanTokens);
        }
    }

    /** A topology with the protocol's defaults for everything but the groups. */
    public static Topology of(Group... groups) {
        return new Topology(List.of(groups), 1, DEFAULT_HASH_BLOCK_SIZE, DEFAULT_MIN_SPAN_TOKENS, Long.MAX_VALUE);
    }

    /** protocol §2: the largest multiple of the hash block size strictly below the prompt end. */
    public long targetOf(long promptTokens) {
        return Math.floorDiv(promptTokens - 1, hashBlockSize) * hashBlockSize;
    }

    /** protocol §2: only spans within [min_span_tokens, max_span_tokens] are tracked for storing. */
    public boolean tracks(long target) {
        return target >= minSpanTokens && target <= maxSpanTokens;
    }

    /**
     * The tokens a restore's hit must be a multiple of (protocol §3, "Restore rules"): every recurrent group's block
     * size; 1 without a recurrent group.
     */
    public long recurrentGrid() {
        long grid = 1;
        for (Group group : groups) {
            if (group.isRecurrent()) {
                grid = grid / gcd(grid, group.blockTokens()) * group.blockTokens();
            }
        }
        return grid;
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    public int recurrentGroupCount() {
        int count = 0;
        for (Group group : groups) {
            if (group.isRecurrent()) {
                count++;
            }
        }
        return count;
    }
}
