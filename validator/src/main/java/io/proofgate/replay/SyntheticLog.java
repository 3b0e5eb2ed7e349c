package io.proofgate.replay;

import io.proofgate.words.EventObject;
import io.proofgate.words.Formats;
import io.proofgate.words.GroupPolicy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Writes a deterministic synthetic {@code proofgate-events/v1} log shaped like a busy scheduler: {@code batch} requests
 * scheduled per step in chunked prefill then decode, about 10% of scheduled requests carrying evidence (intermediate
 * checkpoints, aligned proofs in the target step, copy-on-write proofs one step later, and now and then conflicting,
 * future or malformed entries), about 1% preempted per step, two tensor-parallel ranks reporting held digests, and
 * finished requests replaced by new ones. The same seed gives the same bytes. Used for load tests ({@code proofgate
 * synth}) and benchmarks.
 */
public final class SyntheticLog {

    private static final int BLOCK = 2304;
    private static final int CHUNK = 2304;

    private final SplittableRandom random;
    private final int batch;
    private final Slot[] slots;
    private long nextRequest;
    private long step;

    /** One running request of the synthetic scheduler. */
    private static final class Slot {
        String id;
        String digest;
        long prompt;
        long target;
        long computed;
        int decodeLeft;
        boolean admitted;
        boolean resumeNext;
        boolean proofSent;
        long firstBlock;
        int blocks;
    }

    public SyntheticLog(long seed, int batch) {
        this.random = new SplittableRandom(seed);
        this.batch = batch;
        this.slots = new Slot[batch];
        for (int i = 0; i < batch; i++) {
            slots[i] = fresh(new Slot());
        }
    }

    /** Writes the topology line and then steps until at least {@code bytes} bytes were written. */
    public long write(OutputStream out, long bytes) throws IOException {
        EventObject full =
                EventObject.object().text("policy", GroupPolicy.FULL.wireName()).number("block_tokens", BLOCK);
        EventObject recurrent =
                EventObject.object()
                        .text("policy", GroupPolicy.RECURRENT_ALIGN.wireName())
                        .number("block_tokens", BLOCK);
        long written =
                line(
                        out,
                        EventObject.event("topology")
                                .text("schema", Formats.EVENTS)
                                .number("tp_degree", 2)
                                .number("hash_block_size", 256)
                                .number("min_span_tokens", 1024)
                                .objects("groups", List.of(full, recurrent)));
        while (written < bytes) {
            written += line(out, nextStep());
            for (Slot slot : slots) {
                // requests end after decoding, and now and then earlier (aborted or stopped while pending)
                if (slot.admitted && (slot.decodeLeft == 0 || random.nextInt(500) == 0)) {
                    written += line(out, EventObject.event("finished").text("id", slot.id));
                    if (random.nextInt(4) == 0) {
                        written +=
                                line(
                                        out,
                                        EventObject.event("held")
                                                .number("rank", random.nextInt(2))
                                                .text("digest", slot.digest));
                    }
                    fresh(slot);
                }
            }
        }
        return written;
    }

