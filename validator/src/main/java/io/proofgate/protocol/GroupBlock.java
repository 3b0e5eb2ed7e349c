package io.proofgate.protocol;

/** A block of one group: one element of a latch or of a plan's recurrent blocks. */
public record GroupBlock(int group, long block) implements Comparable<GroupBlock> {
    @Override
    public int compareTo(GroupBlock other) {
        int byGroup = Integer.compare(group, other.group);
        return byGroup != 0 ? byGroup : Long.compare(block, other.block);
    }
}
