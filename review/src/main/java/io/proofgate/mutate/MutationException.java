package io.proofgate.mutate;

/** The mutation run cannot go on: bad markers, an unknown part or operator, an unreadable file. */
public final class MutationException extends Exception {
    public MutationException(String message) {
        super(message);
    }
}
