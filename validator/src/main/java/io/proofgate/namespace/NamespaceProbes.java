package io.proofgate.namespace;

import io.proofgate.words.EventObject;
import io.proofgate.words.Formats;
import io.proofgate.words.GroupPolicy;

import java.util.ArrayList;
import java.util.List;

/**
 * The probe set {@link io.proofgate.words.Formats#NAMESPACE}, in its order (docs/conformance.md, "Namespace probes"):
 * the target rule across hash block sizes and prompt lengths, plan block selection across sliding windows, five fixed
 * snapshot plans, and one prompt under each identity field changed. Fixed: an audit compares two revisions' answers
 * probe by probe.
 */
public final class NamespaceProbes {

    static final long BLOCK_TOKENS = 2304;
    private static final NamespaceProbe.Identity IDENTITY =
            new NamespaceProbe.Identity("proofgate/probe-model", "bfloat16", "", "");

    /** The snapshot family's plans: block ids by group over three groups of 16 blocks. */
    static final long[][][] PLANS = {
        {{0}, {0}, {0}},
        {{1, 2, 3}, {7}, {4}},
        {{3, 2, 1}, {}, {9}},
        {{5, 6, 9, 10}, {11, 12}, {15}},
        {{15}, {14, 13}, {0, 15}},
    };

    private NamespaceProbes() {}

    public static List<NamespaceProbe> v1() {
        List<NamespaceProbe> probes = new ArrayList<>();
        for (long hash : new long[] {1, 16, 256, 257, 4096}) {
            for (int prompt : spanPrompts()) {
                long span = span(prompt, hash);
                probes.add(
                        new NamespaceProbe(
                                "span/h" + hash + "/p" + prompt + "/s0",
                                0,
                                topology(1, hash, group(GroupPolicy.FULL, BLOCK_TOKENS, 0)),
                                IDENTITY,
                                prompt,
                                span,
                                new long[][] {ids(1, Math.ceilDiv(prompt, BLOCK_TOKENS) + 1)},
                                new long[0][]));
            }
        }
        for (long window : new long[] {1, 2304, 2305, 4608, 6912, 100000}) {
            for (int prompt : new int[] {1025, 2304, 2305, 4609, 6992, 8256, 13825}) {
                long span = span(prompt, 256);
                long count = Math.ceilDiv(span, BLOCK_TOKENS);
                probes.add(
                        new NamespaceProbe(
                                "selection/w" + window + "/p" + prompt + "/s1",
                                1,
                                topology(
                                        1,
                                        256,
                                        group(GroupPolicy.FULL, BLOCK_TOKENS, 0),
                                        group(GroupPolicy.SLIDING, BLOCK_TOKENS, window),
                                        group(GroupPolicy.RECURRENT_ALIGN, BLOCK_TOKENS, 0)),
                                IDENTITY,
                                prompt,
                                span,
                                new long[][] {ids(1001, count), ids(1101, count), ids(1201, count)},
                                new long[][] {{2, 1500}}));
            }
        }
        for (int k = 0; k < PLANS.length; k++) {
            long[][] plan = PLANS[k];
            long[][] proof = plan[2].length == 0 ? new long[0][] : new long[][] {{2, plan[2][plan[2].length - 1]}};
            probes.add(
                    new NamespaceProbe(
                            "snapshot/" + k + "/s2",
                            2,
                            topology(
                                    1,
                                    256,
                                    group(GroupPolicy.FULL, BLOCK_TOKENS, 0),
                                    group(GroupPolicy.FULL, BLOCK_TOKENS, 0),
                                    group(GroupPolicy.RECURRENT_ALIGN, BLOCK_TOKENS, 0)),
                            IDENTITY,
                            6992,
                            span(6992, 256),
                            plan,
                            proof));
        }
        String[][] identities = {
            {"base"},
            {"model"},
            {"dtype"},
            {"cache_salt"},
            {"lora"},
            {"tp_degree"},
            {"hash_block_size"},
            {"block_tokens"}
        };
        for (String[] field : identities) {
            String name = field[0];
            NamespaceProbe.Identity identity =
                    switch (name) {
                        case "model" -> new NamespaceProbe.Identity("proofgate/probe-model-b", "bfloat16", "", "");
                        case "dtype" -> new NamespaceProbe.Identity("proofgate/probe-model", "float16", "", "");
                        case "cache_salt" ->
                                new NamespaceProbe.Identity("proofgate/probe-model", "bfloat16", "salt-1", "");
                        case "lora" ->
                                new NamespaceProbe.Identity("proofgate/probe-model", "bfloat16", "", "adapter-1");
                        default -> IDENTITY;
                    };
            long tp = name.equals("tp_degree") ? 2 : 1;
            long hash = name.equals("hash_block_size") ? 16 : 256;
            long block = name.equals("block_tokens") ? 4608 : BLOCK_TOKENS;
            long span = span(6992, hash);
            long count = Math.ceilDiv(span, block);
            probes.add(
                    new NamespaceProbe(
                            "identity/" + name + "/s3",
                            3,
                            topology(
                                    tp,
                                    hash,
                                    group(GroupPolicy.FULL, block, 0),
                                    group(GroupPolicy.RECURRENT_ALIGN, block, 0)),
                            identity,
                            6992,
                            span,
                            new long[][] {ids(1, count), ids(101, count)},
                            new long[][] {{1, 150}}));
        }
        return List.copyOf(probes);
    }

    /** Protocol §2: the largest multiple of the hash block strictly below the prompt's end. */
    static long span(long prompt, long hash) {
        return Math.floorDiv(prompt - 1, hash) * hash;
    }

    private static List<Integer> spanPrompts() {
        List<Integer> prompts = new ArrayList<>();
        for (int p = 1; p <= 600; p++) {
            prompts.add(p);
        }
        for (int m : new int[] {1024, 2304, 4096, 6912, 8192}) {
            for (int d = -2; d <= 2; d++) {
                prompts.add(m + d);
            }
        }
        return prompts;
    }

    private static EventObject group(GroupPolicy policy, long block, long window) {
        return EventObject.object()
                .text("policy", policy.wireName())
                .number("block_tokens", block)
                .number("window_tokens", window);
    }

    private static String topology(long tp, long hash, EventObject... groups) {
        return EventObject.event("topology")
                .text("schema", Formats.EVENTS)
                .number("tp_degree", tp)
                .number("hash_block_size", hash)
                .number("min_span_tokens", 0)
                .number("max_span_tokens", 1_000_000)
                .objects("groups", List.of(groups))
                .toString();
    }

    private static long[] ids(long first, long count) {
        long[] ids = new long[(int) Math.max(0, count)];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = first + i;
        }
        return ids;
    }
}
