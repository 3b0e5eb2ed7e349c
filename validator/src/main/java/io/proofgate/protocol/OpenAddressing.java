package io.proofgate.protocol;

/**
 * What the core's open-addressing tables ({@link PendingTable}, {@link HeldRanks},
 * {@link StepIds}) share: where a key's probe starts, how long a run of probes may get, and when a
 * long run is chance rather than crafted keys.
 */
final class OpenAddressing {

    /** No probe goes past this many slots: a longer run spreads the table. */
    static final int LONG_PROBE = 32;
    /** Below one key in this many slots, a long run is not chance. */
    private static final int SPARSE = 8;

    private OpenAddressing() {}

    /**
     * The home slot of a hash code, from its top bits after Fibonacci hashing ({@code shift} is
     * 32 less the bits of a slot number): ids such as {@code req-1}, {@code req-2} have
     * consecutive hash codes, which would otherwise fill consecutive slots and make long runs.
     */
    static int home(int hash, int shift) {
        return (hash * 0x9E3779B9) >>> shift;
    }

    /**
     * Whether a long run in a table of {@code slots} slots holding {@code size} keys may be
     * chance, so that doubling the table breaks it up; otherwise the keys were crafted to share
     * hash codes or slots, and the table hands them to a hash map, which stays fast on such keys.
     */
    static boolean mayBeChance(int size, int slots) {
        return (long) size * SPARSE >= slots;
    }

    /** The first empty slot at or after {@code home}, for a key known not to be in the table. */
    static int emptySlot(Object[] keys, int home) {
        int mask = keys.length - 1;
        int slot = home;
        while (keys[slot] != null) {
            slot = (slot + 1) & mask;
        }
        return slot;
    }
}
