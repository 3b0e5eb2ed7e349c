package io.proofgate.format;

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

    /** The text of a scenario: its name, the comments (without {@code #}), then its steps, a blank line between two. */
    public static String write(String name, List<String> comments, List<ScenarioStep> steps) {
        StringBuilder text = new StringBuilder(ScenarioFile.SCENARIO).append(name).append('\n');
        for (String comment : comments) {
            text.append("# ").append(comment).append('\n');
        }
        for (int i = 0; i < steps.size(); i++) {
            ScenarioStep step = steps.get(i);
            text.append(ScenarioFile.EVENT).append(step.event()).append('\n').append(ScenarioFile.SEPARATOR).append('\n');
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
