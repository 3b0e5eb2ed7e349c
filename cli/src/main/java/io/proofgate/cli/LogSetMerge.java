package io.proofgate.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code proofgate merge} for replay shards: checks that the files are the N shards of one run
 * over one list of logs, each ending with its end line, then streams their blocks in the logs' order, so that the
 * output is what one unsharded {@code replay} over all the logs prints; memory does not grow
 * with the logs.
 */
final class LogSetMerge {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A shard file that is not what a merge needs. */
    static final class Refused extends Exception {
        Refused(String message) {
            super(message);
        }
    }

    private LogSetMerge() {}

    /** Whether the file starts with a replay shard header. */
    static boolean isShard(Path file) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String first = in.readLine();
            return first != null && first.startsWith("{\"kind\":\"shard\",\"schema\":\"" + LogSet.SHARD_SCHEMA + "\"");
        } catch (java.nio.charset.MalformedInputException e) {
            return false;
        }
    }

    /** Streams the merged output to {@code sink}; returns the error lines of the logs, in order. */
    static List<String> merge(List<Path> files, OutputStream sink) throws IOException, Refused {
        List<BufferedReader> readers = new ArrayList<>();
        try {
            BufferedReader[] byIndex = null;
            Path[] fileOf = null;
            JsonNode logs = null;
            int count = -1;
            for (Path file : files) {
                BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8);
                readers.add(reader);
                JsonNode header = parse(file, reader.readLine());
                if (!LogSet.SHARD_SCHEMA.equals(header.path("schema").asText())) {
                    throw new Refused(file + ": not a replay shard file");
                }
                if (byIndex == null) { // the first file sets the run that the others must be of
                    count = header.path("of").asInt();
                    logs = header.path("files");
                    byIndex = new BufferedReader[Math.max(count, 0)];
                    fileOf = new Path[byIndex.length];
                } else if (header.path("of").asInt() != count || !header.path("files").equals(logs)) {
                    throw new Refused(file + ": a shard of another run (other logs, or another shard count)");
                }
                int index = header.path("shard").asInt(-1);
                if (index < 0 || index >= count) {
                    throw new Refused(file + ": shard " + index + " of " + count + " is not a shard");
                }
                if (byIndex[index] != null) {
                    throw new Refused(file + ": shard " + index + "/" + count + " is given twice");
                }
                if (!endsWithEndLine(file)) {
                    // refused before anything is streamed: a merge prints all of its output or none
                    throw new Refused("shard " + index + "/" + count + " is incomplete: " + file
                            + " does not end with its end line (cut short, or still being written)");
                }
                byIndex[index] = reader;
                fileOf[index] = file;
            }
            List<String> missing = new ArrayList<>();
            for (int k = 0; k < count; k++) {
                if (byIndex[k] == null) {
                    missing.add(k + "/" + count);
                }
            }
            if (!missing.isEmpty()) {
                throw new Refused("shards missing: " + missing + "; a merge needs all " + count);
            }
            String[] pending = new String[count];
            for (int k = 0; k < count; k++) {
                pending[k] = byIndex[k].readLine();
            }
            List<String> errors = new ArrayList<>();
            for (int i = 0; i < logs.size(); i++) {
                int k = i % count;
                String log = pending[k];
                JsonNode node = log == null ? null : parse(fileOf[k], log);
                if (node == null || !"log".equals(node.path("kind").asText()) || node.path("index").asInt(-1) != i) {
                    throw new Refused("shard " + k + "/" + count + " is incomplete: it has no output for log " + i + " ("
                            + logs.get(i).asText() + ")");
                }
                LogSet.line(sink, log);
                String line;
                while ((line = byIndex[k].readLine()) != null && !line.startsWith("{\"kind\":\"log\",")
                        && !line.equals(LogSet.END)) {
                    LogSet.line(sink, line);
                    if (line.startsWith("{\"kind\":\"error\",")) {
                        errors.add(parse(fileOf[k], line).path("message").asText());
                    }
                }
                pending[k] = line;
            }
            for (int k = 0; k < count; k++) {
                if (!LogSet.END.equals(pending[k]) || byIndex[k].readLine() != null) {
                    throw new Refused("shard " + k + "/" + count + " is incomplete or has more than its logs"
                            + " (no end line where its logs end)");
                }
            }
            return errors;
        } finally {
            for (BufferedReader reader : readers) {
                reader.close();
            }
        }
    }

    private static boolean endsWithEndLine(Path file) throws IOException {
        byte[] end = (LogSet.END + "\n").getBytes(StandardCharsets.UTF_8);
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            if (in.length() < end.length) {
                return false;
            }
            byte[] last = new byte[end.length];
            in.seek(in.length() - end.length);
            in.readFully(last);
            return Arrays.equals(last, end);
        }
    }

    private static JsonNode parse(Path file, String line) throws Refused {
        if (line == null) {
            throw new Refused(file + ": empty, not a replay shard file");
        }
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new Refused(file + ": a line that is not JSON; not a replay shard file");
        }
    }
}
