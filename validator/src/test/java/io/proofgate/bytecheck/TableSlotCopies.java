package io.proofgate.bytecheck;

import io.proofgate.protocol.Topology;
import io.proofgate.protocol.Verdict;

/**
 * The bug the byte check exists for: a publication that copies each recurrent group's table slot (the last entry of the
 * request's table, where the running state lives) instead of the latched block. Attention groups are taken from the
 * plan as usual.
 */
final class TableSlotCopies implements CopiedBlocks {

    private final Topology topology;

    TableSlotCopies(Topology topology) {
        this.topology = topology;
    }

    @Override
    public long[][] select(Verdict.Plan plan, Tables tables) {
        long[][] blocks = plan.blocksByGroup().byGroup();
        for (int g = 0; g < blocks.length; g++) {
            if (topology.groups().get(g).isRecurrent()) {
                long[] table = tables.table(plan.id(), g);
                blocks[g] = new long[] {table.length == 0 ? 0 : table[table.length - 1]};
            }
        }
        return blocks;
    }
}
