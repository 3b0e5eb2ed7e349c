package io.proofgate.benchmarks;

import io.proofgate.protocol.Connector;
import io.proofgate.replay.Replay;
import io.proofgate.words.Formats;

import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The heap one pending request holds: a log that admits N requests which all stay pending (a full and a recurrent_align
 * group, 2304-token blocks; then K cached steps of one block per group each, so tables of 1 + K blocks per group),
 * replayed; the retained heap with the connector alive, less the same with N = 0, over N. A measurement, not a
 * throughput claim. Run: {@code java -cp benchmarks/target/benchmarks.jar io.proofgate.benchmarks.PendingMemory}.
 */
public final class PendingMemory {

    private PendingMemory() {}

    static String log(int requests, int cachedSteps, boolean evidence) {
        StringBuilder log =
                new StringBuilder(
                        "{\"kind\":\"topology\",\"schema\":\""
                                + Formats.EVENTS
                                + "\",\"groups\":[{\"policy\":\"full\",\"block_tokens\":2304},{\"policy\":\"recurrent_align\",\"block_tokens\":2304}]}\n");
        log.append("{\"kind\":\"step\",\"step\":1,\"new\":[");
        for (int i = 0; i < requests; i++) {
            log.append(i == 0 ? "" : ",")
                    .append("{\"id\":\"req-")
                    .append(i)
                    .append("\",\"digest\":\"digest-")
                    .append(i)
                    .append("\",\"prompt_tokens\":100000,\"computed\":0,\"scheduled\":2304,\"block_ids\":[[")
                    .append(1 + 4 * i)
                    .append("],[")
                    .append(2 + 4 * i)
                    .append("]]}");
        }
        log.append("]");
        if (evidence) {
            log.append(",\"recurrent_boundary_blocks\":{");
            for (int i = 0; i < requests; i++) {
                log.append(i == 0 ? "" : ",")
                        .append("\"req-")
                        .append(i)
                        .append("\":[[1,")
                        .append(3 + 4 * i)
                        .append(",99840]]");
            }
            log.append("}");
        }
        log.append("}\n");
        for (int k = 0; k < cachedSteps; k++) {
            log.append("{\"kind\":\"step\",\"step\":").append(2 + k).append(",\"cached\":[");
            for (int i = 0; i < requests; i++) {
                long done = 2304L * (k + 1);
                log.append(i == 0 ? "" : ",")
                        .append("{\"id\":\"req-")
                        .append(i)
                        .append("\",\"computed\":")
                        .append(done)
                        .append(",\"scheduled\":2304,\"new_block_ids\":[[")
                        .append(1_000_000 + 4L * (i + k * requests))
                        .append("],[")
                        .append(2_000_000 + 4L * (i + k * requests))
                        .append("]],\"resumed\":false}");
            }
            log.append("]}\n");
        }
        return log.toString();
    }

    static long retained(int requests, int cachedSteps, boolean evidence) throws Exception {
        byte[] bytes = log(requests, cachedSteps, evidence).getBytes(StandardCharsets.UTF_8);
        Connector connector = Replay.run(new ByteArrayInputStream(bytes), "memory", OutputStream.nullOutputStream());
        bytes = null;
        long used = used();
        if (connector.state().pending().size() != requests) {
            throw new IllegalStateException("expected every request pending");
        }
        return used;
    }

    private static long used() throws InterruptedException {
        Runtime runtime = Runtime.getRuntime();
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(50);
            best = Math.min(best, runtime.totalMemory() - runtime.freeMemory());
        }
        return best;
    }

    public static void main(String[] args) throws Exception {
        int n = 200_000;
        for (int steps : new int[] {0, 3, 10}) {
            for (boolean evidence : new boolean[] {false, true}) {
                long empty = retained(0, steps, evidence);
                long full = retained(n, steps, evidence);
                System.out.printf(
                        "tables of %2d blocks per group, %s: %,d bytes per pending request%n",
                        1 + steps, evidence ? "latched" : "no latch", (full - empty) / n);
            }
        }
    }
}
