package io.proofgate.protocol;

import java.util.List;

/**
 * protocol §3 "Evidence validation", rows 1 to 14: judges one request's evidence in one step.
 * Stateless; the comparison with the latch (the last three rows) is {@link Connector}'s.
 *
 * <p>A poison's facts ({@code entry=}, {@code found=}, ...) are the ones the spec's verdicts state
 * too (docs/spec.md, "Reasons"), so the generated tests check them.
 */
final class EvidenceRules {

    private EvidenceRules() {}

    static Finding judge(RawValue field, String requestId, long target, Topology topology) {
        RawValue value;
        switch (field) {
            // Row 1: field absent or null keeps the latch.
            case RawValue.Absent a -> { return Finding.NO_PROOF; }
            case RawValue.Null n -> { return Finding.NO_PROOF; }
            case RawValue.MapOf map -> value = map.entries().get(requestId);
            // Row 2: the whole field is not a mapping.
            case RawValue.Int i -> { return notAMapping(field); }
            case RawValue.Bool b -> { return notAMapping(field); }
            case RawValue.Real r -> { return notAMapping(field); }
            case RawValue.Text t -> { return notAMapping(field); }
            case RawValue.ListOf l -> { return notAMapping(field); }
        }
        // Row 3: no key for this request, or null.
        if (value == null || value instanceof RawValue.Null) {
            return Finding.NO_PROOF;
        }
        // Row 4 and 5.
        if (!(value instanceof RawValue.ListOf(List<RawValue> entries))) {
            return Finding.Poison.of(PoisonCode.NOT_A_LIST, " found=" + kindOf(value));
        }
        if (entries.isEmpty()) {
            return Finding.Poison.of(PoisonCode.EMPTY, "");
        }
        List<Group> groups = topology.groups();
        long[] exact = null;
        for (int index = 0; index < entries.size(); index++) {
            // Per-entry rows in table order; the first failing entry decides.
            RawValue entry = entries.get(index);
            // Type patterns rather than record patterns: a record pattern adds a branch (its
            // MatchException path) that no input can take.
            if (!(entry instanceof RawValue.ListOf list)
                    || list.items().size() != 3
                    || !(list.items().get(0) instanceof RawValue.Int first)
                    || !(list.items().get(1) instanceof RawValue.Int second)
                    || !(list.items().get(2) instanceof RawValue.Int third)) {
                return Finding.Poison.of(PoisonCode.MALFORMED_ENTRY, " entry=" + index + malformation(entry));
            }
            long groupValue = first.value();
            long block = second.value();
            long boundary = third.value();
            if (groupValue < 0 || groupValue >= groups.size()) {
                // A group beyond 32 bits is not repeated as a number: the reason says it was out of range.
                Integer named = groupValue == (int) groupValue ? (int) groupValue : null;
                return new Finding.Poison(PoisonCode.UNKNOWN_GROUP, " entry=" + index, boundary, named, block);
            }
            int group = (int) groupValue;
            if (!groups.get(group).isRecurrent()) {
                return new Finding.Poison(PoisonCode.NON_RECURRENT_GROUP, " entry=" + index + " policy="
                        + groups.get(group).policy().wireName(), boundary, group, block);
            }
            // protocol §3: the block is checked before the boundary, so a below-target entry with block 0 still poisons.
            if (block <= 0) {
                return new Finding.Poison(PoisonCode.NULL_BLOCK, " entry=" + index, boundary, group, block);
            }
            if (boundary > target) {
                return new Finding.Poison(PoisonCode.FUTURE_BOUNDARY, " entry=" + index, boundary, group, block);
            }
            if (boundary < target) {
                continue; // intermediate evidence: an older aligned checkpoint, neither proof nor poison
            }
            if (exact == null) {
                exact = new long[groups.size()];
            }
            if (exact[group] != 0) {
                return new Finding.Poison(PoisonCode.DUPLICATE_GROUP, " entry=" + index + " first=" + exact[group],
                        boundary, group, block);
            }
            exact[group] = block;
        }
        if (exact == null) {
            return Finding.NO_PROOF;
        }
        // Blocks are positive, so 0 marks a recurrent group no exact-target entry named.
        for (Group group : groups) {
            if (group.isRecurrent() && exact[group.index()] == 0) {
                return new Finding.Poison(PoisonCode.INCOMPLETE, "", null, group.index(), null);
            }
        }
        return new Finding.Proof(exact);
    }

    private static Finding notAMapping(RawValue field) {
        return Finding.Poison.of(PoisonCode.NOT_A_MAPPING, " found=" + kindOf(field));
    }

    /** JSON's name for the kind of a value; Absent never reaches here (only a whole field can be absent). */
    private static String kindOf(RawValue value) {
        return switch (value) {
            case RawValue.Absent a -> "absent";
            case RawValue.Null n -> "null";
            case RawValue.Int i -> "integer";
            case RawValue.Bool b -> "boolean";
            case RawValue.Real r -> "number";
            case RawValue.Text t -> "string";
            case RawValue.ListOf l -> "list";
            case RawValue.MapOf m -> "mapping";
        };
    }

    /** Why an entry is not a list of three integers, as facts: its kind, its length, or its first bad element. */
    private static String malformation(RawValue entry) {
        if (!(entry instanceof RawValue.ListOf(List<RawValue> items))) {
            return " found=" + kindOf(entry);
        }
        if (items.size() != 3) {
            return " length=" + items.size();
        }
        int element = 0;
        while (items.get(element) instanceof RawValue.Int) {
            element++;
        }
        return " element=" + element + " found=" + kindOf(items.get(element));
    }
}
