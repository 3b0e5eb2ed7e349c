package io.proofgate.replay;

import io.proofgate.words.FileProblems;

import java.io.IOException;

/**
 * The output failed, standard output or a result file: what was written is incomplete. Kept apart from a failure to
 * read a log, which is that log's error and does not stop a run over several.
 */
public final class OutputFailed extends IOException {

    /** Standard output failed: a {@link java.io.PrintStream} reports it only when asked. */
    public OutputFailed() {
        super("cannot write to standard output (closed, or the disk is full); the output is incomplete");
    }

    /** A write to a result file failed; the message is the cause in the project's words. */
    public OutputFailed(IOException cause) {
        super(FileProblems.words(cause) + "; the output is incomplete", cause);
    }
}
