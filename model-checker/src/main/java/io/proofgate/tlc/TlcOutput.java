package io.proofgate.tlc;

import java.util.List;

/** Everything in a {@code -tool} output: the frames in order, and the lines printed between frames. */
public record TlcOutput(List<TlcMessage> messages, List<String> freeText) {
    public TlcOutput {
        messages = List.copyOf(messages);
        freeText = List.copyOf(freeText);
    }
}
