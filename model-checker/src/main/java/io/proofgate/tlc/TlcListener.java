package io.proofgate.tlc;

/**
 * Receives each frame as soon as TLC has printed it, on the thread that reads TLC's output. Progress reports are code
 * {@link TlcStatistics#PROGRESS}; read them with {@link TlcStatistics#counts(TlcMessage)}.
 */
@FunctionalInterface
public interface TlcListener {
    TlcListener NONE = message -> {};

    void onMessage(TlcMessage message);
}
