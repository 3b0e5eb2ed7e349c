package io.proofgate.namespace;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.StringWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.SortedMap;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * proofgate's own answer to a namespace probe: {@code span} (the span its replay derives for the
 * prompt), {@code plan_selection} (the plan it publishes for the probe's request, admitted with
 * the span scheduled, then proven at the span) and, on snapshot probes, {@code snapshot} (the host
 * page store's snapshot of the plan: size and SHA-256). Each value is those words as UTF-8 bytes,
 * hex-encoded.
 *
 * <p>A validator is reached through its replay entry point and its store classes only, so the
 * same code answers for the running validator (the reference adapter) and for any revision's
 * (the spec audit, through a class loader of the revision's own).
 */
public final class ReferenceNamespace {

    /** A validator's replay: a log in, replay's output out, ending "error: ..." when it refuses the log. */
    @FunctionalInterface
    public interface Replayer {
        String replay(String log);
    }

    /** A validator's classes by name (the page store's), from wherever that validator was loaded. */
    @FunctionalInterface
    public interface Types {
        Class<?> type(String name) throws ClassNotFoundException;
    }

    private static final JsonFactory JSON = new JsonFactory();

    private final Replayer replayer;
    private final Types types;

    public ReferenceNamespace(Replayer replayer, Types types) {
        this.replayer = replayer;
        this.types = types;
    }

    /** The named values for one probe, hex-encoded, by name. */
    public SortedMap<String, String> answer(NamespaceProbe probe) {
        SortedMap<String, String> values = new TreeMap<>();
        values.put("span", hex(span(probe)));
        values.put("plan_selection", hex(selection(probe)));
        if (probe.id().startsWith("snapshot/")) {
            values.put("snapshot", hex(snapshot(probe.blockIds())));
        }
        return values;
    }

    private static String hex(String words) {
        return HexFormat.of().formatHex(words.getBytes(StandardCharsets.UTF_8));
    }

    /** The span rule alone: an attention-only topology publishes on the new request's step, with the span in its plan. */
    private String span(NamespaceProbe probe) {
        long hash = hashBlockSize(probe.topology());
        String log = "{\"kind\":\"topology\",\"schema\":\"proofgate-events/v1\",\"tp_degree\":1,\"hash_block_size\":" + hash
                + ",\"min_span_tokens\":0,\"groups\":[{\"policy\":\"full\",\"block_tokens\":" + NamespaceProbes.BLOCK_TOKENS
                + "}]}\n" + "{\"kind\":\"step\",\"step\":1,\"new\":[{\"id\":\"p\",\"digest\":\"d\",\"prompt_tokens\":"
                + probe.promptTokens() + ",\"computed\":0,\"scheduled\":" + probe.promptTokens() + ",\"block_ids\":[["
                + join(1, Math.ceilDiv(probe.promptTokens(), NamespaceProbes.BLOCK_TOKENS) + 1) + "]]}]}\n";
        String words = words(replayer.replay(log));
        int at = words.indexOf(" span=");
        return words.startsWith("plan ") && at >= 0 ? "span=" + words.substring(at + 6).split(" ")[0] : words;
    }

    /** The probe's request under the probe's topology: admitted with its span scheduled, proven at the span on the next step. */
    private String selection(NamespaceProbe probe) {
        StringBuilder log = new StringBuilder(probe.topology()).append('\n');
        log.append("{\"kind\":\"step\",\"step\":1,\"new\":[{\"id\":\"p\",\"digest\":\"d\",\"prompt_tokens\":")
                .append(probe.promptTokens()).append(",\"computed\":0,\"scheduled\":").append(probe.span())
                .append(",\"block_ids\":").append(lists(probe.blockIds())).append("}]}\n");
        if (probe.recurrent().length > 0) {
            StringJoiner empty = new StringJoiner(",", "[", "]");
            for (int g = 0; g < probe.blockIds().length; g++) {
                empty.add("[]");
            }
            StringJoiner proof = new StringJoiner(",", "[", "]");
            for (long[] pair : probe.recurrent()) {
                proof.add("[" + pair[0] + "," + pair[1] + "," + probe.span() + "]");
            }
            log.append("{\"kind\":\"step\",\"step\":2,\"cached\":[{\"id\":\"p\",\"computed\":").append(probe.span())
                    .append(",\"scheduled\":1,\"new_block_ids\":").append(empty).append(",\"resumed\":false}],")
                    .append("\"recurrent_boundary_blocks\":{\"p\":").append(proof).append("}}\n");
        }
        return words(replayer.replay(log.toString()));
    }

    /**
     * The snapshot byte layout: the validator's host page store (three groups of two layers of
     * 64-byte pages, 16 blocks each) filled with the same bytes for every validator (byte i of
     * group g, block b is {@code (g * 131 + b * 31 + i) mod 251}), then the plan gathered into a
     * snapshot: its size and SHA-256. A store the audit cannot drive answers so, which differs
     * from any computed answer (fail closed).
     */
    private String snapshot(long[][] plan) {
        try {
            Class<?> layoutType = types.type("io.proofgate.store.StoreLayout");
            Class<?> storeType = types.type("io.proofgate.store.HostPageStore");
            Class<?> snapshotType = types.type("io.proofgate.store.Snapshot");
            Object layout = layoutType.getMethod("uniform", int.class, int.class, long.class, long.class)
                    .invoke(null, 3, 2, 64L, 16L);
            try (AutoCloseable store = (AutoCloseable) storeType.getConstructor(layoutType).newInstance(layout);
                 Arena arena = Arena.ofConfined()) {
                Method write = storeType.getMethod("write", int.class, long.class, MemorySegment.class);
                for (int g = 0; g < 3; g++) {
                    for (long b = 0; b < 16; b++) {
                        MemorySegment page = arena.allocate(128);
                        for (int i = 0; i < 128; i++) {
                            page.set(ValueLayout.JAVA_BYTE, i, (byte) ((g * 131 + b * 31 + i) % 251));
                        }
                        write.invoke(store, g, b, page);
                    }
                }
                long bytes = (long) layoutType.getMethod("snapshotBytes", long[][].class).invoke(layout, (Object) plan);
                Object snapshot = storeType.getMethod("newSnapshot", long.class).invoke(store, bytes);
                storeType.getMethod("gather", long[][].class, snapshotType).invoke(store, plan, snapshot);
                byte[] digest = (byte[]) storeType.getMethod("sha256", snapshotType).invoke(store, snapshot);
                return "bytes=" + bytes + " sha256=" + HexFormat.of().formatHex(digest);
            }
        } catch (InvocationTargetException e) {
            return "the store refused the plan " + Arrays.deepToString(plan) + ": " + e.getCause();
        } catch (Exception e) {
            return "the store's API is not the one the audit drives (StoreLayout.uniform, HostPageStore write, newSnapshot,"
                    + " gather, sha256): " + e;
        }
    }

    /** Replay's verdict lines as words without request ids or steps ("plan span=S blocks=B recurrent=R"); "no verdict" when none. */
    static String words(String output) {
        StringJoiner words = new StringJoiner("; ");
        for (String line : output.lines().toList()) {
            if (line.startsWith("error: ")) {
                words.add(line);
                continue;
            }
            if (line.isBlank()) {
                continue;
            }
            String verdict = verdictWords(line);
            if (verdict != null) {
                words.add(verdict);
            }
        }
        return words.length() == 0 ? "no verdict" : words.toString();
    }

    /** One verdict line's words, or null for the summary. */
    private static String verdictWords(String line) {
        SortedMap<String, String> fields = new TreeMap<>();
        try (JsonParser in = JSON.createParser(line)) {
            in.nextToken();
            while (in.nextToken() == JsonToken.FIELD_NAME) {
                String name = in.currentName();
                JsonToken value = in.nextToken();
                if (value == JsonToken.START_ARRAY || value == JsonToken.START_OBJECT) {
                    StringWriter raw = new StringWriter();
                    try (var copy = JSON.createGenerator(raw)) {
                        copy.copyCurrentStructure(in);
                    }
                    fields.put(name, raw.toString());
                } else {
                    fields.put(name, in.getText());
                }
            }
        } catch (IOException e) {
            return "a line that is not JSON: " + line;
        }
        return switch (fields.getOrDefault("kind", "")) {
            case "plan" -> "plan span=" + fields.get("span") + " blocks=" + fields.get("blocks_by_group") + " recurrent="
                    + fields.get("recurrent");
            case "rejected" -> "rejected code=" + fields.get("code") + facts(fields.getOrDefault("reason", ""));
            case "retired" -> "retired cause=" + fields.get("cause");
            case "summary" -> null;
            default -> "a line of unknown kind: " + line;
        };
    }

    /** A reason's trailing name=value words: the facts; the sentence before them is prose. */
    private static String facts(String reason) {
        String[] words = reason.split(" ");
        int first = words.length;
        while (first > 0 && words[first - 1].matches("[a-z_]+=\\S*")) {
            first--;
        }
        StringBuilder facts = new StringBuilder();
        for (int i = first; i < words.length; i++) {
            facts.append(' ').append(words[i]);
        }
        return facts.toString();
    }

    private static long hashBlockSize(String topology) {
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
