package io.proofgate.conform;

import java.util.List;

/**
 * What an adapter answered to one run of a scenario (or of a prefix of it): the answer to the topology, to each event,
 * and to the summary request, each without its end marker. It has been read strictly ({@link ScenarioRun#record}):
 * every line is one of the protocol's, ids are the scenario's, a state line comes where the capability says; what it
 * says is not yet judged.
 */
public record Transcript(List<Line> topology, List<List<Line>> events, List<Line> summary) {

    public Transcript {
        topology = List.copyOf(topology);
        events = events.stream().map(List::copyOf).toList();
        summary = List.copyOf(summary);
    }

    /** The answer to message {@code k}: 0 the topology, 1 to n the events, n + 1 the summary request. */
    public List<Line> answer(int k) {
        return k == 0 ? topology : k <= events.size() ? events.get(k - 1) : summary;
    }

    /** Messages answered: the topology, the events, the summary request. */
    public int messages() {
        return events.size() + 2;
    }
}
