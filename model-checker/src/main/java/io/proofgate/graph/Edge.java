package io.proofgate.graph;

import java.util.Optional;

/**
 * A transition of the state graph. {@code action} is the action's name only (TLC writes no parameters), and is empty
 * when the dot file was written without {@code actionlabels}.
 */
public record Edge(long from, long to, Optional<String> action) {}
