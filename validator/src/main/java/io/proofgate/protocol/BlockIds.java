package io.proofgate.protocol;

import java.util.Arrays;

/** Block ids per group, in group order, as a scheduler event carries them. Immutable. */
public final class BlockIds {

    private final long[][] byGroup;

    private BlockIds(long[][] byGroup, boolean owned) {
        this.byGroup = owned ? byGroup : deepCopy(byGroup);
    }

    /** A copy of {@code byGroup}. */
    public BlockIds(long[]... byGroup) {
        this(byGroup, false);
    }

    /**
     * Takes {@code byGroup} without copying it: the parser's hot path builds fresh arrays and gives them up, so copying
     * them again would only cost time.
     */
    public static BlockIds adopt(long[][] byGroup) {
        return new BlockIds(byGroup, true);
    }

    public int groupCount() {
        return byGroup.length;
    }

    /** Read access without a copy, for the core's hot path; callers must not modify it. */
    long[] groupView(int index) {
        return byGroup[index];
    }

    public long[][] byGroup() {
        return deepCopy(byGroup);
    }

    private static long[][] deepCopy(long[][] groups) {
        long[][] copy = groups.clone();
        for (int i = 0; i < copy.length; i++) {
            copy[i] = copy[i].clone();
        }
        return copy;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof BlockIds that && Arrays.deepEquals(byGroup, that.byGroup);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(byGroup);
    }

    @Override
    public String toString() {
        return Arrays.deepToString(byGroup).replace(" ", "");
    }
}
