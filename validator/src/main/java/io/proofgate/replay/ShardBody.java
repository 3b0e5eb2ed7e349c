package io.proofgate.replay;

import com.fasterxml.jackson.databind.JsonNode;

import io.proofgate.json.JsonPlaces;
import io.proofgate.protocol.Counters;
import io.proofgate.protocol.Verdict;
import io.proofgate.words.Counter;
import io.proofgate.words.Outside;
import io.proofgate.words.RetireCause;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The lines of a replay shard after its header, checked before a merge prints any of them: for each log of the shard's
 * share, in order, its {@code log} line, then the verdict lines one replay of it prints, ending with its summary or its
 * {@code error} line; then the end line. Each line must be one a replay writes, key for key and byte for byte, and a
 * summary's counts must be those of the verdict lines above it. Without a key a shard is not signed, and this is what
 * stops an edit that would read as another outcome: a deleted error line (a failing log merged as a pass), a deleted
 * plan, rejection or retirement of a finished request, a summary that is not the log's. A retirement at full quorum is
 * counted with the requests skipped at admission, so its deletion is not seen; nor is a line rewritten into another
 * line of the right form with the counts kept (an error line made a summary of the lines above it): that takes the
 * key's HMAC.
 */
final class ShardBody {

    private final String shown;
    private final BufferedReader in;
    private int number; // of the line read last

    private ShardBody(Path file, BufferedReader in) {
        this.shown = Outside.bare(file.toString());
        this.in = in;
    }

    /** Checks every line of {@code file} after its header, which is {@code header}. */
    static void check(Path file, ShardHeader header) throws IOException, MergeRefused {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            ShardBody body = new ShardBody(file, in);
            body.next(); // the header, read already
            for (int i = header.shard(); i < header.logs().size(); i += header.count()) {
                body.log(i, header.logs().get(i));
            }
            String end = body.next();
            if (end == null || !ReplayShard.isEnd(end) || body.next() != null) {
                throw body.refused(
                        1, "the output of its logs ends here, and its end line (the file's last line) does not follow");
            }
        }
    }

    private String next() throws IOException {
        String line = in.readLine();
        number += line == null ? 0 : 1;
        return line;
    }

    /** The output of log {@code index}: its log line, its verdicts, its summary or error. */
    private void log(int index, String path) throws IOException, MergeRefused {
        String expected = ReplayShard.logLine(index, path);
        String line = next();
        if (!expected.equals(line)) {
            throw refused(
                    1,
                    "expected "
                            + Outside.excerpt(expected)
                            + ", the start of the output of log "
                            + index
                            + " of its share"
                            + (line == null ? "; the file ends" : ""));
        }
        long plans = 0;
        long rejected = 0;
        long finished = 0;
        long quorum = 0;
        while (true) {
            line = next();
            if (line == null) {
                throw refused(1, "the file ends inside the output of log " + index + " (no summary or error line)");
            }
            if (line.startsWith("{\"kind\":\"log\"")) {
                throw refused(1, "the output of log " + index + " ends without its summary or error line");
            }
            OutputLine read = read(line);
            switch (read) {
                case OutputLine.Said(Verdict.Plan plan) -> plans++;
                case OutputLine.Said(Verdict.Rejected rejection) -> rejected++;
                case OutputLine.Said(Verdict.Retired retired) -> {
                    finished += retired.cause() == RetireCause.FINISHED ? 1 : 0;
                    quorum += retired.cause() == RetireCause.QUORUM ? 1 : 0;
                }
                case OutputLine.Said(Verdict.Hit hit) -> {} // the summary does not count hits and loads
                case OutputLine.Said(Verdict.Load load) -> {}
                case OutputLine.Error error -> {
                    if (error.message().isEmpty()) {
                        throw refused(line, "message", "an error line without a message");
                    }
                    return;
                }
                case OutputLine.Summary summary -> { // its counts must be those of the lines above it
                    Counters counters = summary.counters();
                    counted(line, Counter.PLANS, counters.plans(), plans, "plan lines");
                    counted(line, Counter.REJECTED, counters.rejected(), rejected, "rejected lines");
                    counted(
                            line,
                            Counter.RETIRED_FINISHED,
                            counters.retiredFinished(),
                            finished,
                            "lines that retire a finished request");
                    if (counters.storeSkippedQuorum() < quorum) {
                        throw refused(
                                line,
                                Counter.STORE_SKIPPED_QUORUM.wireName(),
                                "fewer than the "
                                        + quorum
                                        + " lines above it that retire a request at full quorum: not this log's"
                                        + " summary");
                    }
                    return;
                }
            }
        }
    }

    private void counted(String line, Counter key, long said, long lines, String what) throws MergeRefused {
        if (said != lines) {
            throw refused(
                    line,
                    key.wireName(),
                    "the summary counts "
                            + said
                            + " where the log's output has "
                            + lines
                            + " "
                            + what
                            + ": not this log's summary, or lines were removed");
        }
    }

    /** A line of the log's output, read and written again: it must be as a replay writes it, byte for byte. */
    private OutputLine read(String line) throws MergeRefused {
        OutputLine read;
        try {
            read = OutputLine.read(line);
        } catch (OutputLine.Unreadable e) {
            throw e.key() == null ? refused(e.column(), e.getMessage()) : refused(line, e.key(), e.getMessage());
        }
        if (!read.written().equals(line)) {
            throw refused(
                    1, "not written as a replay writes it (spaces, another order or form of a key, number or string)");
        }
        return read;
    }

    /** At the value of {@code key} in the line, which was read as JSON before. */
    private MergeRefused refused(String line, String key, String problem) {
        JsonNode root;
        try {
            root = OutputLine.tree(line);
        } catch (OutputLine.Unreadable e) {
            throw new IllegalStateException("a line is refused at a key only once it has read", e);
        }
        return at(JsonPlaces.of(line, root).value(root, key).replaceFirst("^1:", ""), problem);
    }

    private MergeRefused refused(int column, String problem) {
        return at(String.valueOf(column), problem);
    }

    /** {@code problem} at {@code column} of the line read last. */
    private MergeRefused at(String column, String problem) {
        return new MergeRefused(shown + ":" + number + ":" + column + ": " + problem);
    }
}
