package io.proofgate.namespace;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import io.proofgate.words.Formats;

import java.io.IOException;
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
        return "{\"kind\":\"topology\",\"schema\":\""
                + Formats.EVENTS
                + "\",\"tp_degree\":1,\"hash_block_size\":"
                + hash
                + ",\"min_span_tokens\":0,\"groups\":[{\"policy\":\"full\",\"block_tokens\":"
                + NamespaceProbes.BLOCK_TOKENS
                + "}]}\n";
    }

    static String spanStep(NamespaceProbe probe, int i, int step) {
        int prompt = probe.promptTokens();
        return "{\"kind\":\"step\",\"step\":"
                + step
                + ",\"new\":[{\"id\":\"p"
                + i
                + "\",\"digest\":\"d"
                + i
                + "\",\"prompt_tokens\":"
                + prompt
                + ",\"computed\":0,\"scheduled\":"
                + prompt
                + ",\"block_ids\":[["
                + join(1, Math.ceilDiv(prompt, NamespaceProbes.BLOCK_TOKENS) + 1)
                + "]]}]}\n";
    }

    /**
     * The probe's request (id {@code p<i>}) under the probe's topology: admitted with its span scheduled, then proven
     * at the span on the next step; returns the last step number used.
     */
    static int selectionSteps(StringBuilder log, NamespaceProbe probe, int i, int step) {
        log.append("{\"kind\":\"step\",\"step\":")
                .append(++step)
                .append(",\"new\":[{\"id\":\"p")
                .append(i)
                .append("\",\"digest\":\"d")
                .append(i)
                .append("\",\"prompt_tokens\":")
                .append(probe.promptTokens())
                .append(",\"computed\":0,\"scheduled\":")
                .append(probe.span())
                .append(",\"block_ids\":")
                .append(lists(probe.blockIds()))
                .append("}]}\n");
        if (probe.recurrent().length > 0) {
            StringJoiner empty = new StringJoiner(",", "[", "]");
            for (int g = 0; g < probe.blockIds().length; g++) {
                empty.add("[]");
            }
            StringJoiner proof = new StringJoiner(",", "[", "]");
            for (long[] pair : probe.recurrent()) {
                proof.add("[" + pair[0] + "," + pair[1] + "," + probe.span() + "]");
            }
            log.append("{\"kind\":\"step\",\"step\":")
                    .append(++step)
                    .append(",\"cached\":[{\"id\":\"p")
                    .append(i)
                    .append("\",\"computed\":")
                    .append(probe.span())
                    .append(",\"scheduled\":1,\"new_block_ids\":")
                    .append(empty)
                    .append(",\"resumed\":false}],\"recurrent_boundary_blocks\":{\"p")
                    .append(i)
                    .append("\":")
                    .append(proof)
                    .append("}}\n");
        }
        return step;
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

    private static String join(long first, long count) {
        StringJoiner ids = new StringJoiner(",");
        for (long i = 0; i < count; i++) {
            ids.add(Long.toString(first + i));
        }
        return ids.toString();
    }

    private static String lists(long[][] lists) {
        StringJoiner out = new StringJoiner(",", "[", "]");
        for (long[] list : lists) {
            StringJoiner ids = new StringJoiner(",", "[", "]");
            for (long id : list) {
                ids.add(Long.toString(id));
            }
            out.add(ids.toString());
        }
        return out.toString();
    }
}
