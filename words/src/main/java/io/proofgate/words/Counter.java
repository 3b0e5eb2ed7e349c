package io.proofgate.words;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The connector's counters as the wire names them (protocol §5: the summary, an adapter's {@code state} line, the
 * scenario format's {@code counters} line), in the order they are written.
 */
public enum Counter {
    PLANS("plans"),
    REJECTED("rejected"),
    STORE_SKIPPED_QUORUM("store_skipped_quorum"),
    RETIRED_FINISHED("retired_finished"),
    /** Held reports from ranks outside the topology; the summary writes it only when it is not 0. */
    IGNORED_HELD("ignored_held");

    private final String wireName;

    Counter(String wireName) {
        this.wireName = wireName;
    }

    /** The counter as written in replay output, adapter answers and scenario files. */
    public String wireName() {
        return wireName;
    }

    /** The counter of a wire name; empty for a name this version does not know. */
    public static Optional<Counter> of(String wireName) {
        return Optional.ofNullable(BY_WIRE_NAME.get(wireName)); // a map: the kit reads a state's counters per answer
    }

    private static final Map<String, Counter> BY_WIRE_NAME =
            Arrays.stream(values()).collect(Collectors.toUnmodifiableMap(Counter::wireName, c -> c));
}
