package io.proofgate.conform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The pipe's edges: lines cut across reads and many lines in one read reach the kit whole and in order, and what is not
 * a line (too long, not UTF-8, cut off at the end) is refused after every line before it was given.
 */
class ProcessAdapterTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @TempDir Path directory;

    private AdapterException linesBeforeTheError(String command, List<String> lines) throws AdapterException {
        try (ProcessAdapter adapter = new ProcessAdapter(command, directory)) {
            List<String> got = new ArrayList<>();
            AdapterException error =
                    assertThrows(
                            AdapterException.class,
                            () -> {
                                while (true) {
                                    String line = adapter.receive(PATIENCE);
                                    if (line == null) {
                                        throw new AssertionError("no error within the patience");
                                    }
                                    got.add(line);
                                }
                            });
            assertEquals(lines, got);
            return error;
        }
    }

    @Test
    void aBatchOfMessagesArrivesWholeAndInOrder() throws AdapterException {
        try (ProcessAdapter adapter = new ProcessAdapter("cat", directory)) {
            List<String> sent = new ArrayList<>();
            for (int i = 0; i < 5000; i++) {
                sent.add("{\"kind\":\"m\",\"n\":" + i + ",\"text\":\"é" + "x".repeat(i % 97) + "\"}");
            }
            adapter.send(sent.subList(0, 2500));
            adapter.send("one alone");
            adapter.send(sent.subList(2500, 5000));
            List<String> got = new ArrayList<>();
            for (int i = 0; i < 5001; i++) {
                got.add(adapter.receive(PATIENCE));
            }
            List<String> expected = new ArrayList<>(sent.subList(0, 2500));
            expected.add("one alone");
            expected.addAll(sent.subList(2500, 5000));
            assertEquals(expected, got);
            assertNull(adapter.leftover(Duration.ofSeconds(5)));
        }
    }

    @Test
    void aLineCutAcrossWritesIsOneLineAndACarriageReturnIsNotPartOfIt() throws AdapterException {
        AdapterException e =
                linesBeforeTheError(
                        "printf 'ab'; sleep 0.2; printf 'cd\\r\\nef\\n\\n'; sleep 0.2; printf 'g'",
                        List.of("abcd", "ef", ""));
        assertTrue(e.getMessage().startsWith("ended its output in the middle of a line: "), e.getMessage());
    }

    @Test
    void aLineOfOneMebibyteIsALineAndOneByteMoreIsRefused() throws AdapterException {
        String mebibyte = "head -c 1048576 /dev/zero | tr '\\0' x";
        try (ProcessAdapter adapter = new ProcessAdapter("echo first; " + mebibyte + "; echo; echo last", directory)) {
            assertEquals("first", adapter.receive(PATIENCE));
            assertEquals(1 << 20, adapter.receive(PATIENCE).length());
            assertEquals("last", adapter.receive(PATIENCE));
        }
        AdapterException e = linesBeforeTheError("echo first; " + mebibyte + "; echo y; echo never", List.of("first"));
        assertEquals("printed a line longer than 1 MiB", e.getMessage());
    }

    @Test
    void aLineThatIsNotUtf8IsRefusedAfterTheLinesBeforeItInTheSameRead() throws AdapterException {
        AdapterException e = linesBeforeTheError("printf 'one\\ntwo\\n\\377\\nthree\\n'", List.of("one", "two"));
        assertTrue(e.getMessage().startsWith("printed a line that is not UTF-8: "), e.getMessage());
    }
}
