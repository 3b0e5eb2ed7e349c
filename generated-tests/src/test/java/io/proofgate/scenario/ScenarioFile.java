package io.proofgate.scenario;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A file of generated scenarios (docs/generation.md, "Scenario files"): comment lines, one
 * {@code topology} line that every scenario below shares, then blocks that each start with
 * {@code scenario NAME} and hold the scenario's events and expectations in {@link Scenario}'s
 * script form.
 */
record ScenarioFile(Path path, String topology, List<Entry> scenarios) {

    /** One scenario: its name, the line its {@code scenario} line is on, and its script with the topology. */
    record Entry(String name, int line, String script) {}

    static ScenarioFile read(Path path) throws IOException {
        List<String> lines = Files.readAllLines(path);
        String topology = null;
        List<Entry> scenarios = new ArrayList<>();
        String name = null;
        int start = 0;
        StringBuilder body = new StringBuilder();
        for (int i = 0; i <= lines.size(); i++) {
            String line = i < lines.size() ? lines.get(i) : null;
            if (line == null || line.startsWith("scenario ")) {
                if (name != null) {
                    scenarios.add(new Entry(name, start, topology + "\n" + body));
                }
                if (line == null) {
                    break;
                }
                if (topology == null) {
                    throw new IllegalArgumentException(path + ":" + (i + 1) + ": a scenario before the topology line");
                }
                name = line.substring("scenario ".length()).strip();
                if (!name.matches("[a-z0-9_]+")) {
                    throw new IllegalArgumentException(path + ":" + (i + 1) + ": a scenario name is [a-z0-9_]+, found \"" + name + "\"");
                }
                start = i + 1;
                body.setLength(0);
            } else if (name == null) {
                if (line.startsWith("topology ")) {
                    if (topology != null) {
                        throw new IllegalArgumentException(path + ":" + (i + 1) + ": a second topology line");
                    }
                    topology = line;
                } else if (!line.isEmpty() && !line.startsWith("#")) {
                    throw new IllegalArgumentException(path + ":" + (i + 1)
                            + ": expected a comment, the topology line or a scenario line before the first scenario");
                }
            } else {
                body.append(line).append('\n');
            }
        }
        if (scenarios.isEmpty()) {
            throw new IllegalArgumentException(path + ": no scenarios");
        }
        return new ScenarioFile(path, topology, List.copyOf(scenarios));
    }
}
