package io.proofgate.protocol;

import java.util.stream.LongStream;

/**
 * The blocks a load of a restored prefix writes (protocol §3, "Restore rules"): for a request
 * whose table is {@code table} and that vLLM had {@code from} tokens of, restored to {@code span}
 * tokens, an attention group's blocks that hold the tokens from {@code from} to the span (a
 * {@code sliding} group's only those in the window before it), and a recurrent group's block at
 * the span's column, the one vLLM computes on from. Null block ids are left out.
 */
public final class LoadTargets {

    private LoadTargets() {}

    /** Per group, in group order; a recurrent group whose table has no block at the span's column gets none. */
    public static long[][] of(Topology topology, BlockIds table, long from, long span) {
        long[][] blocks = new long[topology.groups().size()][];
        for (Group group : topology.groups()) {
            long[] row = table.groupView(group.index());
            long bt = group.blockTokens();
            long end = Math.min(row.length, (span + bt - 1) / bt);
            blocks[group.index()] = switch (group.policy()) {
                case FULL -> nonNull(row, from / bt, end);
                case SLIDING -> nonNull(row, Math.max(from, span - group.windowTokens()) / bt, end);
                case RECURRENT_ALIGN -> nonNull(row, span / bt - 1, Math.min(row.length, span / bt));
            };
        }
        return blocks;
    }

    private static long[] nonNull(long[] row, long from, long to) {
        return LongStream.range(Math.max(0, from), Math.max(Math.max(0, from), to)).map(i -> row[(int) i]).filter(b -> b > 0)
                .toArray();
    }
}
