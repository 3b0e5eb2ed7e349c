package io.proofgate.mutate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The outcome of a mutation run: counts, the score, who killed what, and what is left for a reviewer (survivors not
 * judged equivalent, judgements that no longer hold).
 *
 * <p>score = killed / (killed + survived + unfinished), over the mutants not judged equivalent; mutants that do not
 * compile are not mutants of the spec and count nowhere.
 *
 * <p>It states no times: the same mutants give the same report, byte for byte, however they were run (one run, or
 * shards merged by {@code proofgate merge-mutate}); a run's time goes to stderr.
 */
public record MutationReport(
        String module,
        String part,
        List<String> models,
        String text,
        List<MutantResult> results,
        Equivalents equivalents,
        Set<String> allMutants) {

    /**
     * @param allMutants the ids of every mutant of the definitions, run or not (a shard or {@code --only} runs some): a
     *     judgement naming none of them is of a mutant that is gone
     */
    public MutationReport {
        models = List.copyOf(models);
        results = List.copyOf(results);
        allMutants = Set.copyOf(allMutants);
    }

    /** A report of a run of every mutant. */
    public MutationReport(
            String module,
            String part,
            List<String> models,
            String text,
            List<MutantResult> results,
            Equivalents equivalents) {
        this(
                module,
                part,
                models,
                text,
                results,
                equivalents,
                results.stream().map(r -> r.mutation().id()).collect(Collectors.toSet()));
    }

    /** The generated mutants: the results but the named mistakes. */
    private java.util.stream.Stream<MutantResult> generated() {
        return results.stream().filter(r -> r.mutation().kind() != Mutation.Kind.NAMED);
    }

    /** Generated mutants with this outcome. */
    public long count(Class<? extends Outcome> kind) {
        return generated().filter(r -> kind.isInstance(r.outcome())).count();
    }

    private boolean judged(MutantResult r) {
        return equivalents.byId().containsKey(r.mutation().id());
    }

    /** Survivors and unfinished mutants that nobody judged equivalent: each fails {@code --check}. */
    public List<MutantResult> unjudged() {
        return generated()
                .filter(r -> r.outcome() instanceof Outcome.Survived || r.outcome() instanceof Outcome.Unfinished)
                .filter(r -> !judged(r))
                .toList();
    }

    /** The named mistakes, each of which must be killed. */
    public List<MutantResult> named() {
        return results.stream().filter(r -> r.mutation().kind() == Mutation.Kind.NAMED).toList();
    }

    /** Named mistakes not killed (survived, unfinished, or not even compilable): each fails {@code --check}. */
    public List<MutantResult> namedNotKilled() {
        return named().stream().filter(r -> !(r.outcome() instanceof Outcome.Killed)).toList();
    }

    public List<MutantResult> judgedEquivalent() {
        return generated().filter(r -> r.outcome() instanceof Outcome.Survived && judged(r)).toList();
    }

    /** Judgements that no longer hold: the mutant is gone (its definition changed) or is now killed. */
    public List<String> staleJudgements() {
        Map<String, MutantResult> byId =
                results.stream()
                        .collect(Collectors.toMap(r -> r.mutation().id(), r -> r, (a, b) -> a, LinkedHashMap::new));
        List<String> out = new ArrayList<>();
        for (Equivalents.Entry e :
                equivalents.byId().values().stream()
                        .sorted(java.util.Comparator.comparing(Equivalents.Entry::id))
                        .toList()) {
            MutantResult r = byId.get(e.id());
            if (r == null && allMutants.contains(e.id())) {
                continue; // not run this time (another shard)
            }
            if (r == null) {
                out.add(e.id() + said(e) + ": no such mutant now; its definition changed");
            } else if (!(r.outcome() instanceof Outcome.Survived)) {
                out.add(e.id() + said(e) + ": judged equivalent, but " + MutationRun.describe(r.outcome()));
            }
        }
        return out;
    }

    /** What a judgement says its mutant was, where it says: both fields are optional in the file. */
    private static String said(Equivalents.Entry e) {
        String operator = e.operator() == null ? "" : e.operator();
        String change = e.change() == null ? "" : e.change();
        return operator.isEmpty() && change.isEmpty()
                ? ""
                : " (" + operator + (operator.isEmpty() || change.isEmpty() ? "" : ": ") + change + ")";
    }

    /** Killed among mutants that compile and are not judged equivalent, in percent. */
    public double score() {
        long killed = count(Outcome.Killed.class);
        long considered = killed + unjudged().size();
        return considered == 0 ? 100.0 : 100.0 * killed / considered;
    }

    public boolean passesCheck() {
        return unjudged().isEmpty() && staleJudgements().isEmpty() && namedNotKilled().isEmpty();
    }

    /** Which property killed how many mutants, most first. */
    public Map<String, Long> killers() {
        Map<String, Long> counts = new TreeMap<>();
        generated()
                .forEach(
                        r -> {
                            if (r.outcome() instanceof Outcome.Killed k) {
                                counts.merge(k.by(), 1L, Long::sum);
                            }
                        });
        return counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, LinkedHashMap::new));
    }

    /** The report in a format of {@code --format}: json, markdown, or text (anything else). */
    public String render(String format) {
        return switch (format) {
            case "json" -> toJson();
            case "markdown" -> toMarkdown();
            default -> toText();
        };
    }

    /** A unified diff of the mutant against the module, one line of context. */
    public String diff(Mutation m) {
        List<String> a = text.lines().toList();
        List<String> b = m.apply(text).lines().toList();
        return String.join(
                "\n",
                UnifiedDiffUtils.generateUnifiedDiff(
                        module, module + " (mutant " + m.id() + ")", a, DiffUtils.diff(a, b), 1));
    }

    private String headline() {
        return String.format(
                Locale.ROOT,
                "%s, part %s, on %s: %d mutants, %d killed, %d survived (%d judged"
                        + " equivalent), %d unfinished, %d not compilable; score %.1f%%; named mistakes %d of %d"
                        + " killed",
                module,
                part,
                String.join(", ", models),
                results.size() - named().size(),
                count(Outcome.Killed.class),
                count(Outcome.Survived.class),
                judgedEquivalent().size(),
                count(Outcome.Unfinished.class),
                count(Outcome.NotCompilable.class),
                score(),
                named().size() - namedNotKilled().size(),
                named().size());
    }

    private static String namedLine(MutantResult r) {
        return r.mutation().operator() + ": " + MutationRun.describe(r.outcome());
    }

    public String toText() {
        StringBuilder s = new StringBuilder("proofgate mutate: ").append(headline()).append('\n');
        if (!named().isEmpty()) {
            s.append("named mistakes:\n");
            named().forEach(
                            r ->
                                    s.append(r.outcome() instanceof Outcome.Killed ? "  " : "  NOT KILLED ")
                                            .append(namedLine(r))
                                            .append('\n'));
        }
        if (!killers().isEmpty()) { // a header over nothing reads as output cut off
            s.append("killed by:\n");
            killers().forEach((k, v) -> s.append(String.format(Locale.ROOT, "  %5d  %s%n", v, k)));
        }
        for (MutantResult r : unjudged()) {
            s.append('\n')
                    .append(
                            switch (r.outcome()) {
                                case Outcome.TimedOut t -> "TIMED OUT ";
                                case Outcome.OverStateBound o -> "OVER THE STATE BOUND ";
                                default -> "SURVIVED ";
                            })
                    .append(r.mutation().id())
                    .append("  ")
                    .append(r.mutation().operator())
                    .append(", line ")
                    .append(r.mutation().line())
                    .append(", ")
                    .append(r.mutation().kind().wireName())
                    .append(": ")
                    .append(r.mutation().change())
                    .append('\n')
                    .append(diff(r.mutation()))
                    .append('\n');
        }
        for (String stale : staleJudgements()) {
            s.append("\nSTALE JUDGEMENT ").append(stale).append('\n');
        }
        return s.toString();
    }

    public String toMarkdown() {
        StringBuilder s =
                new StringBuilder("## proofgate mutate: ")
                        .append(module)
                        .append(", part ")
                        .append(part)
                        .append("\n\n")
                        .append(headline())
                        .append("\n\n| outcome | mutants |\n|---|---|\n");
        s.append("| killed | ").append(count(Outcome.Killed.class)).append(" |\n");
        s.append("| survived, judged equivalent | ").append(judgedEquivalent().size()).append(" |\n");
        s.append("| survived, not judged | ")
                .append(unjudged().stream().filter(r -> r.outcome() instanceof Outcome.Survived).count())
                .append(" |\n");
        s.append("| unfinished | ").append(count(Outcome.Unfinished.class)).append(" |\n");
        s.append("| not compilable | ").append(count(Outcome.NotCompilable.class)).append(" |\n\n");
        if (!named().isEmpty()) {
            s.append("| named mistake | outcome |\n|---|---|\n");
            named().forEach(
                            r ->
                                    s.append("| `")
                                            .append(r.mutation().operator())
                                            .append("` | ")
                                            .append(r.outcome() instanceof Outcome.Killed ? "" : "**not killed**: ")
                                            .append(MutationRun.describe(r.outcome()).replace("|", "\\|"))
                                            .append(" |\n"));
            s.append('\n');
        }
        if (!killers().isEmpty()) {
            s.append("| killed by | mutants |\n|---|---|\n");
            killers().forEach((k, v) -> s.append("| `").append(k).append("` | ").append(v).append(" |\n"));
        }
        if (!unjudged().isEmpty()) {
            s.append("\n### Survivors to judge\n");
            for (MutantResult r : unjudged()) {
                s.append("\n<details><summary><code>")
                        .append(r.mutation().id())
                        .append("</code> ")
                        .append(r.mutation().operator())
                        .append(", line ")
                        .append(r.mutation().line())
                        .append(", ")
                        .append(r.mutation().kind().wireName())
                        .append("</summary>\n\n```diff\n")
                        .append(diff(r.mutation()))
                        .append("\n```\n</details>\n");
            }
        }
        if (!judgedEquivalent().isEmpty()) {
            s.append("\n### Judged equivalent\n\n| mutant | operator | change | reason |\n|---|---|---|---|\n");
            for (MutantResult r : judgedEquivalent()) {
                s.append("| `")
                        .append(r.mutation().id())
                        .append("` | ")
                        .append(r.mutation().operator())
                        .append(" | `")
                        .append(r.mutation().change().replace("|", "\\|"))
                        .append("` | ")
                        .append(equivalents.byId().get(r.mutation().id()).reason().replace("|", "\\|"))
                        .append(" |\n");
            }
        }
        for (String stale : staleJudgements()) {
            s.append("\n- stale judgement: ").append(stale);
        }
        return s.append('\n').toString();
    }

    public String toJson() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("schema", "proofgate-mutate/v1");
        root.put("module", module);
        root.put("part", part);
        root.put("models", models);
        root.put("mutants", results.size() - named().size());
        root.put("named_mistakes", named().size());
        root.put("named_mistakes_killed", named().size() - namedNotKilled().size());
        root.put("killed", count(Outcome.Killed.class));
        root.put("survived", count(Outcome.Survived.class));
        root.put("judged_equivalent", judgedEquivalent().size());
        root.put("unfinished", count(Outcome.Unfinished.class));
        root.put("not_compilable", count(Outcome.NotCompilable.class));
        root.put("score", Math.round(score() * 10) / 10.0);
        root.put("passes_check", passesCheck());
        root.put("killed_by", killers());
        List<Map<String, Object>> list = new ArrayList<>();
        for (MutantResult r : results) {
            Map<String, Object> m = new LinkedHashMap<>();
            Mutation mu = r.mutation();
            m.put("id", mu.id());
            m.put("operator", mu.operator());
            m.put("kind", mu.kind().wireName());
            m.put("line", mu.line());
            m.put("column", mu.column());
            m.put("original", Mutation.oneLine(mu.original()));
            m.put("replacement", Mutation.oneLine(mu.replacement()));
            m.put("outcome", r.outcome().wireName());
            switch (r.outcome()) {
                case Outcome.Killed k -> {
                    m.put("model", k.model());
                    m.put("by", k.by());
                }
                case Outcome.OverStateBound o -> {
                    m.put("model", o.model());
                    m.put("max_states", o.maxStates());
                }
                case Outcome.TimedOut t -> m.put("model", t.model());
                case Outcome.NotCompilable n -> m.put("problem", n.problem());
                case Outcome.Survived sv -> {
                    if (judged(r)) {
                        m.put("equivalent", equivalents.byId().get(mu.id()).reason());
                    }
                }
            }
            list.add(m);
        }
        root.put("results", list);
        root.put("stale_judgements", staleJudgements());
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("maps of strings and numbers always serialise", e);
        }
    }
}
