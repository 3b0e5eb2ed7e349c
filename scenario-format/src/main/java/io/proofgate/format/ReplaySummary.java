package io.proofgate.format;

import io.proofgate.words.Counter;
import io.proofgate.words.EventObject;
import io.proofgate.words.Outside;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What replay's summary line states (protocol §5), its counts as their decimal digits: the four counters, {@code
 * ignored_held}, the pending request ids, sorted, and each non-empty latch by id. The one model of a summary wherever
 * two are compared: an adapter's with a scenario's (the kit), a model's outcome with a validator's output (the spec
 * audit, where the model's {@code ignored_held} is 0). The order of the pending ids is the connector's own and no part
 * of what is compared.
 */
public record ReplaySummary(
        StateLine.Counters counters, String ignoredHeld, List<String> pending, SortedMap<String, String> latched) {

    public ReplaySummary {
        pending = pending.stream().sorted().toList();
        latched = Collections.unmodifiableSortedMap(new TreeMap<>(latched));
    }

    public ReplaySummary(
            StateLine.Counters counters, String ignoredHeld, List<String> pending, Map<String, String> latched) {
        this(counters, ignoredHeld, pending, new TreeMap<>(latched));
    }

    /**
     * {@code summary plans=1 rejected=0 store_skipped_quorum=0 retired_finished=0 ignored_held=0 pending=["r1"]
     * latched=["r1":[[1,42]]]}; ids quoted, so that the words of {@code ["r1, r2"]} and of {@code ["r1", "r2"]} differ.
     */
    public String words() {
        return "summary "
                + counters.words()
                + " "
                + Counter.IGNORED_HELD.wireName()
                + "="
                + ignoredHeld
                + " pending="
                + pending.stream().map(Outside::quoted).toList()
                + " latched="
                + latched.entrySet().stream().map(e -> Outside.quoted(e.getKey()) + ":" + e.getValue()).toList();
    }

    /** The summary as replay prints it: {@code ignored_held} only where it is not 0. */
    public String json() {
        StringBuilder json = new StringBuilder("{\"kind\":\"summary\"");
        counters.byName().forEach((name, value) -> json.append(",\"").append(name).append("\":").append(value));
        if (!ignoredHeld.equals("0")) {
            json.append(",\"").append(Counter.IGNORED_HELD.wireName()).append("\":").append(ignoredHeld);
        }
        // strings escaped as every JSON line proofgate writes escapes them (EventObject)
        json.append(",\"pending\":[");
        for (int i = 0; i < pending.size(); i++) {
            json.append(i == 0 ? "" : ",").append(EventObject.quote(pending.get(i)));
        }
        return json.append("],\"latched\":").append(EventObject.keyed(latched)).append('}').toString();
    }
}
