package io.proofgate.tlc;

import io.proofgate.parse.ParseException;

import java.util.Optional;

/**
 * Cuts TLC's output into frames line by line, so a listener sees progress while TLC runs. Each complete frame is parsed
 * with the TlcTool grammar; a frame that does not parse is skipped here and reported by the full parse of the raw
 * output once TLC has exited.
 */
final class TlcFrameAssembler {
    private final String source;
    private final StringBuilder frame = new StringBuilder();
    private int lineNumber;
    private int frameStart = -1;

    TlcFrameAssembler(String source) {
        this.source = source;
    }

    /** Feeds one line (without its line break); returns the message when the line closes a frame. */
    Optional<TlcMessage> accept(String line) {
        lineNumber++;
        if (line.startsWith("@!@!@STARTMSG")) {
            frame.setLength(0);
            frameStart = lineNumber;
        }
        if (frameStart < 0) {
            return Optional.empty();
        }
        frame.append(line).append('\n');
        if (!line.startsWith("@!@!@ENDMSG")) {
            return Optional.empty();
        }
        int start = frameStart;
        frameStart = -1;
        try {
            TlcOutput out = TlcOutputReader.read(source, frame.toString());
            return out.messages().stream()
                    .findFirst()
                    .map(m -> new TlcMessage(m.code(), m.severity(), m.text(), m.line() + start - 1, m.traceState()));
        } catch (ParseException e) {
            return Optional.empty();
        }
    }
}
