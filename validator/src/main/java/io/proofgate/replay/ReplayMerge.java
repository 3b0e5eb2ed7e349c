package io.proofgate.replay;

import io.proofgate.shard.ShardKey;
import io.proofgate.words.FileProblems;
import io.proofgate.words.Outside;
import io.proofgate.words.Sha256;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code proofgate merge-replay} for replay shards: checks that the files are the N shards of one run over one list of
 * logs, each ending with its end line, then streams their blocks in the logs' order, so that the output is what one
 * unsharded {@code replay} over all the logs prints; memory does not grow with the logs.
 */
public final class ReplayMerge {

    /** Up to this shard count a merge with shards missing lists them; beyond, it says how many it needs. */
    private static final int MISSING_LISTED = 1024;

    private ReplayMerge() {}

    /** Whether the file starts with a replay shard header, of any version (another is refused by name). */
    public static boolean isShard(Path file) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String first = in.readLine();
            return first != null && first.startsWith(ReplayShard.SHARD_PREFIX);
        } catch (java.nio.charset.MalformedInputException e) {
            return false;
        }
    }

    /**
     * Streams the merged output to {@code sink}; returns the error lines of the logs, in order. Every check comes
     * first, so that a refused merge prints nothing: each shard's header ({@link ShardHeader}), its end line, its HMAC
     * under {@code key} (a signed shard is refused without one), every line of its body ({@link ShardBody}), and with
     * {@code check} each log's SHA-256 against the log at its path here.
     */
    public static List<String> merge(List<Path> files, OutputStream sink, Optional<ShardKey> key, boolean check)
            throws IOException, MergeRefused {
        try {
            return mergeUtf8(files, sink, key, check);
        } catch (java.nio.charset.CharacterCodingException e) {
            // the decoder's own words ("Input length = 1") name no file and no problem
            throw new MergeRefused("a shard file holds bytes that are not UTF-8 text: not a replay shard file");
        }
    }

    private static List<String> mergeUtf8(List<Path> files, OutputStream sink, Optional<ShardKey> key, boolean check)
            throws IOException, MergeRefused {
        Path[] fileOf = null;
        ShardHeader first = null;
        for (Path file : files) {
            ShardHeader header;
            try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                header = ShardHeader.read(file, reader.readLine());
            }
            int count = header.count();
            if (first == null) { // the first file sets the run that the others must be of
                if (count > files.size() && count > MISSING_LISTED) {
                    // refused before anything is allocated by count: a forged count of 2^31-1 ran the merge out of
                    // memory
                    // (a smaller count gets the list of the missing shards below)
                    throw new MergeRefused(
                            "shards missing: a merge needs all "
                                    + count
                                    + " shards, and "
                                    + files.size()
                                    + (files.size() == 1 ? " file is" : " files are")
                                    + " given");
                }
                first = header;
                fileOf = new Path[count];
            } else if (count != first.count() || !header.logs().equals(first.logs())) {
                throw new MergeRefused(shown(file) + ": a shard of another run (other logs, or another shard count)");
            }
            int index = header.shard();
            if (fileOf[index] != null) {
                throw new MergeRefused(shown(file) + ": shard " + index + "/" + count + " is given twice");
            }
            End end = endLine(file);
            if (end == null) {
                // refused before anything is streamed: a merge prints all of its output or none
                throw new MergeRefused(
                        "shard " + index + "/" + count + " is incomplete: " + shown(file) + " " + noEnd(file));
            }
            verify(file, end, key);
            ShardBody.check(file, header);
            if (check) {
                for (int n = 0, i = index; i < header.logs().size(); n++, i += count) {
                    same(header.logs().get(i), i, header.hashes().get(n), index + "/" + count);
                }
            }
            fileOf[index] = file;
        }
        int count = first.count();
        List<String> missing = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            if (fileOf[k] == null) {
                missing.add(k + "/" + count);
            }
        }
        if (!missing.isEmpty()) {
            throw new MergeRefused("shards missing: " + missing + "; a merge needs all " + count);
        }
        return stream(fileOf, first.logs().size(), sink);
    }

    /**
     * The checked shards' lines, each log's output in the logs' order; returns the logs' error messages. A shard that
     * changes between its check and this pass is refused where it differs, with part of the output printed: the checks
     * above are what keep a refusal from printing.
     */
    private static List<String> stream(Path[] fileOf, int logs, OutputStream sink) throws IOException, MergeRefused {
        int count = fileOf.length;
        BufferedReader[] byIndex = new BufferedReader[count];
        try {
            String[] pending = new String[count];
            for (int k = 0; k < count; k++) {
                byIndex[k] = Files.newBufferedReader(fileOf[k], StandardCharsets.UTF_8);
                byIndex[k].readLine(); // the header
                pending[k] = byIndex[k].readLine();
            }
            List<String> errors = new ArrayList<>();
            for (int i = 0; i < logs; i++) {
                int k = i % count;
                String log = pending[k];
                if (log == null || !log.startsWith("{\"kind\":\"log\",\"index\":" + i + ",")) {
                    throw new MergeRefused(
                            shown(fileOf[k])
                                    + ": changed while it was merged (no output for log "
                                    + i
                                    + " where it was)");
                }
                ReplayShard.line(sink, log);
                String line;
                while ((line = byIndex[k].readLine()) != null
                        && !line.startsWith("{\"kind\":\"log\",")
                        && !ReplayShard.isEnd(line)) {
                    ReplayShard.line(sink, line);
                    if (line.startsWith("{\"kind\":\"error\",")) {
                        // a message the shard carries is outside text, written by the shard's machine: escaped
                        errors.add(Outside.bare(message(line)));
                    }
                }
                pending[k] = line;
            }
            return errors;
        } finally {
            for (BufferedReader reader : byIndex) {
                if (reader != null) {
                    reader.close();
                }
            }
        }
    }

    /** A shard's end line: its HMAC (null when unsigned) and its length in bytes, newline included. */
    private record End(String hmac, int length) {}

    /** The file's end line, read from its last bytes, or null when it does not end with one. */
    private static End endLine(Path file) throws IOException {
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            int tail = (int) Math.min(in.length(), ReplayShard.end("0".repeat(64)).length() + 2);
            byte[] last = new byte[tail];
            in.seek(in.length() - tail);
            in.readFully(last);
            String text = new String(last, StandardCharsets.UTF_8);
            if (text.endsWith("\n" + ReplayShard.END + "\n")) {
                return new End(null, ReplayShard.END.length() + 1);
            }
            java.util.regex.Matcher signed = ReplayShard.SIGNED_END.matcher(text);
            if (signed.find() && text.substring(0, signed.start()).endsWith("\n")) {
                return new End(signed.group(1), text.length() - signed.start());
            }
            return null;
        }
    }

    /**
     * Why a file has no end line as a shard writes it: a shard edited by a tool that changed its line ends or the end
     * line's HMAC, or one cut short.
     */
    private static String noEnd(Path file) throws IOException {
        String tail;
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            int length = (int) Math.min(in.length(), 256);
            byte[] last = new byte[length];
            in.seek(in.length() - length);
            in.readFully(last);
            tail = new String(last, StandardCharsets.UTF_8);
        }
        if (tail.endsWith("\r\n")) {
            return "ends its lines with CR LF: a shard's lines end with LF alone, as replay wrote them (was it"
                    + " converted?)";
        }
        String stripped = tail.stripTrailing();
        int start = stripped.lastIndexOf('\n') + 1;
        String last = stripped.substring(start);
        if (ReplayShard.isEnd(last)) {
            if (tail.endsWith(last)) {
                return "has no newline after its end line";
            }
            return tail.endsWith(last + "\n")
                    ? "has an end line that is not one replay writes (an HMAC is 64 lower-case hex digits)"
                    : "has blank text after its end line, which must be the file's last line";
        }
        return "does not end with its end line (cut short, or still being written)";
    }

    /**
     * The shard's HMAC against the key of this merge: with a key it must verify; without one, a signed shard is
     * refused.
     */
    private static void verify(Path file, End end, Optional<ShardKey> key) throws IOException, MergeRefused {
        boolean verifies = key.isPresent() && end.hmac() != null && verifies(file, end, key.get());
        String refusal = ShardKey.refusal(key, end.hmac(), "its end line has an HMAC", k -> verifies);
        if (refusal != null) {
            throw new MergeRefused(shown(file) + ": " + refusal);
        }
    }

    /** Whether the HMAC of every byte before the end line is the end line's. */
    private static boolean verifies(Path file, End end, ShardKey key) throws IOException {
        javax.crypto.Mac mac = key.mac();
        try (java.io.InputStream in = Files.newInputStream(file)) {
            long left = Files.size(file) - end.length();
            byte[] buffer = new byte[1 << 16];
            while (left > 0) {
                int read = in.read(buffer, 0, (int) Math.min(buffer.length, left));
                if (read < 0) {
                    break;
                }
                mac.update(buffer, 0, read);
                left -= read;
            }
        }
        return ShardKey.verifies(mac, end.hmac());
    }

    /** An error line's message; the line was checked (ShardBody) before anything is streamed. */
    private static String message(String line) {
        try {
            return ((OutputLine.Error) OutputLine.read(line)).message();
        } catch (OutputLine.Unreadable | ClassCastException e) {
            throw new IllegalStateException("a shard's lines are checked before they are streamed: " + line, e);
        }
    }

    /** --check: the log at {@code path} here must be the one the shard replayed. */
    private static void same(String path, int i, String recorded, String shard) throws MergeRefused {
        if (recorded == null) {
            throw new MergeRefused(
                    "--check: shard "
                            + shard
                            + " could not read log "
                            + i
                            + " ("
                            + Outside.quoted(path)
                            + "), so there is nothing to"
                            + " compare it with");
        }
        String here;
        try {
            here = Sha256.of(Path.of(path));
        } catch (IOException e) {
            throw new MergeRefused(
                    "--check: log "
                            + i
                            + " ("
                            + Outside.quoted(path)
                            + "): cannot read it here: "
                            + FileProblems.words(e));
        }
        if (!here.equals(recorded)) {
            throw new MergeRefused(
                    "--check: log "
                            + i
                            + " ("
                            + Outside.quoted(path)
                            + ") is not the log shard "
                            + shard
                            + " replayed (sha256 "
                            + recorded.substring(0, 12)
                            + "… in the shard, "
                            + here.substring(0, 12)
                            + "… here)");
        }
    }

    /** A file name as messages show it: escaped, since it comes from the command line. */
    private static String shown(Path file) {
        return Outside.bare(file.toString());
    }
}
