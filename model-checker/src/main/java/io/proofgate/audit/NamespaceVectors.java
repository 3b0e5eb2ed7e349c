package io.proofgate.audit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import java.util.StringJoiner;

/**
 * Golden vectors of what decides what a published prefix is and where its pages come from, as
 * one revision's validator computes them: the span for a range of prompt lengths and hash block
 * sizes, and the plan's block selection for each group policy. The inputs are fixed here (the
 * same logs for every revision), the outputs are read from the validator's replay output, so
 * two revisions' vectors are comparable line by line; any difference is namespace impact.
 */
final class NamespaceVectors {

    /** One surface: its name and its vectors, each "input -> output". */
    record Surface(String name, List<String> vectors) {}

    private static final long[] HASH_BLOCKS = {1, 16, 256, 257, 4096};
    private static final long[] SPAN_PROMPTS = prompts();
    private static final long BLOCK_TOKENS = 2304;

    private NamespaceVectors() {}

    static List<Surface> of(RevisionValidator validator) {
        return List.of(span(validator), selection(validator), snapshot(validator));
    }

    /** Fixed plans of the snapshot surface: block ids by group over a three-group layout. */
    private static final long[][][] PLANS = {
        {{0}, {0}, {0}},
        {{1, 2, 3}, {7}, {4}},
        {{3, 2, 1}, {}, {9}},
        {{5, 6, 9, 10}, {11, 12}, {15}},
        {{15}, {14, 13}, {0, 15}},
    };

