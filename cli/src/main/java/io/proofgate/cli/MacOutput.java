package io.proofgate.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

import javax.crypto.Mac;

/**
 * Passes bytes on and feeds each to a MAC: a replay shard file's HMAC covers exactly the bytes written before its end
 * line.
 */
final class MacOutput extends FilterOutputStream {

    private final Mac mac;

    MacOutput(OutputStream out, Mac mac) {
        super(out);
        this.mac = mac;
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
        mac.update((byte) b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        mac.update(b, off, len);
    }
}
