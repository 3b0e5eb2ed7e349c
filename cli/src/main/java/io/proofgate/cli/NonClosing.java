package io.proofgate.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/** Lets a writer close its stream without closing stdout: closing flushes, nothing more. */
final class NonClosing extends FilterOutputStream {
    NonClosing(OutputStream out) {
        super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
        flush();
    }
}
