package io.proofgate.replay;

import io.proofgate.words.EventObject;
import io.proofgate.words.FileProblems;
import io.proofgate.words.Outside;
import io.proofgate.words.Sha256;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code proofgate replay} over several logs: each replayed on its own, in argument order, its output after a {@code
 * log} line that names it, ending with its summary or, for a log with a structural error, an {@code error} line
 * instead. A shard ({@code --shard K/N}) replays the logs whose position is K modulo N and writes them to a result file
 * between a {@code shard} header and an {@code end} line, so that {@code proofgate merge-replay} can print what one run
 * prints.
 */
public final class ReplayShard {

    public static final String SHARD_SCHEMA = "proofgate-replay-shard/v2";

    /** The start of every replay shard's header, whatever its version: a file of another version is refused by name. */
    public static final String SHARD_PREFIX = "{\"kind\":\"shard\",\"schema\":\"proofgate-replay-shard/";

    private ReplayShard() {}

    /** Replays the logs of shard {@code index} of {@code count}; returns the error lines, in order. */
    public static List<String> replay(List<String> files, int index, int count, OutputStream output)
            throws IOException {
        // a failure to write is the output's, never the log's being read: it stops the run
        OutputStream sink = new OutputFailures(output);
        List<String> errors = new ArrayList<>();
        for (int i = index; i < files.size(); i += count) {
            String file = files.get(i);
            line(sink, logLine(i, file));
            String error = null;
            try (InputStream in = Files.newInputStream(Path.of(file))) {
                Replay.run(in, file, sink);
            } catch (ReplayException e) {
                error = e.getMessage();
            } catch (OutputFailed e) {
                throw e;
            } catch (IOException e) {
                error =
                        Outside.bare(file)
                                + ": "
                                + FileProblems.words(e); // the name is the command line's: shown escaped
            } catch (OutOfMemoryError e) {
                error =
                        Outside.bare(file)
                                + ": out of memory (reading the log, or holding the connector's state); no summary"
                                + " written; raise the heap with PROOFGATE_JVM_OPTS=-Xmx...";
            }
            if (error != null) {
                line(sink, errorLine(error));
                errors.add(error);
            }
        }
        return errors;
    }

    /** The line that ends the output of a log replay refused, with its message. */
    static String errorLine(String message) {
        return "{\"kind\":\"error\",\"message\":" + EventObject.quote(message) + "}";
    }

    /** The line that starts the output of log {@code index}, at {@code path}. */
    static String logLine(int index, String path) {
        return "{\"kind\":\"log\",\"index\":" + index + ",\"path\":" + EventObject.quote(path) + "}";
    }

    /**
     * The header of shard {@code index} of {@code count}: the whole list of logs, and the SHA-256 of each log of the
     * shard's share as {@code [position, hash]}, in order (null for a log that could not be read: its error is in the
     * shard's output).
     */
    public static String header(List<String> files, int index, int count, List<String> hashes) {
        StringBuilder header =
                new StringBuilder(
                        "{\"kind\":\"shard\",\"schema\":\""
                                + SHARD_SCHEMA
                                + "\",\"shard\":"
                                + index
                                + ",\"of\":"
                                + count
                                + ",\"files\":[");
        for (int i = 0; i < files.size(); i++) {
            header.append(i == 0 ? "" : ",").append(EventObject.quote(files.get(i)));
        }
        header.append("],\"sha256\":[");
        for (int i = index, n = 0; i < files.size(); i += count, n++) {
            String hash = hashes.get(n);
            header.append(n == 0 ? "" : ",")
                    .append('[')
                    .append(i)
                    .append(',')
                    .append(hash == null ? "null" : EventObject.quote(hash))
                    .append(']');
        }
        return header.append("]}").toString();
    }

    /** The SHA-256 of each log of shard {@code index} of {@code count}, null for one that cannot be read. */
    public static List<String> hashes(List<String> files, int index, int count) {
        List<String> hashes = new ArrayList<>();
        for (int i = index; i < files.size(); i += count) {
            try {
                hashes.add(Sha256.of(Path.of(files.get(i))));
            } catch (IOException e) {
                hashes.add(null); // its replay reports why, as an error line
            }
        }
        return hashes;
    }

    /** The last line of an unsigned shard file. */
    public static final String END = "{\"kind\":\"end\"}";

    /** The last line of a shard file signed with PROOFGATE_SHARD_KEY: the HMAC of every byte before it. */
    public static String end(String hmac) {
        return hmac == null ? END : "{\"kind\":\"end\",\"hmac\":\"" + hmac + "\"}";
    }

    /**
     * Whether a line is a shard file's end line, signed or not (what {@link #end} writes, as a reader first sees it).
     */
    static boolean isEnd(String line) {
        return line.startsWith("{\"kind\":\"end\"");
    }

    /** A signed end line as {@link #end} writes it, with its newline, at the end of a file: group 1 is the HMAC. */
    static final Pattern SIGNED_END = Pattern.compile("\\{\"kind\":\"end\",\"hmac\":\"([0-9a-f]{64})\"}\n$");

    /** Marks every failure of the output as an {@link OutputFailed}. */
    private static final class OutputFailures extends FilterOutputStream {
        OutputFailures(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            marked(() -> out.write(b));
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            marked(() -> out.write(b, off, len));
        }

        @Override
        public void flush() throws IOException {
            marked(out::flush);
        }

        private interface Write {
            void run() throws IOException;
        }

        private static void marked(Write write) throws IOException {
            try {
                write.run();
            } catch (OutputFailed e) {
                throw e;
            } catch (IOException e) {
                throw new OutputFailed(e);
            }
        }
    }

    public static void line(OutputStream sink, String line) throws IOException {
        sink.write(line.getBytes(StandardCharsets.UTF_8));
        sink.write('\n');
    }
}
