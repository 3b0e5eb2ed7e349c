package io.proofgate.check;

import io.proofgate.tlc.TraceState;
import io.proofgate.tlc.TraceStep;
import io.proofgate.value.TlaValue;
import io.proofgate.value.TlaValuePrinter;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Writes a TLC counterexample for people: one block per state, naming the action that led to it and only the variables
 * it changed (the first state shows them all).
 */
public final class CounterexamplePrinter {

    private CounterexamplePrinter() {}

    public static String print(List<TraceState> trace) {
        StringBuilder text = new StringBuilder();
        Map<String, TlaValue> previous = Map.of();
        for (TraceState state : trace) {
            text.append("  state ").append(state.number()).append(": ").append(describe(state.step())).append('\n');
            Map<String, TlaValue> vars = state.state().vars();
            int changed = 0;
            for (Map.Entry<String, TlaValue> variable : vars.entrySet()) {
                if (!Objects.equals(previous.get(variable.getKey()), variable.getValue())) {
                    text.append("    ")
                            .append(variable.getKey())
                            .append(" = ")
                            .append(TlaValuePrinter.print(variable.getValue()))
                            .append('\n');
                    changed++;
                }
            }
            if (changed == 0 && !vars.isEmpty()) {
                text.append("    (no variable changed)\n");
            }
            if (!vars.isEmpty()) {
                previous = vars;
            }
        }
        return text.toString();
    }

    private static String describe(TraceStep step) {
        return switch (step) {
            case TraceStep.Initial initial -> "initial state";
            case TraceStep.Action action ->
                    action.name() + " (" + action.module() + " line " + action.range().beginLine() + ")";
            case TraceStep.Stuttering stuttering -> "stuttering from here on (the behaviour stops)";
            case TraceStep.BackTo back -> "back to state " + back.state() + " via " + back.via().name() + " (a lasso)";
        };
    }
}
