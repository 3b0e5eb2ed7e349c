package io.proofgate.tlc;

import java.nio.file.Path;

/**
 * A finished TLC child process. TLC's exit code is 0 when no error was found, 11 to 13 for a deadlock, safety or
 * liveness violation, and larger for errors; {@code run.ending()} says the same from the output. {@code timedOut} is
 * true when the child was killed at the time limit; {@code stateBoundReached} when the run stopped at its {@link
 * StateBound} (TLC reports that as a violation of the bound's invariant, which is no violation of the model). Either
 * way the model's outcome is unknown.
 */
public record TlcResult(
        int exitCode, boolean timedOut, boolean stateBoundReached, Path rawOutput, TlcOutput output, TlcRun run) {

    /** Whether a limit, of time or of states, stopped the run before it could say. */
    public boolean unfinished() {
        return timedOut || stateBoundReached;
    }
}
