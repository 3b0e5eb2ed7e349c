package io.proofgate.conform;

/**
 * The adapter broke the protocol: it exited, hung, printed something that is not an answer, or named a request no event
 * had. Never a pass and never a failure: the run could not be judged.
 */
public final class AdapterException extends Exception {

    public AdapterException(String message) {
        super(message);
    }
}
