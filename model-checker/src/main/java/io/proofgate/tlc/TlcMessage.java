package io.proofgate.tlc;

import java.util.Optional;

/**
 * One {@code -tool} frame: its code, severity and text (trailing blank lines removed), the line
 * of its opening marker, and for codes 2217, 2218 and 2122 the trace state it prints.
 */
public record TlcMessage(int code, Severity severity, String text, int line, Optional<TraceState> traceState) {
    public TlcMessage {
        java.util.Objects.requireNonNull(severity);
        java.util.Objects.requireNonNull(text);
        java.util.Objects.requireNonNull(traceState);
    }
}
