package io.proofgate.conform;

/** A conformance run that could not start: unreadable scenarios (located FILE:LINE:COLUMN), no adapter. */
public final class ConformException extends Exception {

    public ConformException(String message) {
        super(message);
    }
}