    /**
     * The snapshot byte layout: the revision's host page store (three groups of two layers of
     * 64-byte pages, 16 blocks each) filled with the same bytes at every revision (byte i of
     * group g, block b is {@code (g * 131 + b * 31 + i) mod 251}), then each fixed plan gathered
     * into a snapshot: its size and SHA-256. A store whose API the audit cannot drive gives one
     * vector saying so, which differs from any computed one (fail closed).
     */
    private static Surface snapshot(RevisionValidator validator) {
        List<String> vectors = new ArrayList<>();
        try {
            Class<?> layoutType = validator.type("io.proofgate.store.StoreLayout");
            Class<?> storeType = validator.type("io.proofgate.store.HostPageStore");
            Class<?> snapshotType = validator.type("io.proofgate.store.Snapshot");
            Object layout = layoutType.getMethod("uniform", int.class, int.class, long.class, long.class)
                    .invoke(null, 3, 2, 64L, 16L);
            try (AutoCloseable store = (AutoCloseable) storeType.getConstructor(layoutType).newInstance(layout);
                 java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
                var write = storeType.getMethod("write", int.class, long.class, java.lang.foreign.MemorySegment.class);
                for (int g = 0; g < 3; g++) {
                    for (long b = 0; b < 16; b++) {
                        java.lang.foreign.MemorySegment page = arena.allocate(128);
                        for (int i = 0; i < 128; i++) {
                            page.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) ((g * 131 + b * 31 + i) % 251));
                        }
                        write.invoke(store, g, b, page);
                    }
                }
                var bytesOf = layoutType.getMethod("snapshotBytes", long[][].class);
                var newSnapshot = storeType.getMethod("newSnapshot", long.class);
                var gather = storeType.getMethod("gather", long[][].class, snapshotType);
                var sha256 = storeType.getMethod("sha256", snapshotType);
                for (long[][] plan : PLANS) {
                    long bytes = (long) bytesOf.invoke(layout, (Object) plan);
                    Object snapshot = newSnapshot.invoke(store, bytes);
                    gather.invoke(store, plan, snapshot);
                    byte[] digest = (byte[]) sha256.invoke(store, snapshot);
                    vectors.add("plan " + java.util.Arrays.deepToString(plan) + " -> bytes=" + bytes + " sha256="
                            + java.util.HexFormat.of().formatHex(digest));
                }
            }
        } catch (java.lang.reflect.InvocationTargetException e) {
            vectors.add("the store refused a fixed plan: " + e.getCause());
        } catch (Exception e) {
            vectors.add("the store's API is not the one the audit drives (StoreLayout.uniform, HostPageStore write, "
                    + "newSnapshot, gather, sha256): " + e);
        }
        return new Surface("snapshot", vectors);
    }

    /**
     * The span rule: an attention-only topology (which publishes on the new request's step) with
     * no span bounds, one new request per step with the whole prompt scheduled.
     */
    private static Surface span(RevisionValidator validator) {
        List<String> vectors = new ArrayList<>();
        for (long hash : HASH_BLOCKS) {
            StringBuilder log = new StringBuilder(topology(hash, "[{\"policy\":\"full\",\"block_tokens\":" + BLOCK_TOKENS + "}]"));
            SequencedMap<String, String> inputs = new LinkedHashMap<>();
            int step = 0;
            for (long prompt : SPAN_PROMPTS) {
                step++;
                String id = "s" + step;
                inputs.put(id, "hash_block_size=" + hash + " prompt_tokens=" + prompt);
                log.append("{\"kind\":\"step\",\"step\":").append(step).append(",\"new\":[{\"id\":\"").append(id)
                        .append("\",\"digest\":\"d").append(step).append("\",\"prompt_tokens\":").append(prompt)
                        .append(",\"computed\":0,\"scheduled\":").append(prompt).append(",\"block_ids\":[")
                        .append(blocks(1, Math.ceilDiv(prompt, BLOCK_TOKENS) + 1)).append("]}]}\n");
            }
            // only the span: the blocks are plan selection's surface
            vectors.addAll(read(validator.replay(log.toString()), inputs, "span").stream()
                    .map(v -> v.replaceAll(" -> plan digest=\\S+ span=(\\d+) .*", " -> span=$1")).toList());
        }
        return new Surface("span", vectors);
    }

    /**
     * Plan block selection: full, sliding (several windows) and recurrent_align groups; each
     * request is admitted with its span scheduled, then proven with an exact-target entry for
     * the recurrent group naming a pinned block, and published on that cached step.
     */
    private static Surface selection(RevisionValidator validator) {
        List<String> vectors = new ArrayList<>();
        long[] windows = {1, 2304, 2305, 4608, 6912, 100000};
        long[] prompts = {1025, 2304, 2305, 4609, 6992, 8256, 13825};
        for (long window : windows) {
            String groups = "[{\"policy\":\"full\",\"block_tokens\":" + BLOCK_TOKENS + "},{\"policy\":\"sliding\",\"block_tokens\":"
                    + BLOCK_TOKENS + ",\"window_tokens\":" + window + "},{\"policy\":\"recurrent_align\",\"block_tokens\":"
                    + BLOCK_TOKENS + "}]";
            StringBuilder log = new StringBuilder(topology(256, groups));
            SequencedMap<String, String> inputs = new LinkedHashMap<>();
            int step = 0;
            for (long prompt : prompts) {
                long span = Math.floorDiv(prompt - 1, 256) * 256;
                long count = Math.ceilDiv(span, BLOCK_TOKENS);
                String id = "p" + (step / 2 + 1);
                inputs.put(id, "window_tokens=" + window + " prompt_tokens=" + prompt);
                long base = 1000L * (step / 2 + 1);
                step++;
                log.append("{\"kind\":\"step\",\"step\":").append(step).append(",\"new\":[{\"id\":\"").append(id)
                        .append("\",\"digest\":\"d").append(id).append("\",\"prompt_tokens\":").append(prompt)
                        .append(",\"computed\":0,\"scheduled\":").append(span).append(",\"block_ids\":[")
                        .append(blocks(base + 1, count)).append(',').append(blocks(base + 101, count)).append(',')
                        .append(blocks(base + 201, count)).append("]}]}\n");
                step++;
                log.append("{\"kind\":\"step\",\"step\":").append(step).append(",\"cached\":[{\"id\":\"").append(id)
                        .append("\",\"computed\":").append(span).append(",\"scheduled\":1,\"new_block_ids\":[[],[],[]],")
                        .append("\"resumed\":false}],\"recurrent_boundary_blocks\":{\"").append(id).append("\":[[2,")
                        .append(base + 500).append(',').append(span).append("]]}}\n");
            }
            vectors.addAll(read(validator.replay(log.toString()), inputs, "selection"));
        }
        return new Surface("plan_selection", vectors);
    }

    private static String topology(long hash, String groups) {
        return "{\"kind\":\"topology\",\"schema\":\"proofgate-events/v1\",\"tp_degree\":1,\"hash_block_size\":" + hash
                + ",\"min_span_tokens\":0,\"groups\":" + groups + "}\n";
    }

    private static String blocks(long first, long count) {
        StringJoiner ids = new StringJoiner(",", "[", "]");
        for (long i = 0; i < count; i++) {
            ids.add(Long.toString(first + i));
        }
        return ids.toString();
    }

    /** One vector per input: the verdicts the validator gave that request, or "no verdict". */
    private static List<String> read(String output, SequencedMap<String, String> inputs, String surface) {
        SequencedMap<String, StringJoiner> outputs = new LinkedHashMap<>();
        inputs.keySet().forEach(id -> outputs.put(id, new StringJoiner("; ")));
        List<String> words = ReplayWords.of(output);
        for (String line : words) {
            if (line.startsWith("error: ")) {
                return List.of(surface + ": the validator refused the vector log: " + line);
            }
            String[] parts = line.split(" ");
            if (parts.length > 2 && parts[0].startsWith("step=") && outputs.containsKey(parts[2])) {
                outputs.get(parts[2]).add(line.substring(line.indexOf(' ') + 1));
            }
        }
        List<String> vectors = new ArrayList<>();
        inputs.forEach((id, input) -> {
            String said = outputs.get(id).toString();
            vectors.add(input + " -> " + (said.isEmpty() ? "no verdict" : said.replace(" " + id + " ", " ")));
        });
        return vectors;
    }

    private static long[] prompts() {
        List<Long> prompts = new ArrayList<>();
        for (long p = 1; p <= 600; p++) {
            prompts.add(p);
        }
        for (long m : new long[] {1024, 2304, 4096, 6912, 8192, 65536, 1L << 20}) {
            for (long d = -2; d <= 2; d++) {
                prompts.add(m + d);
            }
        }
        return prompts.stream().distinct().mapToLong(Long::longValue).toArray();
    }
}
