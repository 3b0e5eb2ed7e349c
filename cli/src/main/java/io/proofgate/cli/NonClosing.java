package io.proofgate.cli;

import io.proofgate.replay.OutputFailed;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * Lets a writer close its stream without closing stdout (closing flushes, nothing more), and turns a failure of stdout
 * into an exception: a {@link PrintStream} swallows write errors, so a full disk or a reader that went away (`| head`)
 * would otherwise look like a complete output.
 */
final class NonClosing extends FilterOutputStream {

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
