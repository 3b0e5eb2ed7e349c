package io.proofgate.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Replay streams: a child JVM with a 24 MiB heap replays a 96 MiB synthetic log (about four times its heap) generated
 * on the fly. If replay buffered the log or its verdicts, it would die with OutOfMemoryError. The 1 GiB run under
 * -Xmx256m is in docs/performance.md.
 */
class BoundedMemoryTest {

    /** Child process entry point: generate {@code args[0]} MiB into a pipe and replay it. */
    public static void main(String[] args) throws Exception {
        long bytes = Long.parseLong(args[0]) << 20;
        PipedOutputStream producer = new PipedOutputStream();
        PipedInputStream consumer = new PipedInputStream(producer, 1 << 16);
        Thread writer =
                new Thread(
                        () -> {
                            try (producer) {
                                new SyntheticLog(7, 256).write(producer, bytes);
                            } catch (IOException e) {
                                throw new IllegalStateException(e);
                            }
                        });
        writer.start();
        var connector = Replay.run(consumer, "<pipe>", OutputStream.nullOutputStream());
        writer.join();
        System.out.println("plans=" + connector.counters().plans());
    }

    @Test
    void replayOfALogFourTimesTheHeapCompletes() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child =
                new ProcessBuilder(
                                List.of(
                                        java,
                                        "-Xmx24m",
                                        "-XX:+UseSerialGC",
                                        "-cp",
                                        System.getProperty("java.class.path"),
                                        BoundedMemoryTest.class.getName(),
                                        "96"))
                        .redirectErrorStream(true)
                        .start();
        boolean done = child.waitFor(120, TimeUnit.SECONDS);
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!done) {
            child.destroyForcibly();
        }
        assertTrue(done, "the child did not finish in 120 s");
        assertEquals(0, child.exitValue(), output);
        assertTrue(output.matches("(?s)plans=[1-9][0-9]{4,}\\s*"), output);
    }
}