    /** The scheduler output of the next step. */
    private EventObject nextStep() {
        step++;
        List<EventObject> news = new ArrayList<>();
        List<EventObject> cached = new ArrayList<>();
        List<String> preempted = new ArrayList<>();
        Map<String, String> evidence = new LinkedHashMap<>();
        for (Slot slot : slots) {
            if (slot.admitted && random.nextInt(100) == 0) {
                preempted.add(slot.id);
                slot.resumeNext = true;
                slot.proofSent = false; // vLLM unpinned the proven block: a fresh proof follows the resume
                continue; // preempted requests are not scheduled in this step
            }
            long scheduled = slot.computed < slot.prompt ? Math.min(CHUNK, slot.prompt - slot.computed) : 1;
            long before = slot.computed;
            long after = before + scheduled;
            if (!slot.admitted) {
                news.add(
                        EventObject.object()
                                .text("id", slot.id)
                                .text("digest", slot.digest)
                                .number("prompt_tokens", slot.prompt)
                                .number("computed", 0)
                                .number("scheduled", scheduled)
                                .ids("block_ids", new long[][] {{slot.firstBlock}, {slot.firstBlock + 500_000}}));
                slot.blocks = 1;
                slot.admitted = true;
            } else {
                int from = slot.resumeNext ? 0 : slot.blocks;
                if (before < slot.prompt) {
                    slot.blocks++;
                }
                long[] added = new long[slot.blocks - from];
                for (int b = from; b < slot.blocks; b++) {
                    added[b - from] = slot.firstBlock + b;
                }
                // a resumed request carries its whole table, the recurrent slot included
                long[] state = slot.resumeNext ? new long[] {slot.firstBlock + 500_000} : new long[0];
                cached.add(
                        EventObject.object()
                                .text("id", slot.id)
                                .number("computed", before)
                                .number("scheduled", scheduled)
                                .ids("new_block_ids", new long[][] {added, state})
                                .flag("resumed", slot.resumeNext));
                slot.resumeNext = false;
                if (after >= slot.prompt) {
                    slot.decodeLeft--;
                }
            }
            String entries = evidence(slot, before, after);
            if (entries != null) {
                evidence.put(slot.id, entries);
            }
            slot.computed = after;
        }
        // empty lists are left out, as protocol §5 allows
        EventObject event = EventObject.event("step").number("step", step);
        if (!news.isEmpty()) {
            event.objects("new", news);
        }
        if (!cached.isEmpty()) {
            event.objects("cached", cached);
        }
        if (!preempted.isEmpty()) {
            event.texts("preempted", preempted);
        }
        if (!evidence.isEmpty()) {
            event.byId("recurrent_boundary_blocks", evidence);
        }
        return event;
    }

    /** The slot's evidence entries in this step, as JSON; null where it has none. */
    private String evidence(Slot slot, long before, long after) {
        boolean aligned = slot.target % BLOCK == 0;
        boolean reachesTarget = before < slot.target && after >= slot.target;
        // non-aligned targets get their copy-on-write block one step later; so does a resumed request
        boolean cowStep = before >= slot.target && !slot.proofSent;
        long block = 1_000_000 + slot.firstBlock;
        String entries = null;
        if ((aligned && reachesTarget) || cowStep) {
            slot.proofSent = true;
            int twist = random.nextInt(200);
            entries =
                    switch (twist) {
                        case 0 -> "[[1," + block + "," + (slot.target + 256) + "]]"; // future boundary
                        case 1 -> "[[1," + block + "]]"; // malformed entry
                        case 2 -> "[]"; // empty
                        default -> "[[1," + block + "," + slot.target + "]]"; // the proof
                    };
        } else if (before < slot.target && after % BLOCK == 0 && random.nextInt(16) == 0) {
            entries = "[[1," + block + "," + after + "]]"; // intermediate checkpoint
        } else if (slot.proofSent && random.nextInt(100) == 0) {
            entries =
                    random.nextInt(5) == 0
                            ? "[[1," + (block + 1) + "," + slot.target + "]]" // conflicting re-proof
                            : "[[1," + block + "," + (slot.target - BLOCK) + "]]"; // stale checkpoint
        }
        return entries;
    }

    private Slot fresh(Slot slot) {
        slot.id = "req-" + nextRequest++;
        // most prompts are new; one in ten shares one of 64 popular prefixes, which quorum then skips
        slot.digest = random.nextInt(10) == 0 ? "popular-" + random.nextInt(64) : "prefix-" + nextRequest;
        slot.prompt = 1200 + random.nextInt(20_000);
        slot.target = Math.floorDiv(slot.prompt - 1, 256) * 256;
        slot.computed = 0;
        slot.decodeLeft = 2 + random.nextInt(8);
        slot.admitted = false;
        slot.resumeNext = false;
        slot.proofSent = false;
        slot.firstBlock = 1 + (nextRequest % 4096) * 64;
        slot.blocks = 0;
        return slot;
    }

    private static long line(OutputStream out, EventObject event) throws IOException {
        byte[] bytes = (event + "\n").getBytes(StandardCharsets.UTF_8);
        out.write(bytes);
        return bytes.length;
    }
}
