package io.proofgate.generate;

import io.proofgate.graph.Edge;
import io.proofgate.graph.StateGraph;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * One path of the state graph as a conformance script: the topology from the initial state's
 * {@code lastEvent}, then per edge the event it records and the state the model says follows.
 *
 * @param name content-derived, so unrelated changes to the model do not rename the test
 * @param category the last verdict on the path ("plan", "rejected conflict", ...), or "none"
 */
public record Script(String name, String category, String text) {

    static Script of(StateGraph graph, List<Edge> path) {
        ModelState initial = new ModelState(graph.state(path.getFirst().from()));
        if (!initial.eventKind().equals("topology")) {
            throw new IllegalArgumentException("the initial state's lastEvent must be the topology line, found kind \""
                    + initial.eventKind() + "\"");
        }
        StringBuilder body = new StringBuilder();
        body.append("topology ").append(EventJson.line(initial.lastEvent(), 0)).append('\n');
        String category = "none";
        long step = 0;
        for (Edge edge : path) {
            ModelState state = new ModelState(graph.state(edge.to()));
            String kind = state.eventKind();
            if (kind.equals("step")) {
                step++;
            }
            body.append('\n').append("event ").append(EventJson.line(state.lastEvent(), kind.equals("step") ? step : 0))
                    .append('\n').append("----\n");
            for (String line : state.expectedLines()) {
                body.append(line).append('\n');
            }
            List<String> verdicts = state.verdictLines();
            if (!verdicts.isEmpty()) {
                String last = verdicts.getLast();
                String[] words = last.split(" ");
                category = words[0].equals("plan") ? "plan" : words[0] + " " + words[2].substring(words[2].indexOf('=') + 1);
            }
        }
        String header = "# " + path.size() + " events\n";
        return new Script("path_" + digest(body.toString()), category, header + body);
    }

    private static String digest(String text) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
