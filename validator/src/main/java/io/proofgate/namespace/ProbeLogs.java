package io.proofgate.namespace;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import io.proofgate.words.EventObject;
import io.proofgate.words.Formats;
import io.proofgate.words.GroupPolicy;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The replay logs that put a namespace probe's question to a validator: the span rule alone (an attention-only
 * topology, the request published on its first step) and the probe's plan selection (its request admitted with the span
 * scheduled, then proven at the span). Request {@code p<i>} is probe {@code i}'s, so that several probes share one log.
 */
final class ProbeLogs {

    private static final JsonFactory JSON = new JsonFactory();

    private ProbeLogs() {}

    /**
     * The span rule alone: an attention-only topology publishes on the new request's step, with the span in its plan.
     */
    static String spanTopology(long hash) {
        EventObject full =
                EventObject.object()
                        .text("policy", GroupPolicy.FULL.wireName())
                        .number("block_tokens", NamespaceProbes.BLOCK_TOKENS);
        return EventObject.event("topology")
                        .text("schema", Formats.EVENTS)
                        .number("tp_degree", 1)
                        .number("hash_block_size", hash)
                        .number("min_span_tokens", 0)
                        .objects("groups", List.of(full))
                + "\n";
    }

    static String spanStep(NamespaceProbe probe, int i, int step) {
        int prompt = probe.promptTokens();
        long[] blocks = new long[Math.toIntExact(Math.ceilDiv(prompt, NamespaceProbes.BLOCK_TOKENS) + 1)];
        Arrays.setAll(blocks, b -> b + 1);
        return EventObject.event("step")
                        .number("step", step)
                        .objects("new", List.of(request(i, prompt, prompt, new long[][] {blocks})))
                + "\n";
    }

    /**
     * The probe's request (id {@code p<i>}) under the probe's topology: admitted with its span scheduled, then proven
     * at the span on the next step; returns the last step number used.
     */
    static int selectionSteps(StringBuilder log, NamespaceProbe probe, int i, int step) {
        EventObject admitted =
                EventObject.event("step")
                        .number("step", ++step)
                        .objects("new", List.of(request(i, probe.promptTokens(), probe.span(), probe.blockIds())));
        log.append(admitted).append('\n');
        if (probe.recurrent().length > 0) {
            StringJoiner proof = new StringJoiner(",", "[", "]");
            for (long[] pair : probe.recurrent()) {
                proof.add("[" + pair[0] + "," + pair[1] + "," + probe.span() + "]");
            }
            EventObject cached =
                    EventObject.object()
                            .text("id", "p" + i)
                            .number("computed", probe.span())
                            .number("scheduled", 1)
                            .ids("new_block_ids", new long[probe.blockIds().length][0])
                            .flag("resumed", false);
            EventObject proven =
                    EventObject.event("step")
                            .number("step", ++step)
                            .objects("cached", List.of(cached))
                            .byId("recurrent_boundary_blocks", Map.of("p" + i, proof.toString()));
            log.append(proven).append('\n');
        }
        return step;
    }

    /** Probe {@code i}'s request, new, with {@code scheduled} of its prompt scheduled. */
    private static EventObject request(int i, long prompt, long scheduled, long[][] blockIds) {
        return EventObject.object()
                .text("id", "p" + i)
                .text("digest", "d" + i)
                .number("prompt_tokens", prompt)
                .number("computed", 0)
                .number("scheduled", scheduled)
                .ids("block_ids", blockIds);
    }

    static long hashBlockSize(String topology) {
        try (JsonParser in = JSON.createParser(topology)) {
            in.nextToken();
            while (in.nextToken() == JsonToken.FIELD_NAME) {
                String name = in.currentName();
                JsonToken value = in.nextToken();
                if (name.equals("hash_block_size") && value == JsonToken.VALUE_NUMBER_INT) {
                    return in.getLongValue();
                }
                in.skipChildren();
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("the probe's topology is not JSON");
        }
        return 256; // protocol §5's default
    }
}
