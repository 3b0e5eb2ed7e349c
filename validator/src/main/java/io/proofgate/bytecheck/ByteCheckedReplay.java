package io.proofgate.bytecheck;

import io.proofgate.protocol.Connector;
import io.proofgate.replay.Replay;
import io.proofgate.replay.ReplayException;
import io.proofgate.store.StoreKind;
import io.proofgate.store.cuda.CudaUnavailableException;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;

/**
 * {@code proofgate replay --store KIND}: {@link Replay#run} with a {@link ByteCheckHarness} as its observer. The
 * harness sees each event before the connector and each verdict before it is written, so stdout is byte-identical to
 * plain replay; findings are returned, not written.
 */
public final class ByteCheckedReplay {

    private ByteCheckedReplay() {}

    /** What the byte check saw. {@code findings} holds the first 100 of {@code findingCount}. */
    public record Result(
            Connector connector,
            String store,
            long plansChecked,
            long pagesChecked,
            List<ByteFinding> findings,
            long findingCount) {}

    public static Result run(InputStream in, String source, OutputStream out, StoreKind kind)
            throws ReplayException, IOException, CudaUnavailableException {
        return run(in, source, out, kind, CopiedBlocks.PLAN);
    }

    /** As {@link #run(InputStream, String, OutputStream, StoreKind)}, publishing with {@code copies}. */
    public static Result run(InputStream in, String source, OutputStream out, StoreKind kind, CopiedBlocks copies)
            throws ReplayException, IOException, CudaUnavailableException {
        ByteCheckHarness[] opened = new ByteCheckHarness[1];
        try {
            Connector connector =
                    Replay.run(in, source, out, topology -> opened[0] = ByteCheckHarness.open(topology, kind, copies));
            ByteCheckHarness harness = opened[0];
            return new Result(
                    connector,
                    harness.store().describe(),
                    harness.plansChecked(),
                    harness.pagesChecked(),
                    harness.findings(),
                    harness.findingCount());
        } finally {
            if (opened[0] != null) {
                opened[0].close();
            }
        }
    }
}
