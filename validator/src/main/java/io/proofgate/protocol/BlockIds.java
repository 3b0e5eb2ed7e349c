package io.proofgate.protocol;

import java.util.Arrays;
import java.util.List;

/** Block ids per group, in group order, as a scheduler event carries them. Immutable. */
public record BlockIds(long[][] byGroup) {

    public BlockIds {
        byGroup = byGroup.clone();
        for (int i = 0; i < byGroup.length; i++) {
            byGroup[i] = byGroup[i].clone();
        }
    }

    public static BlockIds of(List<List<Long>> lists) {
        long[][] groups = new long[lists.size()][];
        for (int i = 0; i < groups.length; i++) {
            groups[i] = lists.get(i).stream().mapToLong(Long::longValue).toArray();
        }
        return new BlockIds(groups);
    }

    /** An empty list for each of {@code groups} groups. */
    public static BlockIds empty(int groups) {
        return new BlockIds(new long[groups][0]);
    }

    public int groupCount() {
        return byGroup.length;
    }

    public long[] group(int index) {
        return byGroup[index].clone();
    }

    /** Read access without a copy, for the core's hot path; callers must not modify it. */
    long[] groupView(int index) {
        return byGroup[index];
    }

    @Override
    public long[][] byGroup() {
        long[][] copy = byGroup.clone();
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
