package io.proofgate.tlc;

import io.proofgate.value.TlaState;
import java.util.List;

/**
 * One trace module written by {@code -simulate file=PREFIX,num=N}: its module name (TLC writes
 * the file's path there) and the states {@code STATE_1 .. STATE_n} in order. TLC writes no action
 * names into these files.
 */
public record SimulationTrace(String module, List<TlaState> states) {
    public SimulationTrace {
        states = List.copyOf(states);
    }
}
