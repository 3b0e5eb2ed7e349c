package io.proofgate.format;

import java.util.List;

/**
 * One event of a scenario and what must hold after it:
 *
 * <pre>
 * event {"kind":"step","step":1,...}
 * ----
 * rejected r1 code=empty
 * pending none
 * counters plans=0 rejected=1 store_skipped_quorum=0 retired_finished=0
 * </pre>
 *
 * @param event the replay line after {@code event }
 * @param line the line the event is on, from 1; 0 for a step not read from a file
 * @param expected the {@link StateLine}s after the separator, as text
 */
public record ScenarioStep(String event, int line, List<String> expected) {
    public ScenarioStep {
        expected = List.copyOf(expected);
    }

    /** A step to write. */
    public ScenarioStep(String event, List<String> expected) {
        this(event, 0, expected);
    }
}
