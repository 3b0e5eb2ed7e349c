package io.proofgate.audit;

/** The audit cannot run (exit 2): the message says why in the project's words, never "no change". */
public final class AuditException extends RuntimeException {
    public AuditException(String message) {
        super(message);
    }
}
