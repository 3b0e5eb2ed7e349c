package io.proofgate.tlc;

import java.io.IOException;

/**
 * Where a TLC command runs: a fresh JVM per run ({@link #FRESH}), or a warm JVM kept for the next run ({@link
 * WarmTlcPool}). A caller that keeps a run's output by what produced it (the audit's kept state graphs) keys it by
 * {@link #identity()}: the two can print a record's fields in different orders (docs/performance.md, "Mutation runs:
 * warm TLC JVMs").
 */
public interface TlcRunner {

    /** Runs {@code command} to its end, its output read once it ended. */
    TlcResult run(TlcCommand command) throws IOException, InterruptedException;

    /** A SHA-256 of the code this runner's TLC runs in; equal for two runners whose runs print the same. */
    String identity() throws IOException;

    /** A fresh JVM per run, as {@link TlcProcess#run} makes one. */
    TlcRunner FRESH =
            new TlcRunner() {
                @Override
                public TlcResult run(TlcCommand command) throws IOException, InterruptedException {
                    return TlcProcess.run(command, TlcListener.NONE);
                }

                @Override
                public String identity() throws IOException {
                    return TlcProcess.toolIdentity();
                }
            };
}
