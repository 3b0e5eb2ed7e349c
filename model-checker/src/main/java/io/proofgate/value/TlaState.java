package io.proofgate.value;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Optional;
import java.util.SequencedMap;

/** A state: variable name to value, in the order TLC printed them. */
public record TlaState(SequencedMap<String, TlaValue> vars) {
    public static final TlaState EMPTY = new TlaState(new LinkedHashMap<>());

    public TlaState {
        vars = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(vars));
    }

    public Optional<TlaValue> get(String variable) {
        return Optional.ofNullable(vars.get(variable));
    }

    /** TLC's printed form; see {@link TlaValuePrinter#print(TlaState)}. */
    @Override
    public String toString() {
        return TlaValuePrinter.print(this);
    }
}
