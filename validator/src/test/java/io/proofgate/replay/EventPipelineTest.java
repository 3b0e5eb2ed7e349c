package io.proofgate.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A log cut into pieces and parsed side by side reads as one reader from the start reads it: the same verdicts for a
 * valid log, the same error at the same place for an invalid one, whatever the pieces' size, with lines longer than a
 * piece, and with lines too long to be parsed alone.
 */
class EventPipelineTest {

    /** Piece sizes from one byte (every line a piece of its own) to several lines a piece. */
    private static final int[] PIECES = {1, 2, 3, 5, 8, 13, 40, 97, 256, 1000};

    @Test
    void aValidLogGivesTheSameVerdictsWhateverItsPieces() throws Exception {
        List<byte[]> logs = new ArrayList<>(validLogs());
        ByteArrayOutputStream synthetic = new ByteArrayOutputStream();
        new SyntheticLog(5, 16).write(synthetic, 200_000);
        logs.add(synthetic.toByteArray());
        for (byte[] log : logs) {
            Outcome whole = replay(log, oneReader(log));
            assertNull(whole.error, whole.error);
            for (int piece : PIECES) {
                for (int maxPiece : new int[] {piece, 4 * piece, 1 << 20}) {
                    for (int parsers : new int[] {1, 3}) {
                        // bytes held: plenty, or so few that a piece waits for the one before to be taken
                        for (int budget : new int[] {1 << 20, 2 * piece}) {
                            Outcome pieces =
                                    replay(log, new EventPipeline.Settings(piece, maxPiece, parsers, 2, budget));
                            assertEquals(
                                    whole,
                                    pieces,
                                    "piece "
                                            + piece
                                            + ", at most "
                                            + maxPiece
                                            + ", "
                                            + parsers
                                            + " parsers, "
                                            + budget
                                            + " bytes held");
                        }
                    }
                }
            }
        }
    }

    @Test
    void anInvalidLogFailsWithTheSameErrorWhateverItsPieces() throws Exception {
        List<byte[]> logs = new ArrayList<>();
        for (byte[] log : invalidLogs()) {
            logs.add(log);
            logs.add(padded(log, 7)); // the error further down, after pieces that parse
        }
        byte[] valid = validLogs().getFirst();
        // a byte-order mark or a zero byte starting a later line: one reader refuses them there
        logs.add(withLine(valid, "\uFEFF{\"kind\":\"finished\",\"id\":\"x\"}\n"));
        logs.add(withLine(valid, "\0\0\0{\"kind\":\"finished\",\"id\":\"x\"}\n"));
        // a line ended inside an object, a string and a multi-byte character
        logs.add(withLine(valid, "{\"kind\":\"finished\",\n\"id\":\"x\"}\n"));
        logs.add(withLine(valid, "{\"kind\":\"finished\",\"id\":\"x\n\"}\n"));
        logs.add(
                concat(
                        withLine(valid, "{\"kind\":\"finished\",\"id\":\"x"),
                        new byte[] {(byte) 0xC3, '\n', '"', '}', '\n'}));
        logs.add(
                padded(
                        concat(valid, "{\"kind\":\"finished\"".getBytes(StandardCharsets.UTF_8)),
                        3)); // the end inside an object
        // a '\r' not followed by '\n' ends a line for the parser: the lines after it count it
        logs.add(
                padded(
                        withLine(
                                withLine(
                                        valid,
                                        "{\"kind\":\"finished\",\"id\":\"x\"} \r {\"kind\":\"finished\",\"id\":\"y\"}\n"
                                                + "\n".repeat(40)),
                                "{\"kind\":\"step\",\"step\":1}\n"),
                        5));
        // two errors in one read of the parser: the first in the log is reported, however the reads fall
        logs.add(
                withLine(
                        valid,
                        "{\"kind\":\"bogus\"}\n{\"kind\":\"finished\",\"id\":\"\u00ff\"}\n"
                                .replace("\u00ff", "\u0000")));
        logs.add(
                concat(
                        withLine(valid, "{\"kind\":\"bogus\"}\n{\"kind\":\"finished\",\"id\":\""),
                        new byte[] {(byte) 0xC0, (byte) 0xAF, '"', '}', '\n'}));
        for (byte[] log : logs) {
            Outcome whole = replay(log, oneReader(log));
            assertTrue(whole.error != null, () -> new String(log, StandardCharsets.UTF_8));
            for (int piece : PIECES) {
                for (int maxPiece : new int[] {piece, 1 << 20}) {
                    Outcome pieces = replay(log, new EventPipeline.Settings(piece, maxPiece, 2, 2, 1 << 20));
                    String where =
                            "piece " + piece + ", at most " + maxPiece + ": " + new String(log, StandardCharsets.UTF_8);
                    assertEquals(whole.error, pieces.error, where);
                    assertEquals(whole.output, pieces.output, where);
                }
            }
        }
    }

