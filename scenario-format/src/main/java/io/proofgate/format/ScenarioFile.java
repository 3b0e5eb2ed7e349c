package io.proofgate.format;

import java.util.ArrayList;
import java.util.List;

/**
 * A file of conformance scenarios (docs/generation.md, "Scenario files"): comment lines, one {@code topology} line that
 * every scenario below shares, then blocks that each start with {@code scenario NAME} and hold the scenario's {@link
 * ScenarioStep}s.
 *
 * <p>The one reader and writer of the format: {@code proofgate generate} writes files with {@link #write} and reads
 * them back, the generated tests and the conformance kit read them. Lines are given without their line breaks; blank
 * lines and {@code #} comments may stand between a file's parts and between steps. A script (what the generated tests
 * run by hand) is the same without names: a topology line, then steps ({@link #readScript}).
 */
public record ScenarioFile(String topology, int topologyLine, List<ScenarioBlock> scenarios) {

    static final String TOPOLOGY = "topology ";
    static final String SCENARIO = "scenario ";
    static final String EVENT = "event ";
    static final String SEPARATOR = "----";

    public ScenarioFile {
        scenarios = List.copyOf(scenarios);
    }

    /** The topology and steps of a script. */
    public record Script(String topology, List<ScenarioStep> steps) {
        public Script {
            steps = List.copyOf(steps);
        }
    }

    /** A whole file; {@code source} names it in errors. */
    public static ScenarioFile read(String source, List<String> lines) {
        String topology = null;
        int topologyLine = 0;
        List<ScenarioBlock> scenarios = new ArrayList<>();
        int i = 0;
        while (i < lines.size()) {
            String line = lines.get(i);
            if (skipped(line)) {
                i++;
            } else if (line.startsWith(TOPOLOGY)) {
                if (topology != null) {
                    throw new ScenarioFormatException(source, i + 1, 1, "a second topology line");
                }
                topology = line.substring(TOPOLOGY.length());
                topologyLine = i + 1;
                i++;
            } else if (line.startsWith(SCENARIO)) {
                if (topology == null) {
                    throw new ScenarioFormatException(source, i + 1, 1, "a scenario before the topology line");
                }
                int start = i;
                String name = line.substring(SCENARIO.length()).strip();
                if (!name.matches("[a-z0-9_]+")) {
                    throw new ScenarioFormatException(
                            source,
                            i + 1,
                            SCENARIO.length() + 1,
                            "a scenario name is [a-z0-9_]+, found " + io.proofgate.words.Outside.quoted(name));
                }
                i++;
                int end = i;
                while (end < lines.size() && !lines.get(end).startsWith(SCENARIO)) {
                    end++;
                }
                List<ScenarioStep> steps =
                        steps(source, lines, i, end, "expected an event line, a comment or a scenario line");
                if (steps.isEmpty()) {
                    throw new ScenarioFormatException(source, start + 1, 1, "scenario " + name + " has no events");
                }
                StringBuilder text = new StringBuilder();
                for (int k = start; k < end; k++) {
                    text.append(lines.get(k)).append('\n');
                }
                scenarios.add(new ScenarioBlock(name, start + 1, text.toString(), steps));
                i = end;
            } else {
                throw new ScenarioFormatException(
                        source,
                        i + 1,
                        1,
                        line.startsWith("\uFEFF")
                                ? "a byte order mark (U+FEFF) starts the line: a scenario file is UTF-8 without one"
                                : "expected a comment, the topology line or a scenario line");
            }
        }
        if (scenarios.isEmpty()) {
            throw new ScenarioFormatException(source, 1, 1, "no scenarios");
        }
        return new ScenarioFile(topology, topologyLine, scenarios);
    }

    /** A script: its first line that is not blank or a comment is the topology line, then steps. */
    public static Script readScript(String source, String text) {
        List<String> lines = text.lines().toList();
        int i = 0;
        while (i < lines.size() && skipped(lines.get(i))) {
            i++;
        }
        if (i == lines.size() || !lines.get(i).startsWith(TOPOLOGY)) {
            throw new ScenarioFormatException(source, i + 1, 1, "a script starts with its topology line");
        }
        String topology = lines.get(i).substring(TOPOLOGY.length());
        return new Script(topology, steps(source, lines, i + 1, lines.size(), "expected an event line or a comment"));
    }

    /** The steps in {@code lines[from..to)}. */
    private static List<ScenarioStep> steps(String source, List<String> lines, int from, int to, String expectedWhat) {
        List<ScenarioStep> steps = new ArrayList<>();
        int i = from;
        while (i < to) {
            String line = lines.get(i);
            if (skipped(line)) {
                i++;
                continue;
            }
            if (!line.startsWith(EVENT)) {
                throw new ScenarioFormatException(source, i + 1, 1, expectedWhat);
            }
            if (i + 1 >= to || !lines.get(i + 1).equals(SEPARATOR)) {
                throw new ScenarioFormatException(source, i + 2, 1, "an event line must be followed by " + SEPARATOR);
            }
            int eventLine = i + 1;
            i += 2;
            List<String> expected = new ArrayList<>();
            while (i < to && !lines.get(i).isBlank()) {
                expected.add(lines.get(i));
                i++;
            }
            steps.add(new ScenarioStep(line.substring(EVENT.length()), eventLine, expected));
        }
        return steps;
    }

    private static boolean skipped(String line) {
        return line.isBlank() || line.startsWith("#");
    }

    /**
     * A file's text: the comments (without {@code #}), the topology line, then each scenario's text after a blank line.
     */
    public static String write(List<String> comments, String topology, List<String> scenarioTexts) {
        StringBuilder text = new StringBuilder();
        for (String comment : comments) {
            text.append("# ").append(comment).append('\n');
        }
        text.append(TOPOLOGY).append(topology).append('\n');
        for (String scenario : scenarioTexts) {
            text.append('\n').append(scenario);
        }
        return text.toString();
    }
}
