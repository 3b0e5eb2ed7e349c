package io.proofgate.namespace;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import io.proofgate.words.Formats;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One namespace probe of {@code proofgate-namespace/v1} (docs/conformance.md, "Namespace probes"): a request an
 * implementation derives its namespace from (where stored data is found and what it means), independent of any
 * scenario.
 *
 * @param topology the topology line, every field present, as JSON
 * @param identity the fields a cache keys on besides the tokens
 * @param blockIds the request's block table per group
 * @param recurrent the proven {@code [group, block]} of each recurrent group at the span
 */
public record NamespaceProbe(
        String id,
        int seed,
        String topology,
        Identity identity,
        int promptTokens,
        long span,
        long[][] blockIds,
        long[][] recurrent) {

    public record Identity(String model, String dtype, String cacheSalt, String lora) {}

    private static final JsonFactory JSON = new JsonFactory();

    /** Token {@code i} of the prompt: {@code 1 + (seed * 1000003 + i * 7919) mod 32000}, as documented. */
    public long token(int i) {
        return 1 + Math.floorMod(seed * 1000003L + i * 7919L, 32000L);
    }

    /** The message the kit sends. */
    public String message() {
        StringWriter text = new StringWriter();
        try (JsonGenerator out = JSON.createGenerator(text)) {
            out.writeStartObject();
            out.writeStringField("kind", "namespace");
            out.writeStringField("set", Formats.NAMESPACE);
            out.writeStringField("probe", id);
            out.writeFieldName("topology");
            out.writeRawValue(topology);
            out.writeObjectFieldStart("identity");
            out.writeStringField("model", identity.model());
            out.writeStringField("dtype", identity.dtype());
            out.writeStringField("cache_salt", identity.cacheSalt());
            out.writeStringField("lora", identity.lora());
            out.writeEndObject();
            out.writeNumberField("prompt_tokens", promptTokens);
            out.writeArrayFieldStart("token_ids");
            for (int i = 0; i < promptTokens; i++) {
                out.writeNumber(token(i));
            }
            out.writeEndArray();
            out.writeNumberField("span", span);
            writeLists(out, "block_ids", blockIds);
            writeLists(out, "recurrent", recurrent);
            out.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a string writer does not fail
        }
        return text.toString();
    }

    private static void writeLists(JsonGenerator out, String field, long[][] lists) throws IOException {
        out.writeArrayFieldStart(field);
        for (long[] list : lists) {
            out.writeArray(list, 0, list.length);
        }
        out.writeEndArray();
    }

    /**
     * A probe message read back, as a reference implementation reads it: the fields it derives its answer from (the id,
     * topology, prompt length, span, block table and proof); the token ids and the identity are not among them.
     *
     * @throws IllegalArgumentException when a field is missing or of the wrong type
     */
    public static NamespaceProbe parse(String message) {
        String id = null;
        String topology = null;
        Integer prompt = null;
        Long span = null;
        long[][] blocks = null;
        long[][] recurrent = null;
        try (JsonParser in = JSON.createParser(message)) {
            if (in.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("a probe is a JSON object");
            }
            while (in.nextToken() == JsonToken.FIELD_NAME) {
                String name = in.currentName();
                JsonToken value = in.nextToken();
                switch (name) {
                    case "probe" -> id = text(in, value, name);
                    case "topology" -> {
                        if (value != JsonToken.START_OBJECT) {
                            throw new IllegalArgumentException("\"topology\" must be an object");
                        }
                        StringWriter raw = new StringWriter();
                        try (JsonGenerator copy = JSON.createGenerator(raw)) {
                            copy.copyCurrentStructure(in);
                        }
                        topology = raw.toString();
                    }
                    case "prompt_tokens" -> prompt = (int) number(in, value, name);
                    case "span" -> span = number(in, value, name);
                    case "block_ids" -> blocks = lists(in, value, name);
                    case "recurrent" -> recurrent = lists(in, value, name);
                    default -> in.skipChildren();
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("it is not JSON");
        }
        if (id == null || topology == null || prompt == null || span == null || blocks == null || recurrent == null) {
            throw new IllegalArgumentException(
                    "a probe needs \"probe\", \"topology\", \"prompt_tokens\", \"span\","
                            + " \"block_ids\" and \"recurrent\"");
        }
        return new NamespaceProbe(id, 0, topology, new Identity("", "", "", ""), prompt, span, blocks, recurrent);
    }

    private static String text(JsonParser in, JsonToken value, String name) throws IOException {
        if (value != JsonToken.VALUE_STRING) {
            throw new IllegalArgumentException("\"" + name + "\" must be a string");
        }
        return in.getText();
    }

    private static long number(JsonParser in, JsonToken value, String name) throws IOException {
        if (value != JsonToken.VALUE_NUMBER_INT || in.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            throw new IllegalArgumentException("\"" + name + "\" must be an integer of at most 64 bits");
        }
        return in.getLongValue();
    }

    private static long[][] lists(JsonParser in, JsonToken value, String name) throws IOException {
        if (value != JsonToken.START_ARRAY) {
            throw new IllegalArgumentException("\"" + name + "\" must be a list of lists of integers");
        }
        List<long[]> lists = new ArrayList<>();
        while (in.nextToken() == JsonToken.START_ARRAY) {
            List<Long> list = new ArrayList<>();
            JsonToken element;
            while ((element = in.nextToken()) != JsonToken.END_ARRAY) {
                list.add(number(in, element, name));
            }
            lists.add(list.stream().mapToLong(Long::longValue).toArray());
        }
        if (in.currentToken() != JsonToken.END_ARRAY) {
            throw new IllegalArgumentException("\"" + name + "\" must be a list of lists of integers");
        }
        return lists.toArray(long[][]::new);
    }
}
