package io.proofgate.tlc;

import java.util.Optional;

/**
 * One {@code -tool} frame: its code, severity and text (trailing blank lines removed), the line of its opening marker,
 * and for codes 2217, 2218 and 2122 the trace state it prints.
 */
public record TlcMessage(int code, Severity severity, String text, int line, Optional<TraceState> traceState) {
    public TlcMessage {
        java.util.Objects.requireNonNull(severity);
        java.util.Objects.requireNonNull(text);
        java.util.Objects.requireNonNull(traceState);
    }

    /** A nested frame's opening or closing marker, as it stays in its parent's text. */
    private static final java.util.regex.Pattern NESTED_MARKER =
            java.util.regex.Pattern.compile(":? ?@!@!@(START|END)MSG [0-9:]+ @!@!@\\n?");

    /**
     * The text for people: without the markers of frames nested in it (TLC prints, e.g., a configuration error inside
     * its "unexpected exception" frame), stripped.
     */
    public String words() {
        return NESTED_MARKER.matcher(text).replaceAll("").strip();
    }
}
