package io.proofgate.conformance;

import io.proofgate.protocol.Connector;
import io.proofgate.protocol.InvalidEventException;
import io.proofgate.protocol.Verdict;
import io.proofgate.replay.EventReader;
import io.proofgate.replay.ReplayException;
import io.proofgate.replay.ReplayLine;
import io.proofgate.replay.VerdictWriter;
import io.proofgate.store.StoreKind;
import io.proofgate.store.cuda.CudaUnavailableException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;

/**
 * {@code proofgate replay --store KIND}: the replay loop of {@link io.proofgate.replay.Replay#run}
 * with a {@link ConformanceHarness} beside the connector. The harness sees each event before the
 * connector and each verdict before it is written, so stdout is byte-identical to plain replay
 * (a test holds the two loops to that); findings are returned, not written.
 *
 * <p>It repeats the loop rather than hooking into it because {@code Replay.Observer} sees only
 * verdicts, and the harness must follow the events as well.
 */
public final class ByteCheckedReplay {

    private ByteCheckedReplay() {}

    /** What the byte check saw. {@code findings} holds the first 100 of {@code findingCount}. */
    public record Result(Connector connector, String store, long plansChecked, long pagesChecked,
                         List<ByteFinding> findings, long findingCount) {}

    public static Result run(InputStream in, String source, OutputStream out, StoreKind kind)
            throws ReplayException, IOException, CudaUnavailableException {
        return run(in, source, out, kind, Publication.PLAN);
    }

    /** As {@link #run(InputStream, String, OutputStream, StoreKind)}, publishing with {@code publication}. */
    public static Result run(InputStream in, String source, OutputStream out, StoreKind kind, Publication publication)
            throws ReplayException, IOException, CudaUnavailableException {
        try (EventReader reader = new EventReader(in, source); VerdictWriter writer = new VerdictWriter(out)) {
            Connector connector = new Connector(reader.readTopology());
            try (ConformanceHarness harness = ConformanceHarness.open(connector.topology(), kind, publication)) {
                ReplayLine line;
                while ((line = reader.next()) != null) {
                    try {
                        harness.event(line.event());
                        for (Verdict verdict : connector.apply(line.event())) {
                            harness.verdict(verdict);
                            writer.write(verdict);
                        }
                    } catch (InvalidEventException e) {
                        writer.flush();
                        throw new ReplayException(source, line.line(), line.column(), e.getMessage());
                    }
                }
                writer.writeSummary(connector.state());
                return new Result(connector, harness.store().describe(), harness.plansChecked(), harness.pagesChecked(),
                        harness.findings(), harness.findingCount());
            }
        }
    }
}
