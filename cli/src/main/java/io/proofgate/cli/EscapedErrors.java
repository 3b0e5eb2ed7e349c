package io.proofgate.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * Standard error with every control byte escaped as {@link io.proofgate.words.Outside} escapes it ({@code \u001b}),
 * newlines excepted: the last guard between outside text and the terminal. Messages escape what they quote at the
 * source (a log's words, names read from a shard); this catches what reaches stderr by another way (a file name inside
 * an exception's text, a message carried in a replay shard), so that no file, log or shard can move the cursor, clear
 * the screen or forge a line. C1 controls are escaped too: a terminal reads U+009B (bytes C2 9B) as CSI.
 */
final class EscapedErrors extends FilterOutputStream {

    /** The first byte of a UTF-8 character in U+0080..U+00BF, held until the next shows whether it is a C1 control. */
    private boolean pendingC2;

    private EscapedErrors(OutputStream out) {
        super(out);
    }

    /** {@code err}, escaped, flushed as it was (autoflush), in its own charset. */
    static PrintStream of(PrintStream err) {
        return new OneLine(new EscapedErrors(err), err.charset());
    }

    /**
     * A {@code println} writes one line: a line break inside its text (a repository path or a file name that holds one)
     * is written as {@code \n}, so that it cannot split a message in two or forge the next line. What a command prints
     * in several lines it prints line by line.
     */
    private static final class OneLine extends PrintStream {
        OneLine(OutputStream out, java.nio.charset.Charset charset) {
            super(out, true, charset);
        }

        @Override
        public void println(String line) {
            super.println(line == null ? null : line.replace("\n", "\\n"));
        }

        @Override
        public void println(Object line) {
            println(String.valueOf(line));
        }
    }

    @Override
    public void write(int b) throws IOException {
        b &= 0xff;
        if (pendingC2) {
            pendingC2 = false;
            if (b >= 0x80 && b < 0xa0) {
                escape(b);
                return;
            }
            out.write(0xc2);
        }
        if (b == 0xc2) {
            pendingC2 = true;
        } else if ((b < 0x20 && b != '\n') || b == 0x7f) {
            escape(b);
        } else {
            out.write(b);
        }
    }

    private void escape(int c) throws IOException {
        out.write(String.format("\\u%04x", c).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        for (int i = off; i < off + len; i++) {
            write(b[i]);
        }
    }

    @Override
    public void close() throws IOException {
        if (pendingC2) {
            pendingC2 = false;
            out.write(0xc2);
        }
        super.close();
    }
}
