package io.proofgate.replay;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.proofgate.json.JsonWords;
import io.proofgate.words.FileProblems;
import io.proofgate.words.Outside;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Fuzzing of {@code proofgate merge-replay}'s reader of replay shards (Jazzer), which reads files from other machines:
 * the whole file (its header first), and the result lines after a well-formed header. Any bytes merge, with the logs'
 * error messages escaped, or are refused in words fit for a terminal (no control character, none of the JSON parser's
 * words); nothing else escapes. The reader of its lines alone, too.
 */
class ReplayShardFuzzTest {

    private static final Path FILE;
    static final String HEADER =
            "{\"kind\":\"shard\",\"schema\":\"proofgate-replay-shard/v2\",\"shard\":0,\"of\":1,"
                    + "\"files\":[\"a.jsonl\",\"b.jsonl\"],\"sha256\":[[0,null],[1,null]]}\n";

    static {
        try {
            FILE = Files.createTempFile("replay-shard-fuzz", ".jsonl");
            FILE.toFile().deleteOnExit();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void merge(byte[] file) throws IOException {
        Files.write(FILE, file);
        try {
            List<String> errors =
                    ReplayMerge.merge(List.of(FILE), new ByteArrayOutputStream(), Optional.empty(), false);
            // a shard carries the messages of the run that wrote it (of any version): escaped, not reworded
            errors.forEach(error -> assertTrue(Outside.isPlain(error), Outside.quoted(error)));
        } catch (MergeRefused e) {
            assertTrue(JsonWords.fitForATerminal(e.getMessage()), Outside.quoted(e.getMessage()));
        } catch (IOException e) {
            String words = FileProblems.words(e);
            assertTrue(JsonWords.fitForATerminal(words) && !words.contains("Input length"), Outside.quoted(words));
        }
    }

    @FuzzTest(maxDuration = "10s")
    void anyShardFileMergesOrIsRefusedInWords(byte[] bytes) throws IOException {
        merge(bytes);
    }

    /**
     * The one reader of replay's output lines: any line is read, or refused with its reason and a place in the line;
     * nothing else escapes it. A line that reads and is as replay writes it reads back to the same line.
     */
    @FuzzTest(maxDuration = "10s")
    void anyLineIsReadOrRefusedAtAPlace(byte[] bytes) {
        String line = new String(bytes, StandardCharsets.UTF_8);
        try {
            OutputLine read = OutputLine.read(line);
            String written = read.written();
            if (written.equals(line)) {
                assertTrue(OutputLine.read(written).equals(read), written);
            }
        } catch (OutputLine.Unreadable e) {
            assertTrue(e.key() != null || e.column() >= 1, e.getMessage());
            assertTrue(JsonWords.fitForATerminal(e.getMessage()), Outside.quoted(e.getMessage()));
        }
    }

    @FuzzTest(maxDuration = "10s")
    void anyResultLinesMergeOrAreRefusedInWords(byte[] bytes) throws IOException {
        byte[] header = HEADER.getBytes(StandardCharsets.UTF_8);
        byte[] end = "\n{\"kind\":\"end\"}\n".getBytes(StandardCharsets.UTF_8);
        byte[] file = new byte[header.length + bytes.length + end.length];
        System.arraycopy(header, 0, file, 0, header.length);
        System.arraycopy(bytes, 0, file, header.length, bytes.length);
        System.arraycopy(end, 0, file, header.length + bytes.length, end.length);
        merge(file);
    }
}
