package io.proofgate.benchmarks;

import io.proofgate.protocol.Connector;
import io.proofgate.replay.Replay;
import io.proofgate.words.EventObject;
import io.proofgate.words.Formats;
import io.proofgate.words.GroupPolicy;

import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The heap one pending request holds: a log that admits N requests which all stay pending (a full and a recurrent_align
 * group, 2304-token blocks; then K cached steps of one block per group each, so tables of 1 + K blocks per group),
 * replayed; the retained heap with the connector alive, less the same with N = 0, over N. A measurement, not a
 * throughput claim. Run: {@code java -cp benchmarks/target/benchmarks.jar io.proofgate.benchmarks.PendingMemory}.
 */
public final class PendingMemory {

    private PendingMemory() {}

    static String log(int requests, int cachedSteps, boolean evidence) {
        List<EventObject> groups =
                List.of(
                        EventObject.object().text("policy", GroupPolicy.FULL.wireName()).number("block_tokens", 2304),
                        EventObject.object()
                                .text("policy", GroupPolicy.RECURRENT_ALIGN.wireName())
                                .number("block_tokens", 2304));
        StringBuilder log = new StringBuilder();
        log.append(EventObject.event("topology").text("schema", Formats.EVENTS).objects("groups", groups)).append('\n');
        List<EventObject> news = new ArrayList<>();
        Map<String, String> proofs = new LinkedHashMap<>();
        for (int i = 0; i < requests; i++) {
            news.add(
                    EventObject.object()
                            .text("id", "req-" + i)
                            .text("digest", "digest-" + i)
                            .number("prompt_tokens", 100_000)
                            .number("computed", 0)
                            .number("scheduled", 2304)
                            .ids("block_ids", new long[][] {{1 + 4 * i}, {2 + 4 * i}}));
            proofs.put("req-" + i, "[[1," + (3 + 4 * i) + ",99840]]");
        }
        EventObject first = EventObject.event("step").number("step", 1).objects("new", news);
        log.append(evidence ? first.byId("recurrent_boundary_blocks", proofs) : first).append('\n');
        for (int k = 0; k < cachedSteps; k++) {
            List<EventObject> cached = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                long next = 4L * (i + k * requests);
                cached.add(
                        EventObject.object()
                                .text("id", "req-" + i)
                                .number("computed", 2304L * (k + 1))
                                .number("scheduled", 2304)
                                .ids("new_block_ids", new long[][] {{1_000_000 + next}, {2_000_000 + next}})
                                .flag("resumed", false));
            }
            log.append(EventObject.event("step").number("step", 2 + k).objects("cached", cached)).append('\n');
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
