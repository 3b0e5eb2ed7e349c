package io.proofgate.cli;

import io.proofgate.replay.Replay;
import io.proofgate.replay.ReplayException;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/** {@code proofgate replay FILE|-}: DESIGN §5. */
final class ReplayCommand implements Command {

    @Override
    public String name() {
        return "replay";
    }

    @Override
    public String summary() {
        return "replay a proofgate-events/v1 log and print verdicts and a summary";
    }

    @Override
    public String help() {
        return """
                Usage: proofgate replay FILE|-

                Replays a JSON Lines log of scheduler events (schema proofgate-events/v1: a topology
                line, then step, finished and held events) through the validator and writes one JSON
                object per line to stdout: a plan, rejected or retired verdict as each is decided, and
                a summary once the whole log has been read. Reads stdin when FILE is "-".

                A structural error (invalid JSON, an unknown kind or field, a missing or mistyped field)
                stops the run with FILE:LINE:COLUMN: PROBLEM on stderr and no summary line. Anything
                inside recurrent_boundary_blocks is evidence: it yields verdicts, never an error.

                Exit codes: 0 the log was read to the end (rejections are verdicts, not errors);
                2 usage error, unreadable file or structural error in the log.
                """;
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        if (args.isEmpty()) {
            throw new UsageException("missing FILE (a log path, or - for stdin)");
        }
        if (args.size() > 1) {
            throw new UsageException("unexpected argument \"" + args.get(1) + "\"");
        }
        String file = args.getFirst();
        if (file.startsWith("-") && !file.equals("-")) {
            throw new UsageException("unknown option \"" + file + "\"");
        }
        OutputStream sink = new BufferedOutputStream(new NonClosing(out), 1 << 16);
        try (InputStream in = file.equals("-") ? System.in : Files.newInputStream(Path.of(file))) {
            Replay.run(in, file.equals("-") ? "<stdin>" : file, sink);
            sink.flush();
            return Main.OK;
        } catch (ReplayException e) {
            flushQuietly(sink);
            err.println("proofgate replay: " + e.getMessage());
            return Main.USAGE;
        } catch (OutOfMemoryError e) {
            // The connector's state (pending requests, digests reported held) outgrew the heap.
            flushQuietly(sink);
            err.println("proofgate replay: " + file + ": out of memory holding the connector's state"
                    + " (pending requests and held digests); no summary written; raise the heap with"
                    + " PROOFGATE_JVM_OPTS=-Xmx...");
            return Main.USAGE;
        } catch (NoSuchFileException e) {
            err.println("proofgate replay: " + file + ": no such file");
            return Main.USAGE;
        } catch (IOException e) {
            flushQuietly(sink);
            err.println("proofgate replay: " + file + ": " + e.getMessage());
            return Main.USAGE;
        }
    }

    private static void flushQuietly(OutputStream sink) {
        try {
            sink.flush();
        } catch (IOException ignored) {
            // stdout is gone; the error on stderr is what matters now
        }
    }

    /** Lets the writer close its stream without closing stdout. */
    private static final class NonClosing extends java.io.FilterOutputStream {
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
}
