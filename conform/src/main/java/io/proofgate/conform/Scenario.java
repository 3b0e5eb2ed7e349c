package io.proofgate.conform;

import io.proofgate.words.Capability;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One conformance scenario: a topology, events, and what must follow them. A generated scenario (docs/generation.md)
 * states the verdicts and the state after every event ({@link PerEvent}); a hand-written one is a replay log with
 * {@code replay}'s whole output ({@link WholeLog}), so its verdicts are known in order but not event by event.
 *
 * @param suite the file's path under its scenarios folder, without extension (a generated file) or the folder
 *     (hand-written logs)
 * @param needs the capabilities without which it is not run
 */
public record Scenario(
        String suite,
        String name,
        Path file,
        int line,
        String topology,
        List<Event> events,
        Expected expected,
        Set<Capability> needs,
        Map<String, Integer> named) {

    /**
     * @param named each request id the events name, with the index (from 0) of the first event that names it: which
     *     requests a prefix has named is known in constant time, where a set per event would cost time and memory
     *     quadratic in the scenario's length
     */
    public Scenario {
        named = Map.copyOf(named);
    }

    /** Whether the events up to and including the one at {@code index} (from 0) name the request. */
    public boolean names(String id, int index) {
        Integer first = named.get(id);
        return first != null && first <= index;
    }

    public String id() {
        return suite + "/" + name;
    }

    /** The capabilities it needs that {@code declared} lacks: empty when it can run. */
    public Set<Capability> missing(Set<Capability> declared) {
        return needs.stream()
                .filter(c -> !declared.contains(c))
                .collect(java.util.stream.Collectors.toUnmodifiableSet());
    }

    /** One event line; {@code step} is the step number its verdicts carry (the last step seen). */
    public record Event(String line, int fileLine, String step) {}

    public sealed interface Expected {}

    /** What must hold after each event, so a prefix of the scenario has its own summary. */
    public record PerEvent(List<After> after) implements Expected {}

    public record After(List<Line.VerdictLine> verdicts, Line.State state, Line.Summary summary) {}

    /** Every verdict of the log in order, and the summary at its end. */
    public record WholeLog(List<Line.VerdictLine> verdicts, Line.Summary summary) implements Expected {}

    /**
     * What every block of vLLM's pool holds after each event, where a model of vLLM alone states no connector's
     * verdicts: its plans are judged for safety on these contents, for any policy, and nothing else of its answers but
     * refusals.
     */
    public record BlockContents(List<io.proofgate.format.StateLine.Contents> after) implements Expected {
        public BlockContents {
            after = List.copyOf(after);
        }
    }
}
