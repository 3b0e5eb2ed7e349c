package io.proofgate.generate;

import io.proofgate.format.StateLine;
import io.proofgate.words.Counter;

import java.util.List;
import java.util.Map;

/**
 * What replay's summary line states, in the words the spec audit compares a model's outcome and a validator's output
 * in: the four counters, the pending request ids and the non-empty latches, each in the order its side gives them, and
 * {@code ignored_held} where replay prints it (null where not; the model never states it). Counts are their digits.
 */
public record ReplaySummary(
        StateLine.Counters counters, List<String> pending, Map<String, String> latched, String ignoredHeld) {

    public ReplaySummary {
        pending = List.copyOf(pending);
        latched = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(latched));
    }

    /**
     * {@code summary plans=1 rejected=0 store_skipped_quorum=0 retired_finished=0 pending=r1,r2 latched={r1:[[1,42]]}}
     */
    public String words() {
        StringBuilder words = new StringBuilder("summary ").append(counters.words());
        words.append(" pending=").append(String.join(",", pending)).append(" latched={");
        latched.forEach(
                (id, latch) ->
                        words.append(words.charAt(words.length() - 1) == '{' ? "" : ",")
                                .append(id)
                                .append(':')
                                .append(latch));
        words.append('}');
        if (ignoredHeld != null) {
            words.append(' ').append(Counter.IGNORED_HELD.wireName()).append('=').append(ignoredHeld);
        }
        return words.toString();
    }
}
