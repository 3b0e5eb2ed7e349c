package io.proofgate.replay;

import io.proofgate.protocol.Connector;
import io.proofgate.protocol.Event;
import io.proofgate.protocol.InvalidEventException;
import io.proofgate.protocol.Topology;
import io.proofgate.protocol.Verdict;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * {@code proofgate replay}: log in, verdicts out, one event at a time, in log order. A long log is parsed ahead in
 * pieces on other threads ({@link EventPipeline}); the connector stays single-threaded. The summary is written only
 * when the whole log was read, so output without a summary line is incomplete.
 */
public final class Replay {

    private Replay() {}

    /** Sees each event before the connector does and each verdict before it is written. */
    public interface Observer {
        Observer NONE = new Observer() {};

        default void event(Event event) {}

        default void verdict(Verdict verdict) {}
    }

    /** Opens the observer once the topology line has been read. */
    @FunctionalInterface
    public interface ObserverFactory<E extends Exception> {
        Observer open(Topology topology) throws E;
    }

    public static Connector run(InputStream in, String source, OutputStream out) throws ReplayException, IOException {
        return run(in, source, out, topology -> Observer.NONE);
    }

    /** Replays with an observer beside the connector (the byte-check harness hooks in here). */
    public static <E extends Exception> Connector run(
            InputStream in, String source, OutputStream out, ObserverFactory<E> observers)
            throws ReplayException, IOException, E {
        return run(in, source, out, observers, EventPipeline.Settings.defaults());
    }

    /** As above, the log cut and parsed as {@code settings} say (tests: small pieces). */
    static <E extends Exception> Connector run(
            InputStream in,
            String source,
            OutputStream out,
            ObserverFactory<E> observers,
            EventPipeline.Settings settings)
            throws ReplayException, IOException, E {
        try (EventPipeline lines = EventPipeline.open(in, source, settings);
                VerdictWriter writer = new VerdictWriter(out)) {
            Connector connector = new Connector(lines.topology(), lines.restores());
            Observer observer = observers.open(connector.topology());
            ReplayLine line;
            while ((line = lines.next()) != null) {
                try {
                    observer.event(line.event());
                    for (Verdict verdict : connector.apply(line.event())) {
                        observer.verdict(verdict);
                        writer.write(verdict);
                    }
                } catch (InvalidEventException e) {
                    writer.flush();
                    throw new ReplayException(source, line.line(), line.column(), e.getMessage());
                }
            }
            writer.writeSummary(connector);
            return connector;
        }
    }
}
