package io.proofgate.protocol;

import io.proofgate.words.PoisonCode;

import java.math.BigInteger;
import java.util.List;

/**
 * protocol §3 "Evidence validation", rows 1 to 14: judges one request's evidence in one step, in two parts, the whole
 * field ({@link #judgeField}) and then the request's entry of a mapping ({@link #judgeEntry}), so that a step's field
 * is judged once, not once per request. Stateless; the comparison with the latch (the last three rows) is {@link
 * Connector}'s.
 *
 * <p>A poison's facts ({@code entry=}, {@code found=}, ...) are the ones the spec's verdicts state too (docs/spec.md,
 * "Reasons"), so the generated tests check them.
 */
final class EvidenceRules {

    private EvidenceRules() {}

    /**
     * Rows 1 and 2, which look at the whole field and so decide for every request of the step alike: its validation, or
     * null when the field is a mapping and each request's entry decides.
     */
    static Validation judgeField(RawValue field) {
        return switch (field) {
            // Row 1: field absent or null keeps the latch.
            case RawValue.Absent a -> Validation.KEEP;
            case RawValue.Null n -> Validation.KEEP;
            case RawValue.MapOf map -> null;
            // Row 2: the whole field is not a mapping.
            case RawValue.Int i -> notAMapping(field);
            case RawValue.Big i -> notAMapping(field);
            case RawValue.Bool b -> notAMapping(field);
            case RawValue.Real r -> notAMapping(field);
            case RawValue.Text t -> notAMapping(field);
            case RawValue.ListOf l -> notAMapping(field);
        };
    }

    /** Rows 3 to 14: one request's entry of a mapping ({@code null} when it has no key). */
    static Validation judgeEntry(RawValue value, long target, Topology topology) {
        // Row 3: no key for this request, or null.
        if (value == null || value instanceof RawValue.Null) {
            return Validation.KEEP;
        }
        // Row 4 and 5.
        if (!(value instanceof RawValue.ListOf(List<RawValue> entries))) {
            return Validation.Poison.of(PoisonCode.NOT_A_LIST, " found=" + kindOf(value));
        }
        if (entries.isEmpty()) {
            return Validation.Poison.of(PoisonCode.EMPTY, "");
        }
        List<Group> groups = topology.groups();
        long[] exact = null;
        for (int index = 0; index < entries.size(); index++) {
            // Per-entry rows in table order; the first failing entry decides.
            RawValue entry = entries.get(index);
            if (!(entry instanceof RawValue.ListOf list)
                    || list.items().size() != 3
                    || !isInteger(list.items().get(0))
                    || !isInteger(list.items().get(1))
                    || !isInteger(list.items().get(2))) {
                return Validation.Poison.of(PoisonCode.MALFORMED_ENTRY, " entry=" + index + malformation(entry));
            }
            RawValue first = list.items().get(0);
            RawValue second = list.items().get(1);
            RawValue third = list.items().get(2);
            if (first instanceof RawValue.Int(long groupValue)
                    && second instanceof RawValue.Int(long block)
                    && third instanceof RawValue.Int(long boundary)) {
                // The common case: every value fits in 64 bits.
                if (groupValue < 0 || groupValue >= groups.size()) {
                    // A group beyond 32 bits is not repeated as a number: the reason says it was out of range.
                    Integer named = groupValue == (int) groupValue ? (int) groupValue : null;
                    return Validation.Poison.of(PoisonCode.UNKNOWN_GROUP, " entry=" + index, boundary, named, block);
                }
                int group = (int) groupValue;
                if (!groups.get(group).isRecurrent()) {
                    return Validation.Poison.of(
                            PoisonCode.NON_RECURRENT_GROUP,
                            " entry=" + index + " policy=" + groups.get(group).policy().wireName(),
                            boundary,
                            group,
                            block);
                }
                // protocol §3: the block is checked before the boundary, so a below-target entry with block 0 still
                // poisons.
                if (block <= 0) {
                    return Validation.Poison.of(PoisonCode.NULL_BLOCK, " entry=" + index, boundary, group, block);
                }
                if (boundary > target) {
                    return Validation.Poison.of(PoisonCode.FUTURE_BOUNDARY, " entry=" + index, boundary, group, block);
                }
                if (boundary < target) {
                    continue; // intermediate evidence: an older aligned checkpoint, neither proof nor poison
                }
                if (exact == null) {
                    exact = new long[groups.size()];
                }
                if (exact[group] != 0) {
                    return Validation.Poison.of(
                            PoisonCode.DUPLICATE_GROUP,
                            " entry=" + index + " first=" + exact[group],
                            boundary,
                            group,
                            block);
                }
                exact[group] = block;
                continue;
            }
            // An integer beyond 64 bits, compared and stated exactly (protocol §6).
            Validation.Poison poison = beyondLong(index, exact(first), exact(second), exact(third), target, groups);
            if (poison != null) {
                return poison;
            }
        }
        if (exact == null) {
            return Validation.KEEP;
        }
        // Blocks are positive, so 0 marks a recurrent group no exact-target entry named.
        for (Group group : groups) {
            if (group.isRecurrent() && exact[group.index()] == 0) {
                return new Validation.Poison(PoisonCode.INCOMPLETE, "", null, group.index(), null);
            }
        }
        return new Validation.Latch(exact);
    }

