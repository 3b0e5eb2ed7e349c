package io.proofgate.protocol;

/**
 * An event that cannot be a scheduler output for this connector's state (an id scheduled twice in one step, a table of
 * the wrong arity, ...). The edge reports it against the input's position.
 */
public final class InvalidEventException extends RuntimeException {
    public InvalidEventException(String message) {
        super(message);
    }
}
