package io.proofgate.namespace;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.proofgate.store.HostPageStore;
import io.proofgate.store.Snapshot;
import io.proofgate.store.StoreLayout;
import io.proofgate.words.Formats;
import java.io.IOException;
import java.io.StringWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    /**
     * The calls the snapshot probe makes by reflection on a revision's store classes, written out
     * against this validator's own. Never run: it is here so that renaming one of these methods,
     * or changing its signature, fails compilation instead of turning every later audit's
     * snapshot answers into refusals.
     */
    @SuppressWarnings("unused")
    private static byte[] drivenByName(MemorySegment page, long[][] plan) {
        StoreLayout layout = StoreLayout.uniform(3, 2, 64L, 16L);
        try (HostPageStore store = new HostPageStore(layout)) {
            store.write(0, 0L, page);
            Snapshot snapshot = store.newSnapshot(layout.snapshotBytes(plan));
            store.gather(plan, snapshot);
            return store.sha256(snapshot);
        }
    }

    private final Replayer replayer;
    private final Types types;

    public ReferenceNamespace(Replayer replayer, Types types) {
        this.replayer = replayer;
        this.types = types;
    }

    /** The named values for one probe, hex-encoded, by name. */
    public SortedMap<String, String> answer(NamespaceProbe probe) {
        return answerAll(List.of(probe)).getFirst();
    }

    /**
     * The named values for each probe, in order. Probes that share a hash block size (span) or a
     * topology (plan_selection) go through one replay log, each with a request of its own: a
     * request is examined only in the steps that schedule it, so this is the answer of one log per
     * probe, at a fraction of the cost. A log the validator refuses is replayed probe by probe.
     */
    public List<SortedMap<String, String>> answerAll(List<NamespaceProbe> probes) {
        List<SortedMap<String, String>> answers = new ArrayList<>();
        probes.forEach(p -> answers.add(new TreeMap<>()));
        Map<Long, List<Integer>> byHash = new LinkedHashMap<>();
        Map<String, List<Integer>> byTopology = new LinkedHashMap<>();
        for (int i = 0; i < probes.size(); i++) {
            byHash.computeIfAbsent(hashBlockSize(probes.get(i).topology()), h -> new ArrayList<>()).add(i);
            byTopology.computeIfAbsent(probes.get(i).topology(), t -> new ArrayList<>()).add(i);
        }
        for (var group : byHash.entrySet()) {
            StringBuilder log = new StringBuilder(spanTopology(group.getKey()));
            int step = 0;
            for (int i : group.getValue()) {
                log.append(spanStep(probes.get(i), i, ++step));
            }
            Map<String, String> said = wordsById(replayer.replay(log.toString()));
            for (int i : group.getValue()) {
                String words = said != null ? said.getOrDefault("p" + i, "no verdict")
                        : alone(spanTopology(group.getKey()) + spanStep(probes.get(i), i, 1), i);
                int at = words.indexOf(" span=");
                answers.get(i).put("span", hex(words.startsWith("plan ") && at >= 0
                        ? "span=" + words.substring(at + 6).split(" ")[0] : words));
            }
        }
        for (var group : byTopology.entrySet()) {
            StringBuilder log = new StringBuilder(group.getKey()).append('\n');
            int step = 0;
            for (int i : group.getValue()) {
                step = selectionSteps(log, probes.get(i), i, step);
            }
            Map<String, String> said = wordsById(replayer.replay(log.toString()));
            for (int i : group.getValue()) {
                String words;
                if (said != null) {
                    words = said.getOrDefault("p" + i, "no verdict");
                } else {
                    StringBuilder one = new StringBuilder(group.getKey()).append('\n');
                    selectionSteps(one, probes.get(i), i, 0);
                    words = alone(one.toString(), i);
                }
                answers.get(i).put("plan_selection", hex(words));
            }
        }
        for (int i = 0; i < probes.size(); i++) {
            if (probes.get(i).id().startsWith("snapshot/")) {
                answers.get(i).put("snapshot", hex(snapshot(probes.get(i).blockIds())));
            }
        }
        return answers;
    }

    private static String hex(String words) {
        return HexFormat.of().formatHex(words.getBytes(StandardCharsets.UTF_8));
    }

    /** The span rule alone: an attention-only topology publishes on the new request's step, with the span in its plan. */
    private static String spanTopology(long hash) {
        return "{\"kind\":\"topology\",\"schema\":\"" + Formats.EVENTS + "\",\"tp_degree\":1,\"hash_block_size\":" + hash
                + ",\"min_span_tokens\":0,\"groups\":[{\"policy\":\"full\",\"block_tokens\":" + NamespaceProbes.BLOCK_TOKENS
                + "}]}\n";
    }

    private static String spanStep(NamespaceProbe probe, int i, int step) {
        int prompt = probe.promptTokens();
        return "{\"kind\":\"step\",\"step\":" + step + ",\"new\":[{\"id\":\"p" + i + "\",\"digest\":\"d" + i
                + "\",\"prompt_tokens\":" + prompt + ",\"computed\":0,\"scheduled\":" + prompt + ",\"block_ids\":[["
                + join(1, Math.ceilDiv(prompt, NamespaceProbes.BLOCK_TOKENS) + 1) + "]]}]}\n";
    }

    /**
     * The probe's request (id {@code p<i>}) under the probe's topology: admitted with its span
     * scheduled, then proven at the span on the next step; returns the last step number used.
     */
    private static int selectionSteps(StringBuilder log, NamespaceProbe probe, int i, int step) {
        log.append("{\"kind\":\"step\",\"step\":").append(++step).append(",\"new\":[{\"id\":\"p").append(i)
                .append("\",\"digest\":\"d").append(i).append("\",\"prompt_tokens\":").append(probe.promptTokens())
                .append(",\"computed\":0,\"scheduled\":").append(probe.span()).append(",\"block_ids\":")
                .append(lists(probe.blockIds())).append("}]}\n");
        if (probe.recurrent().length > 0) {
            StringJoiner empty = new StringJoiner(",", "[", "]");
            for (int g = 0; g < probe.blockIds().length; g++) {
                empty.add("[]");
            }
            StringJoiner proof = new StringJoiner(",", "[", "]");
            for (long[] pair : probe.recurrent()) {
                proof.add("[" + pair[0] + "," + pair[1] + "," + probe.span() + "]");
            }
            log.append("{\"kind\":\"step\",\"step\":").append(++step).append(",\"cached\":[{\"id\":\"p").append(i)
                    .append("\",\"computed\":").append(probe.span()).append(",\"scheduled\":1,\"new_block_ids\":")
                    .append(empty).append(",\"resumed\":false}],\"recurrent_boundary_blocks\":{\"p").append(i)
                    .append("\":").append(proof).append("}}\n");
        }
        return step;
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
            Class<?> layoutType = types.type(StoreLayout.class.getName());
            Class<?> storeType = types.type(HostPageStore.class.getName());
            Class<?> snapshotType = types.type(Snapshot.class.getName());
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

    /**
     * Replay's verdict lines as words by request id, without ids or steps ("plan span=S
     * blocks=B recurrent=R"; several joined by "; "), or null when the validator refused the log.
     */
    static Map<String, String> wordsById(String output) {
        Map<String, String> words = new LinkedHashMap<>();
        for (String line : output.lines().toList()) {
            if (line.startsWith("error: ")) {
                return null;
            }
            if (line.isBlank()) {
                continue;
            }
            String[] verdict = verdictWords(line);
            if (verdict != null) {
                words.merge(verdict[0], verdict[1], (x, y) -> x + "; " + y);
            }
        }
        return words;
    }

    /** Probe {@code i}'s words from a log of its own; the validator's refusal of that log is its answer. */
    private String alone(String log, int i) {
        String output = replayer.replay(log);
        Map<String, String> words = wordsById(output);
        return words != null ? words.getOrDefault("p" + i, "no verdict")
                : output.lines().filter(line -> line.startsWith("error: ")).findFirst().orElse("no verdict");
    }

    /** One verdict line's request id and words, or null for the summary. */
    private static String[] verdictWords(String line) {
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
            return new String[] {"", "a line that is not JSON: " + line};
        }
        String words = switch (fields.getOrDefault("kind", "")) {
            case "plan" -> "plan span=" + fields.get("span") + " blocks=" + fields.get("blocks_by_group") + " recurrent="
                    + fields.get("recurrent");
            case "rejected" -> "rejected code=" + fields.get("code") + io.proofgate.words.ReasonFacts.words(fields.getOrDefault("reason", ""));
            case "retired" -> "retired cause=" + fields.get("cause");
            case "summary" -> null;
            default -> "a line of unknown kind: " + line;
        };
        return words == null ? null : new String[] {fields.getOrDefault("id", ""), words};
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
