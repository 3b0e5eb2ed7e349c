package io.proofgate.bytecheck;

import io.proofgate.protocol.Verdict;

/**
 * Which blocks the harness copies for a plan, by the log's block ids, one array per group. The real publication copies
 * exactly the plan's blocks ({@link #PLAN}); tests substitute wrong ones to show that the byte check catches them.
 */
@FunctionalInterface
public interface CopiedBlocks {

    long[][] select(Verdict.Plan plan, Tables tables);

    /** The plan's blocks: attention from the table, recurrent from the latch. */
    CopiedBlocks PLAN = (plan, tables) -> plan.blocksByGroup().byGroup();

    /** The request tables as the harness followed them from the events. */
    interface Tables {
        /** The request's block table for {@code group}, or an empty array. */
        long[] table(String request, int group);
    }
}
