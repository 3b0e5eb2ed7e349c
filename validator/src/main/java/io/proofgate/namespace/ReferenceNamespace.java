package io.proofgate.namespace;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * proofgate's own answer to a namespace probe: {@code span} (the span its replay derives for the prompt), {@code
 * plan_selection} (the plan it publishes for the probe's request, admitted with the span scheduled, then proven at the
 * span) and, on snapshot probes, {@code snapshot} (the host page store's snapshot of the plan: size and SHA-256). Each
 * value is those words as UTF-8 bytes, hex-encoded.
 *
 * <p>A validator is reached through its replay entry point and its store classes only, so the same code answers for the
 * running validator (the reference adapter) and for any revision's (the spec audit, through a class loader of the
 * revision's own).
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
     * The named values for each probe, in order. Probes that share a hash block size (span) or a topology
     * (plan_selection) go through one replay log, each with a request of its own: a request is examined only in the
     * steps that schedule it, so this is the answer of one log per probe, at a fraction of the cost. A log the
     * validator refuses is replayed probe by probe.
     */
    public List<SortedMap<String, String>> answerAll(List<NamespaceProbe> probes) {
        List<SortedMap<String, String>> answers = new ArrayList<>();
        probes.forEach(p -> answers.add(new TreeMap<>()));
        Map<Long, List<Integer>> byHash = new LinkedHashMap<>();
        Map<String, List<Integer>> byTopology = new LinkedHashMap<>();
        for (int i = 0; i < probes.size(); i++) {
            byHash.computeIfAbsent(ProbeLogs.hashBlockSize(probes.get(i).topology()), h -> new ArrayList<>()).add(i);
            byTopology.computeIfAbsent(probes.get(i).topology(), t -> new ArrayList<>()).add(i);
        }
        for (var group : byHash.entrySet()) {
            StringBuilder log = new StringBuilder(ProbeLogs.spanTopology(group.getKey()));
            int step = 0;
            for (int i : group.getValue()) {
                log.append(ProbeLogs.spanStep(probes.get(i), i, ++step));
            }
            Map<String, String> said = AnswerWords.wordsById(replayer.replay(log.toString()));
            for (int i : group.getValue()) {
                String words =
                        said != null
                                ? said.getOrDefault("p" + i, "no verdict")
                                : alone(
                                        ProbeLogs.spanTopology(group.getKey())
                                                + ProbeLogs.spanStep(probes.get(i), i, 1),
                                        i);
                int at = words.indexOf(" span=");
                answers.get(i)
                        .put(
                                "span",
                                hex(
                                        words.startsWith("plan ") && at >= 0
                                                ? "span=" + words.substring(at + 6).split(" ")[0]
                                                : words));
            }
        }
        for (var group : byTopology.entrySet()) {
            StringBuilder log = new StringBuilder(group.getKey()).append('\n');
            int step = 0;
            for (int i : group.getValue()) {
                step = ProbeLogs.selectionSteps(log, probes.get(i), i, step);
            }
            Map<String, String> said = AnswerWords.wordsById(replayer.replay(log.toString()));
            for (int i : group.getValue()) {
                String words;
                if (said != null) {
                    words = said.getOrDefault("p" + i, "no verdict");
                } else {
                    StringBuilder one = new StringBuilder(group.getKey()).append('\n');
                    ProbeLogs.selectionSteps(one, probes.get(i), i, 0);
                    words = alone(one.toString(), i);
                }
                answers.get(i).put("plan_selection", hex(words));
            }
        }
        for (int i = 0; i < probes.size(); i++) {
            if (probes.get(i).id().startsWith("snapshot/")) {
                answers.get(i).put("snapshot", hex(SnapshotAnswer.of(types, probes.get(i).blockIds())));
            }
        }
        return answers;
    }

    private static String hex(String words) {
        return HexFormat.of().formatHex(words.getBytes(StandardCharsets.UTF_8));
    }

    /** Probe {@code i}'s words from a log of its own; the validator's refusal of that log is its answer. */
    private String alone(String log, int i) {
        String output = replayer.replay(log);
        Map<String, String> words = AnswerWords.wordsById(output);
        return words != null
                ? words.getOrDefault("p" + i, "no verdict")
                : output.lines().filter(line -> line.startsWith("error: ")).findFirst().orElse("no verdict");
    }
}
