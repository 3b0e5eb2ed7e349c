package io.proofgate.protocol;

import java.util.stream.LongStream;

/**
 * The blocks a load of a restored prefix writes (protocol §3, "Restore rules"): for a request whose table is {@code
 * table} and that vLLM had {@code from} tokens of, restored to {@code restored} tokens, an attention group's blocks
 * that hold the tokens from {@code from} to there (a {@code sliding} group's only those in the window before it), and a
 * recurrent group's block at that column, the one vLLM computes on from. Null block ids are left out.
 */
public final class LoadBlocks {

    private LoadBlocks() {}

    /**
     * Per group, in group order; a recurrent group whose table has no block at the restored prefix's column gets none.
     */
    public static long[][] of(Topology topology, BlockIds table, long from, long restored) {
        long[][] blocks = new long[topology.groups().size()][];
        for (Group group : topology.groups()) {
            long[] row = table.groupView(group.index());
            long first = Math.max(0, firstColumn(group, from, restored));
            long end = Math.max(first, Math.min(row.length, endColumn(group, restored)));
            blocks[group.index()] = LongStream.range(first, end).map(i -> row[(int) i]).filter(b -> b > 0).toArray();
        }
        return blocks;
    }

    /** The first column of {@code group}'s table the load writes (may be below 0 when nothing is restored). */
    public static long firstColumn(Group group, long from, long restored) {
        long bt = group.blockTokens();
        return switch (group.policy()) {
            case FULL -> from / bt;
            case SLIDING -> Math.max(from, restored - group.windowTokens()) / bt;
            case RECURRENT_ALIGN -> restored / bt - 1;
        };
    }

    /** The column after the last one of {@code group}'s table the load writes. */
    public static long endColumn(Group group, long restored) {
        long bt = group.blockTokens();
        return group.isRecurrent() ? restored / bt : (restored + bt - 1) / bt;
    }
}
