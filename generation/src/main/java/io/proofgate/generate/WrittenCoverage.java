package io.proofgate.generate;

import io.proofgate.graph.Edge;
import io.proofgate.graph.StateGraph;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Counts the edges that written scenario files take, by reading the files back and walking each scenario's event lines
 * on the state graph from its initial state. It shares nothing with the cover but the edge labels, so a cover that
 * missed an edge, or a writer that dropped or garbled a scenario, shows as an edge not covered or as an error.
 */
final class WrittenCoverage {

    /** Edges taken and steps walked by the scenarios of the files. */
    record Count(int edges, int scenarios, long steps) {}

    private WrittenCoverage() {}

    static Count count(StateGraph graph, Map<String, String> files) {
        WrittenScenarios.Walker walker = new WrittenScenarios.Walker(graph);
        Set<Edge> taken = new HashSet<>();
        List<WrittenScenarios.Written> scenarios = WrittenScenarios.read(files);
        long steps = 0;
        for (WrittenScenarios.Written scenario : scenarios) {
            List<Edge> path =
                    walker.walk(scenario.labels())
                            .orElseThrow(
                                    () ->
                                            new GenerationException(
                                                    scenario.file()
                                                            + ": scenario "
                                                            + scenario.name()
                                                            + ": its events are not a path of the state graph"));
            taken.addAll(path);
            steps += path.size();
        }
        return new Count(taken.size(), scenarios.size(), steps);
    }
}
