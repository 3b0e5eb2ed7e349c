package io.proofgate.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * Lets a writer close its stream without closing stdout (closing flushes, nothing more), and
 * turns a failure of stdout into an exception: a {@link PrintStream} swallows write errors, so a
 * full disk or a reader that went away (`| head`) would otherwise look like a complete output.
 */
final class NonClosing extends FilterOutputStream {

    /** The output failed, standard output or a result file: the output is incomplete. */
    static final class OutputFailed extends IOException {
        OutputFailed() {
            super("cannot write to standard output (closed, or the disk is full); the output is incomplete");
        }

        /** A write to a result file failed; the message is the cause in the project's words. */
        OutputFailed(IOException cause) {
            super(FileProblems.words(cause) + "; the output is incomplete", cause);
        }
    }

    NonClosing(OutputStream out) {
        super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        check();
    }

    @Override
    public void flush() throws IOException {
        out.flush();
        check();
    }

    @Override
    public void close() throws IOException {
        flush();
    }

    private void check() throws IOException {
        if (out instanceof PrintStream print && print.checkError()) {
            throw new OutputFailed();
        }
    }
}
