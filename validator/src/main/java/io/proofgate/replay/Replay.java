package io.proofgate.replay;

import io.proofgate.protocol.Connector;
import io.proofgate.protocol.InvalidEventException;
import io.proofgate.protocol.Verdict;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * {@code proofgate replay}: log in, verdicts out, one event at a time. The summary is written
 * only when the whole log was read, so output without a summary line is incomplete.
 */
public final class Replay {

    private Replay() {}

    /** Observes each verdict as it is produced (the byte-checked conformance harness hooks in here). */
    public interface Observer {
        void verdict(Verdict verdict);
    }

    public static Connector run(InputStream in, String source, OutputStream out) throws ReplayException, IOException {
        return run(in, source, out, verdict -> { });
    }

    public static Connector run(InputStream in, String source, OutputStream out, Observer observer)
            throws ReplayException, IOException {
        try (EventReader reader = new EventReader(in, source); VerdictWriter writer = new VerdictWriter(out)) {
            Connector connector = new Connector(reader.readTopology());
            ReplayLine line;
            while ((line = reader.next()) != null) {
                try {
                    for (Verdict verdict : connector.apply(line.event())) {
                        observer.verdict(verdict);
                        writer.write(verdict);
                    }
                } catch (InvalidEventException e) {
                    writer.flush();
                    throw new ReplayException(source, line.line(), line.column(), e.getMessage());
                }
            }
            writer.writeSummary(connector.state());
            return connector;
        }
    }
}
