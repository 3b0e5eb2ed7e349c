package io.proofgate.replay;

import io.proofgate.words.Formats;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
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
        long written =
                line(
                        out,
                        new StringBuilder(
                                "{\"kind\":\"topology\",\"schema\":\""
                                        + Formats.EVENTS
                                        + "\",\"tp_degree\":2,"
                                        + "\"hash_block_size\":256,\"min_span_tokens\":1024,\"groups\":[{\"policy\":\"full\",\"block_tokens\":2304},"
                                        + "{\"policy\":\"recurrent_align\",\"block_tokens\":2304}]}"));
        StringBuilder text = new StringBuilder(1 << 16);
        while (written < bytes) {
            text.setLength(0);
            written += line(out, nextStep(text));
            for (Slot slot : slots) {
                // requests end after decoding, and now and then earlier (aborted or stopped while pending)
                if (slot.admitted && (slot.decodeLeft == 0 || random.nextInt(500) == 0)) {
                    text.setLength(0);
                    written += line(out, text.append("{\"kind\":\"finished\",\"id\":\"").append(slot.id).append("\"}"));
                    if (random.nextInt(4) == 0) {
                        text.setLength(0);
                        written +=
                                line(
                                        out,
                                        text.append("{\"kind\":\"held\",\"rank\":")
                                                .append(random.nextInt(2))
                                                .append(",\"digest\":\"")
                                                .append(slot.digest)
                                                .append("\"}"));
                    }
                    fresh(slot);
                }
            }
        }
        return written;
    }

    /** The scheduler output of one step as a JSON line (without the newline). */
    public StringBuilder nextStep(StringBuilder text) {
        step++;
        StringBuilder news = new StringBuilder();
        StringBuilder cached = new StringBuilder();
        StringBuilder preempted = new StringBuilder();
        StringBuilder evidence = new StringBuilder();
        for (Slot slot : slots) {
            if (slot.admitted && random.nextInt(100) == 0) {
                separate(preempted).append('"').append(slot.id).append('"');
                slot.resumeNext = true;
                slot.proofSent = false; // vLLM unpinned the proven block: a fresh proof follows the resume
                continue; // preempted requests are not scheduled in this step
            }
            long scheduled = slot.computed < slot.prompt ? Math.min(CHUNK, slot.prompt - slot.computed) : 1;
            long before = slot.computed;
            long after = before + scheduled;
            if (!slot.admitted) {
                separate(news)
                        .append("{\"id\":\"")
                        .append(slot.id)
                        .append("\",\"digest\":\"")
                        .append(slot.digest)
                        .append("\",\"prompt_tokens\":")
                        .append(slot.prompt)
                        .append(",\"computed\":0,\"scheduled\":")
                        .append(scheduled)
                        .append(",\"block_ids\":[[")
                        .append(slot.firstBlock)
                        .append("],[")
                        .append(slot.firstBlock + 500_000)
                        .append("]]}");
                slot.blocks = 1;
                slot.admitted = true;
            } else {
                separate(cached)
                        .append("{\"id\":\"")
                        .append(slot.id)
                        .append("\",\"computed\":")
                        .append(before)
                        .append(",\"scheduled\":")
                        .append(scheduled)
                        .append(",\"new_block_ids\":[[");
                int from = slot.resumeNext ? 0 : slot.blocks;
                if (before < slot.prompt) {
                    slot.blocks++;
                }
                for (int b = from; b < slot.blocks; b++) {
                    cached.append(b == from ? "" : ",").append(slot.firstBlock + b);
                }
                // a resumed request carries its whole table, the recurrent slot included
                cached.append("],[")
                        .append(slot.resumeNext ? String.valueOf(slot.firstBlock + 500_000) : "")
                        .append("]],\"resumed\":")
                        .append(slot.resumeNext)
                        .append('}');
                slot.resumeNext = false;
                if (after >= slot.prompt) {
                    slot.decodeLeft--;
                }
            }
            appendEvidence(evidence, slot, before, after);
            slot.computed = after;
        }
        text.append("{\"kind\":\"step\",\"step\":").append(step);
        if (!news.isEmpty()) {
            text.append(",\"new\":[").append(news).append(']');
        }
        if (!cached.isEmpty()) {
            text.append(",\"cached\":[").append(cached).append(']');
        }
        if (!preempted.isEmpty()) {
            text.append(",\"preempted\":[").append(preempted).append(']');
        }
        if (!evidence.isEmpty()) {
            text.append(",\"recurrent_boundary_blocks\":{").append(evidence).append('}');
        }
        return text.append('}');
    }

    private void appendEvidence(StringBuilder evidence, Slot slot, long before, long after) {
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
        if (entries != null) {
            separate(evidence).append('"').append(slot.id).append("\":").append(entries);
        }
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

    private static StringBuilder separate(StringBuilder list) {
        return list.isEmpty() ? list : list.append(',');
    }

    private static long line(OutputStream out, StringBuilder text) throws IOException {
        byte[] bytes = text.append('\n').toString().getBytes(StandardCharsets.UTF_8);
        out.write(bytes);
        return bytes.length;
    }
}