    /**
     * The rows for an entry holding an integer beyond 64 bits, in table order; null when it is intermediate evidence (a
     * boundary below the target), which is ignored as any other is. Such a group is outside the topology; such a
     * boundary is past or below any target; a block id beyond 64 bits is one vLLM can never hand over, so at or past
     * the null-block row it fails closed as {@code malformed_entry} with {@code problem=out_of_range} rather than be
     * latched.
     */
    private static Validation.Poison beyondLong(
            int index, BigInteger group, BigInteger block, BigInteger boundary, long target, List<Group> groups) {
        if (group.signum() < 0 || group.compareTo(BigInteger.valueOf(groups.size())) >= 0) {
            Integer named = group.bitLength() < 32 ? group.intValue() : null;
            return new Validation.Poison(PoisonCode.UNKNOWN_GROUP, " entry=" + index, boundary, named, block);
        }
        int g = group.intValue();
        if (!groups.get(g).isRecurrent()) {
            return new Validation.Poison(
                    PoisonCode.NON_RECURRENT_GROUP,
                    " entry=" + index + " policy=" + groups.get(g).policy().wireName(),
                    boundary,
                    g,
                    block);
        }
        if (block.signum() <= 0) {
            return new Validation.Poison(PoisonCode.NULL_BLOCK, " entry=" + index, boundary, g, block);
        }
        if (block.bitLength() >= 64) {
            return new Validation.Poison(
                    PoisonCode.MALFORMED_ENTRY,
                    " entry=" + index + " element=1 found=integer" + " problem=out_of_range",
                    boundary,
                    g,
                    block);
        }
        if (boundary.compareTo(BigInteger.valueOf(target)) > 0) {
            return new Validation.Poison(PoisonCode.FUTURE_BOUNDARY, " entry=" + index, boundary, g, block);
        }
        return null; // the only value beyond 64 bits is a boundary far below the target: intermediate
    }

    private static boolean isInteger(RawValue value) {
        return value instanceof RawValue.Int || value instanceof RawValue.Big;
    }

    private static BigInteger exact(RawValue integer) {
        return switch (integer) {
            case RawValue.Int(long value) -> BigInteger.valueOf(value);
            case RawValue.Big(BigInteger value) -> value;
            default -> throw new IllegalArgumentException("not an integer: " + integer);
        };
    }

    private static Validation notAMapping(RawValue field) {
        return Validation.Poison.of(PoisonCode.NOT_A_MAPPING, " found=" + kindOf(field));
    }

    /** JSON's name for the kind of a value; Absent never reaches here (only a whole field can be absent). */
    private static String kindOf(RawValue value) {
        return switch (value) {
            case RawValue.Absent a -> "absent";
            case RawValue.Null n -> "null";
            case RawValue.Int i -> "integer";
            case RawValue.Big i -> "integer";
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
        while (isInteger(items.get(element))) {
            element++;
        }
        return " element=" + element + " found=" + kindOf(items.get(element));
    }
}