    @Test
    void piecesAreParsedOnTheirOwnAndNotReadAgain() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        new SyntheticLog(3, 16).write(log, 100_000);
        byte[] bytes = log.toByteArray();
        List<Long> lines = new ArrayList<>();
        int parsed;
        try (EventPipeline pipeline =
                EventPipeline.open(
                        new ByteArrayInputStream(bytes),
                        "log",
                        new EventPipeline.Settings(4096, 1 << 20, 2, 2, 1 << 20))) {
            ReplayLine line;
            while ((line = pipeline.next()) != null) {
                lines.add(line.line());
            }
            parsed = pipeline.piecesParsed();
        }
        assertTrue(parsed >= bytes.length / 4096 - 1, parsed + " pieces parsed of about " + bytes.length / 4096);
        List<Long> expected = new ArrayList<>();
        try (EventReader reader = new EventReader(new ByteArrayInputStream(bytes), "log")) {
            reader.readTopology();
            ReplayLine line;
            while ((line = reader.next()) != null) {
                expected.add(line.line());
            }
        }
        assertEquals(expected, lines);
    }

    @Test
    void aLogOfOnePieceStartsNoThread() throws Exception {
        byte[] log = validLogs().getFirst();
        // threads of earlier tests' pipelines may still be ending: only new ones count
        Set<Thread> before = replayThreads();
        try (EventPipeline pipeline = EventPipeline.open(new ByteArrayInputStream(log), "log")) {
            while (pipeline.next() != null) {
                Set<Thread> started = replayThreads();
                started.removeAll(before);
                assertEquals(Set.of(), started, "no thread for a log of one piece");
            }
            assertEquals(0, pipeline.piecesParsed());
        }
    }

    private static Set<Thread> replayThreads() {
        Set<Thread> threads = new HashSet<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().startsWith("proofgate-replay")) {
                threads.add(thread);
            }
        }
        return threads;
    }

    @Test
    void aFailureToReadTheLogReachesTheCaller() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        new SyntheticLog(3, 16).write(log, 50_000);
        InputStream failing =
                new SequenceInputStream(
                        new ByteArrayInputStream(log.toByteArray()),
                        new InputStream() {
                            @Override
                            public int read() throws IOException {
                                throw new IOException("disk gone");
                            }
                        });
        IOException e =
                assertThrows(
                        IOException.class,
                        () ->
                                Replay.run(
                                        failing,
                                        "log",
                                        OutputStream.nullOutputStream(),
                                        topology -> Replay.Observer.NONE,
                                        new EventPipeline.Settings(1000, 1 << 20, 2, 2, 1 << 20)));
        assertEquals("disk gone", e.getMessage());
    }

    /**
     * Stands in for a cutting thread that dies while handing over its own failure (out of memory again while allocating
     * the hand-over): nothing more reaches the queue. Without the watch on the thread, next() waits for ever and this
     * test times out.
     */
    @Test
    void aCuttingThreadThatDiesWithoutAWordEndsTheReplayInsteadOfHangingIt() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        new SyntheticLog(3, 16).write(log, 20_000);
        byte[] bytes = log.toByteArray();
        InputStream dying =
                new InputStream() {
                    private int at;

                    @Override
                    public int read() {
                        throw new AssertionError("read in blocks");
                    }

                    @Override
                    public int read(byte[] buffer, int from, int length) {
                        if (at >= 10_000) {
                            throw EventPipelineTest.<RuntimeException>sneaky(
                                    new Exception("escapes every catch of the cutter"));
                        }
                        int n = Math.min(length, 10_000 - at);
                        System.arraycopy(bytes, at, buffer, from, n);
                        at += n;
                        return n;
                    }
                };
        // a guard against the hang this test exists for: seconds here would be a bet on the machine
        assertTimeoutPreemptively(
                Duration.ofMinutes(5),
                () -> {
                    try (EventPipeline pipeline =
                            EventPipeline.open(
                                    dying, "log", new EventPipeline.Settings(4096, 1 << 20, 2, 2, 1 << 20))) {
                        OutOfMemoryError e =
                                assertThrows(
                                        OutOfMemoryError.class,
                                        () -> {
                                            while (pipeline.next() != null) {
                                                // the lines of the first piece, then the dead thread
                                            }
                                        });
                        assertEquals("the log reader stopped without handing over its failure", e.getMessage());
                    }
                });
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T sneaky(Throwable t) throws T {
        throw (T) t;
    }

    /** The verdicts written, and the error's message if the replay failed. */
    private record Outcome(String output, String error) {
        @Override
        public String toString() {
            return (error == null ? "no error" : error) + "\n" + output;
        }
    }

    private static Outcome replay(byte[] log, EventPipeline.Settings settings) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String error = null;
        try {
            Replay.run(new ByteArrayInputStream(log), "log", out, topology -> Replay.Observer.NONE, settings);
        } catch (ReplayException e) {
            error = e.getMessage();
        }
        return new Outcome(out.toString(StandardCharsets.UTF_8), error);
    }

    /** Settings under which the whole log is one piece: one reader, no threads. */
    private static EventPipeline.Settings oneReader(byte[] log) {
        return new EventPipeline.Settings(log.length + 1, log.length + 1, 1, 1, 1 << 20);
    }

    private static List<byte[]> validLogs() throws IOException, URISyntaxException {
        return logs("/scenarios", 3);
    }

    private static List<byte[]> invalidLogs() throws IOException, URISyntaxException {
        return logs("/invalid", 30);
    }

    /** The {@code .jsonl} logs under a folder of the test resources, in path order; at least {@code atLeast}. */
    private static List<byte[]> logs(String folder, int atLeast) throws IOException, URISyntaxException {
        Path root = Path.of(EventPipelineTest.class.getResource(folder).toURI());
        try (Stream<Path> files = Files.walk(root)) {
            List<byte[]> logs = new ArrayList<>();
            for (Path file : files.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList()) {
                logs.add(Files.readAllBytes(file));
            }
            assertTrue(logs.size() >= atLeast, "the logs of src/test/resources" + folder);
            return logs;
        }
    }

    /** The log with {@code blanks} blank lines after its first line (lines between objects may be blank). */
    private static byte[] padded(byte[] log, int blanks) {
        int end = 0;
        while (end < log.length && log[end] != '\n') {
            end++;
        }
        if (end == log.length) {
            return log;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(log, 0, end + 1);
        for (int i = 0; i < blanks; i++) {
            out.write(i % 2 == 0 ? '\n' : ' ');
            if (i % 2 == 1) {
                out.write('\n');
            }
        }
        out.write(log, end + 1, log.length - end - 1);
        return out.toByteArray();
    }

    private static byte[] withLine(byte[] log, String line) {
        return concat(log, line.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = new byte[a.length + b.length];
        System.arraycopy(a, 0, both, 0, a.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}
