package io.proofgate.generate;

/** Generation could not proceed; the message says why and what to do. */
public final class GenerationException extends RuntimeException {
    public GenerationException(String message) {
        super(message);
    }
}
