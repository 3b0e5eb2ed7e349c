package io.proofgate.generate;

/** Generation could not proceed; the message says why and what to do, {@link #why()} only why. */
public final class GenerationException extends RuntimeException {
    private final String why;

    public GenerationException(String message) {
        this(message, message);
    }

    public GenerationException(String message, String why) {
        super(message);
        this.why = why;
    }

    public String why() {
        return why;
    }
}
