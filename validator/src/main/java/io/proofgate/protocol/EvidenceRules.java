package io.proofgate.protocol;

import java.util.List;

/**
 * DESIGN §3 "Evidence validation", rows 1 to 13: judges one request's evidence in one step.
 * Stateless; the comparison with the latch (the last three rows) is {@link Connector}'s.
 */
final class EvidenceRules {

    private EvidenceRules() {}

    static Finding judge(RawValue field, String requestId, long target, Topology topology, int recurrentGroups) {
        RawValue value;
        switch (field) {
            // Row 1: field absent or null keeps the latch.
            case RawValue.Absent a -> { return Finding.NO_PROOF; }
            case RawValue.Null n -> { return Finding.NO_PROOF; }
            case RawValue.MapOf map -> {
                if (map.duplicateKey() != null) {
                    // Two values for one key have no single meaning; fail closed as row 2.
                    return Finding.Poison.of(PoisonCode.NOT_A_MAPPING, "duplicate key \"" + map.duplicateKey() + "\"");
                }
                value = map.entries().get(requestId);
            }
            // Row 2: the whole field is not a mapping.
            case RawValue.Int i -> { return notAMapping("an integer"); }
            case RawValue.Bool b -> { return notAMapping("a boolean"); }
            case RawValue.Real r -> { return notAMapping("a number"); }
            case RawValue.Text t -> { return notAMapping("a string"); }
            case RawValue.ListOf l -> { return notAMapping("a list"); }
        }
        // Row 3: no key for this request, or null.
        if (value == null || value instanceof RawValue.Null) {
            return Finding.NO_PROOF;
        }
        // Row 4 and 5.
        if (!(value instanceof RawValue.ListOf(List<RawValue> entries))) {
            return Finding.Poison.of(PoisonCode.NOT_A_LIST, "found " + kindOf(value));
        }
        if (entries.isEmpty()) {
            return Finding.Poison.of(PoisonCode.EMPTY, "");
        }
        List<Group> groups = topology.groups();
        long[] exact = null;
        int exactCount = 0;
        for (int index = 0; index < entries.size(); index++) {
            // Per-entry rows in table order; the first failing entry decides.
            if (!(entries.get(index) instanceof RawValue.ListOf(List<RawValue> triple))
                    || triple.size() != 3
                    || !(triple.get(0) instanceof RawValue.Int(long groupValue))
                    || !(triple.get(1) instanceof RawValue.Int(long block))
                    || !(triple.get(2) instanceof RawValue.Int(long boundary))) {
                return Finding.Poison.of(PoisonCode.MALFORMED_ENTRY, "entry " + index + " is " + describe(entries.get(index)));
            }
            if (groupValue < 0 || groupValue >= groups.size()) {
                return new Finding.Poison(PoisonCode.UNKNOWN_GROUP, "entry " + index, boundary,
                        groupValue < Integer.MIN_VALUE || groupValue > Integer.MAX_VALUE ? null : (int) groupValue, block);
            }
            int group = (int) groupValue;
            if (!groups.get(group).isRecurrent()) {
                return new Finding.Poison(PoisonCode.NON_RECURRENT_GROUP, "entry " + index + " policy="
                        + groups.get(group).policy().wireName(), boundary, group, block);
            }
            // DESIGN §3: the block is checked before the boundary, so a below-target entry with block 0 still poisons.
            if (block <= 0) {
                return new Finding.Poison(PoisonCode.NULL_BLOCK, "entry " + index, boundary, group, block);
            }
            if (boundary > target) {
                return new Finding.Poison(PoisonCode.FUTURE_BOUNDARY, "entry " + index, boundary, group, block);
            }
            if (boundary < target) {
                continue; // intermediate evidence: an older aligned checkpoint, neither proof nor poison
            }
            if (exact == null) {
                exact = new long[groups.size()];
            }
            if (exact[group] != 0) {
                return new Finding.Poison(PoisonCode.DUPLICATE_GROUP, "entry " + index + " repeats group " + group
                        + " (first block " + exact[group] + ")", boundary, group, block);
            }
            exact[group] = block;
            exactCount++;
        }
        if (exact == null) {
            return Finding.NO_PROOF;
        }
        if (exactCount < recurrentGroups) {
            for (Group group : groups) {
                if (group.isRecurrent() && exact[group.index()] == 0) {
                    return new Finding.Poison(PoisonCode.INCOMPLETE, "missing group " + group.index(), null,
                            group.index(), null);
                }
            }
        }
        return new Finding.Proof(exact);
    }

    private static Finding notAMapping(String found) {
        return Finding.Poison.of(PoisonCode.NOT_A_MAPPING, "found " + found);
    }

    private static String kindOf(RawValue value) {
        return switch (value) {
            case RawValue.Absent a -> "nothing";
            case RawValue.Null n -> "null";
            case RawValue.Int i -> "an integer";
            case RawValue.Bool b -> "a boolean";
            case RawValue.Real r -> "a number";
            case RawValue.Text t -> "a string";
            case RawValue.ListOf l -> "a list";
            case RawValue.MapOf m -> "a mapping";
        };
    }

    private static String describe(RawValue value) {
        if (value instanceof RawValue.ListOf(List<RawValue> items)) {
            if (items.size() != 3) {
                return "a list of " + items.size() + " elements";
            }
            for (int i = 0; i < 3; i++) {
                if (!(items.get(i) instanceof RawValue.Int)) {
                    return "a list whose element " + i + " is " + kindOf(items.get(i));
                }
            }
        }
        return kindOf(value);
    }
}
