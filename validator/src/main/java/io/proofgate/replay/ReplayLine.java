package io.proofgate.replay;

import io.proofgate.protocol.Event;

/** One event of a replay log and where it starts. */
public record ReplayLine(Event event, long line, long column) {}
