package io.proofgate.tlc;

import java.nio.file.Path;

/**
 * A finished TLC child process. TLC's exit code is 0 when no error was found, 11 to 13 for a
 * deadlock, safety or liveness violation, and larger for errors; {@code run.verdict()} says the
 * same from the output. {@code timedOut} is true when the child was killed at the time limit.
 */
public record TlcResult(int exitCode, boolean timedOut, Path rawOutput, TlcOutput output, TlcRun run) {
}
