package io.proofgate.format;

import java.util.ArrayList;
import java.util.List;

/**
 * One scenario of a file: its {@code scenario NAME} line, comments, and its steps.
 *
 * @param line the line of its {@code scenario} line, from 1
 * @param text its lines as read, from the {@code scenario} line up to the next one
 */
public record ScenarioBlock(String name, int line, String text, List<ScenarioStep> steps) {
    public ScenarioBlock {
        steps = List.copyOf(steps);
    }

    /**
     * The scenarios of a text as far as they go, for comparing files that need not be well formed (a committed file
     * against a fresh one): a block per {@code scenario} line up to the next, and in it a step per {@code event} line,
     * with the lines after its separator if it has one. Only an event before the first scenario is an error.
     */
    public static List<ScenarioBlock> split(String source, List<String> lines) {
        List<ScenarioBlock> blocks = new ArrayList<>();
        int start = -1;
        for (int i = 0; i <= lines.size(); i++) {
            String line = i < lines.size() ? lines.get(i) : null;
            if (line == null || line.startsWith(ScenarioFile.SCENARIO)) {
                if (start >= 0) {
                    blocks.add(lenient(lines, start, i));
                }
                start = i;
            } else if (start < 0 && line.startsWith(ScenarioFile.EVENT)) {
                throw new ScenarioFormatException(source, i + 1, 1, "an event before any scenario line");
            }
        }
        return blocks;
    }

    private static ScenarioBlock lenient(List<String> lines, int start, int end) {
        StringBuilder text = new StringBuilder();
        List<ScenarioStep> steps = new ArrayList<>();
        for (int i = start; i < end; i++) {
            String line = lines.get(i);
            text.append(line).append('\n');
            if (line.startsWith(ScenarioFile.EVENT)) {
                List<String> expected = new ArrayList<>();
                if (i + 1 < end && lines.get(i + 1).equals(ScenarioFile.SEPARATOR)) {
                    for (int k = i + 2; k < end && !lines.get(k).isBlank(); k++) {
                        expected.add(lines.get(k));
                    }
                }
                steps.add(new ScenarioStep(line.substring(ScenarioFile.EVENT.length()), i + 1, expected));
            }
        }
        return new ScenarioBlock(
                lines.get(start).substring(ScenarioFile.SCENARIO.length()), start + 1, text.toString(), steps);
    }

    /** The text of a scenario: its name, the comments (without {@code #}), then its steps, a blank line between two. */
    public static String write(String name, List<String> comments, List<ScenarioStep> steps) {
        StringBuilder text = new StringBuilder(ScenarioFile.SCENARIO).append(name).append('\n');
        for (String comment : comments) {
            text.append("# ").append(comment).append('\n');
        }
        for (int i = 0; i < steps.size(); i++) {
            ScenarioStep step = steps.get(i);
            text.append(ScenarioFile.EVENT)
                    .append(step.event())
                    .append('\n')
                    .append(ScenarioFile.SEPARATOR)
                    .append('\n');
            for (String expected : step.expected()) {
                text.append(expected).append('\n');
            }
            if (i < steps.size() - 1) {
                text.append('\n');
            }
        }
        return text.toString();
    }
}
