package io.proofgate.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A summary's one model: what the kit and the spec audit compare, as words and as replay's JSON. */
class ReplaySummaryTest {

    private static final StateLine.Counters COUNTERS = new StateLine.Counters("1", "0", "2", "3");

    private static ReplaySummary summary(String ignoredHeld, List<String> pending, Map<String, String> latched) {
        return new ReplaySummary(COUNTERS, ignoredHeld, pending, latched);
    }

    @Test
    void theConnectorsOrderIsNoPartOfASummary() {
        Map<String, String> latched = new LinkedHashMap<>();
        latched.put("r5", "[[1,9]]");
        latched.put("r4", "[[1,7]]");
        ReplaySummary summary = summary("0", List.of("r5", "r4"), latched);
        assertEquals(summary("0", List.of("r4", "r5"), Map.of("r4", "[[1,7]]", "r5", "[[1,9]]")), summary);
        assertEquals(
                "summary plans=1 rejected=0 store_skipped_quorum=2 retired_finished=3 ignored_held=0"
                        + " pending=[\"r4\", \"r5\"] latched=[\"r4\":[[1,7]], \"r5\":[[1,9]]]",
                summary.words());
        assertEquals(
                "{\"kind\":\"summary\",\"plans\":1,\"rejected\":0,\"store_skipped_quorum\":2,\"retired_finished\":3,"
                        + "\"pending\":[\"r4\",\"r5\"],\"latched\":{\"r4\":[[1,7]],\"r5\":[[1,9]]}}",
                summary.json());
    }

    @Test
    void ignoredHeldIsInTheJsonOnlyWhereReplayPrintsIt() {
        assertEquals(
                "{\"kind\":\"summary\",\"plans\":1,\"rejected\":0,\"store_skipped_quorum\":2,\"retired_finished\":3,"
                        + "\"ignored_held\":4,\"pending\":[],\"latched\":{}}",
                summary("4", List.of(), Map.of()).json());
        assertNotEquals(summary("4", List.of(), Map.of()).words(), summary("0", List.of(), Map.of()).words());
    }

    @Test
    void idsAreQuotedSoThatOneIdWithACommaIsNotTwo() {
        assertNotEquals(
                summary("0", List.of("r1, r2"), Map.of()).words(), summary("0", List.of("r1", "r2"), Map.of()).words());
        assertEquals(
                "{\"kind\":\"summary\",\"plans\":1,\"rejected\":0,\"store_skipped_quorum\":2,\"retired_finished\":3,"
                        + "\"pending\":[\"a\\\"b\"],\"latched\":{}}",
                summary("0", List.of("a\"b"), Map.of()).json());
    }
}
