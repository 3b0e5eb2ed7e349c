package io.proofgate.conform;

import io.proofgate.words.Capability;
import io.proofgate.words.ConnectorPolicy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** The report of a conformance run for a terminal or a CI log. */
public final class ConformText {

    /** Failing scenarios listed one per line before the groups; every one is in the JUnit file. */
    static final int LISTED = 50;

    private ConformText() {}

    /** The report; every line escaped as outside text ({@link io.proofgate.words.Outside#lines}). */
    public static String of(Conform.Report report, String adapter) {
        return io.proofgate.words.Outside.lines(text(report, adapter));
    }

    private static String text(Conform.Report report, String adapter) {
        StringBuilder out = new StringBuilder();
        Line.Hello hello = report.hello();
        Set<Capability> capabilities = hello.capabilities();
        out.append("adapter: ")
                .append(adapter)
                .append(" (")
                .append(Json.excerpt(hello.implementation()))
                .append(", ")
                .append(hello.protocol())
                .append("), capabilities: ")
                .append(
                        capabilities.isEmpty()
                                ? "none"
                                : String.join(", ", capabilities.stream().map(Capability::wireName).toList()))
                .append('\n');
        List<String> compared = new ArrayList<>(List.of("the verdicts after each event", "the summary"));
        List<String> notCompared = new ArrayList<>();
        for (Capability capability : List.of(Capability.REASON_FACTS, Capability.STATE)) {
            (capabilities.contains(capability) ? compared : notCompared)
                    .add(
                            capability.what()
                                    + (capabilities.contains(capability) ? "" : " (no " + capability.wireName() + ")"));
        }
        String judged =
                capabilities.contains(Capability.RESTORE)
                        ? "judged: the safety of every plan, hit and load; connector policy: "
                        : "judged: the safety of every plan; connector policy: ";
        if (hello.policy() == ConnectorPolicy.OWN) {
            out.append(judged)
                    .append(hello.policy().wireName())
                    .append(", which the kit does not model, so nothing else is compared\n");
        } else {
            out.append(judged).append(hello.policy().wireName()).append('\n');
            out.append("compared: ").append(String.join("; ", compared)).append('\n');
        }
        if (!notCompared.isEmpty() && hello.policy() != ConnectorPolicy.OWN) {
            out.append("not compared: ").append(String.join("; ", notCompared)).append('\n');
        }
        long stated =
                report.results().stream()
                        .filter(r -> r.scenario().expected() instanceof Scenario.BlockContents)
                        .count();
        if (stated > 0) {
            out.append("judged on stated contents: ")
                    .append(String.format("%,d", stated))
                    .append(
                            " scenarios that state vLLM's block contents after each event (vLLM's align mode); their"
                                    + " plans are")
                    .append(" judged on those contents, and nothing else of them is compared\n");
        }
        Map<Capability, Integer> skipped = new TreeMap<>();
        for (Result result : report.results()) {
            if (result instanceof Result.NotRun notRun) {
                notRun.missing().forEach(c -> skipped.merge(c, 1, Integer::sum));
            }
        }
        Map<String, Integer> inapplicable = new TreeMap<>();
        for (Result result : report.results()) {
            if (result instanceof Result.NotApplicable n) {
                inapplicable.merge(n.reason(), 1, Integer::sum);
            }
        }
        inapplicable.forEach(
                (reason, count) ->
                        out.append("not run: ")
                                .append(String.format("%,d", count))
                                .append(" scenarios not applicable: ")
                                .append(Json.excerpt(reason))
                                .append('\n'));
        skipped.forEach(
                (capability, count) ->
                        out.append("not run: ")
                                .append(String.format("%,d", count))
                                .append(' ')
                                .append(capability.what())
                                .append(" (no ")
                                .append(capability.wireName())
                                .append(")\n"));
        List<Result.Unsafe> unsafe =
                report.results().stream()
                        .filter(Result.Unsafe.class::isInstance)
                        .map(Result.Unsafe.class::cast)
                        .toList();
        unsafe(out, unsafe);
        List<Result.Failed> failed =
                report.results().stream()
                        .filter(Result.Failed.class::isInstance)
                        .map(Result.Failed.class::cast)
                        .toList();
        if (!failed.isEmpty() || report.count(Result.Errored.class) > 0) {
            out.append('\n');
        }
        int listed = 0;
        for (Result.Failed failure : failed) {
            if (listed++ == LISTED) {
                out.append("... and ")
                        .append(String.format("%,d", failed.size() - LISTED))
                        .append(" more failing scenarios (--junit FILE lists every scenario)\n");
                break;
            }
            out.append("FAIL ")
                    .append(failure.scenario().id())
                    .append(": ")
                    .append(where(failure.scenario(), failure.mismatch(), failure.scenario().events().size()))
                    .append(": ")
                    .append(failure.mismatch().rule())
                    .append('\n');
        }
        List<Result.Errored> errored =
                report.results().stream()
                        .filter(Result.Errored.class::isInstance)
                        .map(Result.Errored.class::cast)
                        .toList();
        for (int i = 0; i < errored.size(); i++) {
            if (i == LISTED) {
                // a run stopped early has an error for each scenario it did not reach: thousands, alike
                out.append("... and ")
                        .append(String.format("%,d", errored.size() - LISTED))
                        .append(" more errors (--junit FILE lists every scenario)\n");
                break;
            }
            out.append("ERROR ").append(errored.get(i).message()).append('\n');
        }
        for (String late : report.late()) {
            out.append("ERROR ").append(late).append('\n');
        }
        if (report.stoppedAfter() > 0) {
            out.append("stopped after ").append(report.stoppedAfter()).append(" adapter errors\n");
        }
        if (!failed.isEmpty()) {
            out.append("\nfailures by rule (the first difference of each failing scenario):\n");
            Map<String, List<Result.Failed>> groups = new LinkedHashMap<>();
            failed.stream()
                    .sorted(Comparator.comparing((Result.Failed f) -> f.mismatch().rule()))
                    .forEach(f -> groups.computeIfAbsent(f.mismatch().rule(), k -> new ArrayList<>()).add(f));
            groups.entrySet().stream()
                    .sorted(
                            Comparator.comparing((Map.Entry<String, List<Result.Failed>> e) -> -e.getValue().size())
                                    .thenComparing(Map.Entry::getKey))
                    .forEach(group -> group(out, group.getKey(), group.getValue(), report.shrunk()));
        }
        List<Result.Passed> missing =
                report.results().stream()
                        .filter(r -> r instanceof Result.Passed p && !p.missed().isEmpty())
                        .map(Result.Passed.class::cast)
                        .toList();
        if (!missing.isEmpty()) {
            Map<String, Integer> suites = new TreeMap<>();
            missing.forEach(p -> suites.merge(p.scenario().suite(), 1, Integer::sum));
            out.append("\nmissed publications (not failures): in ")
                    .append(String.format("%,d", missing.size()))
                    .append(
                            " scenarios vLLM offered a proof that latch-at-target publishes, and the adapter published"
                                    + " nothing for that request (")
                    .append(
                            String.join(
                                    ", ",
                                    suites.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toList()))
                    .append("); the first:\n");
            missing.stream()
                    .limit(MISSED_LISTED)
                    .forEach(
                            p ->
                                    out.append("  ")
                                            .append(p.scenario().id())
                                            .append(": ")
                                            .append(String.join(", ", p.missed()))
                                            .append('\n'));
        }
        List<Result.Passed> missingHits =
                report.results().stream()
                        .filter(r -> r instanceof Result.Passed p && !p.missedHits().isEmpty())
                        .map(Result.Passed.class::cast)
                        .toList();
        if (!missingHits.isEmpty()) {
            out.append("\nmissed hits (not failures): in ")
                    .append(String.format("%,d", missingHits.size()))
                    .append(
                            " scenarios latch-at-target answers a lookup with a longer hit than the adapter did (a"
                                    + " prefix computed again that a store could have given); the first:\n");
            missingHits.stream()
                    .limit(MISSED_LISTED)
                    .forEach(
                            p ->
                                    out.append("  ")
                                            .append(p.scenario().id())
                                            .append(": ")
                                            .append(String.join(", ", p.missedHits()))
                                            .append('\n'));
        }
        long passed = report.count(Result.Passed.class);
        long notRun = report.count(Result.NotRun.class) + report.count(Result.NotApplicable.class);
        long errors = report.count(Result.Errored.class) + report.late().size();
        long ran = passed + failed.size() + unsafe.size() + errors;
        out.append('\n')
                .append(
                        String.format(
                                "%,d scenarios: %,d passed, %,d unsafe, %,d failed, %,d not run, %,d errors",
                                report.results().size(), passed, unsafe.size(), failed.size(), notRun, errors));
        out.append(
                String.format(
                        "; %.1f s, %,.0f scenarios/s (%d job%s; %,d answers, %.1f s waiting for them%s)%n",
                        report.seconds(),
                        ran / Math.max(report.seconds(), 1e-9),
                        report.jobs(),
                        report.jobs() == 1 ? "" : "s",
                        report.answers(),
                        report.waitedSeconds(),
                        report.jobs() == 1 ? "" : ", summed over the " + report.jobs() + " jobs"));
        return out.toString();
    }

    /** The unsafe scenarios first: each plan that publishes blocks not holding its prefix, the shortest in full. */
    private static void unsafe(StringBuilder out, List<Result.Unsafe> unsafe) {
        if (unsafe.isEmpty()) {
            return;
        }
        out.append('\n');
        unsafe.stream()
                .limit(LISTED)
                .forEach(
                        u ->
                                out.append("UNSAFE ")
                                        .append(u.scenario().id())
                                        .append(": after event ")
                                        .append(u.event())
                                        .append(" (line ")
                                        .append(u.scenario().events().get(u.event() - 1).fileLine())
                                        .append("): ")
                                        .append(u.findings().getFirst())
                                        .append('\n'));
        if (unsafe.size() > LISTED) {
            out.append("... and ")
                    .append(String.format("%,d", unsafe.size() - LISTED))
                    .append(" more unsafe scenarios (--junit FILE lists every scenario)\n");
        }
        Result.Unsafe shortest =
                unsafe.stream()
                        .min(Comparator.comparingInt(Result.Unsafe::event).thenComparing(u -> u.scenario().id()))
                        .orElseThrow();
        Scenario scenario = shortest.scenario();
        out.append(
                        unsafe.stream().allMatch(u -> u.verb().equals("published"))
                                ? "\nunsafe plans: "
                                : "\nunsafe answers: ")
                .append(String.format("%,d", unsafe.size()))
                .append(" scenario")
                .append(unsafe.size() == 1 ? "" : "s")
                .append("; shortest: ")
                .append(scenario.id())
                .append(" (")
                .append(scenario.file())
                .append(':')
                .append(scenario.line())
                .append("), ")
                .append(shortest.event())
                .append(" event")
                .append(shortest.event() == 1 ? "" : "s")
                .append(" after the topology:\n");
        out.append("      ").append(scenario.topology()).append('\n');
        for (String event : shortest.sent()) {
            out.append("      ").append(event).append('\n');
        }
        out.append("    the adapter ")
                .append(shortest.verb())
                .append(":\n      ")
                .append(shortest.plan().replace("\n", "\n      "))
                .append('\n');
        out.append("    which is unsafe:\n");
        shortest.findings().forEach(f -> out.append("      ").append(f).append('\n'));
    }

    /** Missed publications listed one by one: a few show the pattern, the counts by file the rest. */
    private static final int MISSED_LISTED = 5;

    private static void group(StringBuilder out, String rule, List<Result.Failed> failures, boolean shrunk) {
        Map<String, Integer> suites = new TreeMap<>();
        failures.forEach(f -> suites.merge(f.scenario().suite(), 1, Integer::sum));
        List<String> seen = new ArrayList<>();
        suites.forEach((suite, count) -> seen.add(suite + " " + count));
        out.append("  ")
                .append(rule)
                .append(": ")
                .append(String.format("%,d", failures.size()))
                .append(" scenario")
                .append(failures.size() == 1 ? "" : "s")
                .append(" (")
                .append(String.join(", ", seen.subList(0, Math.min(8, seen.size()))))
                .append(seen.size() > 8 ? ", and " + (seen.size() - 8) + " more files" : "")
                .append(")\n");
        Result.Failed shortest =
                failures.stream()
                        .min(Comparator.comparingInt(Result.Failed::events).thenComparing(f -> f.scenario().id()))
                        .orElseThrow();
        Scenario scenario = shortest.scenario();
        out.append("    shortest: ")
                .append(scenario.id())
                .append(" (")
                .append(scenario.file())
                .append(':')
                .append(scenario.line())
                .append(shrunk ? "), shrunk to " : "), not shrunk (--no-shrink), ")
                .append(shortest.events())
                .append(" event")
                .append(shortest.events() == 1 ? "" : "s")
                .append(" after the topology:\n");
        out.append("      ").append(scenario.topology()).append('\n');
        for (Scenario.Event event : scenario.events().subList(0, shortest.events())) {
            out.append("      ").append(event.line()).append('\n');
        }
        Result.Mismatch mismatch = shortest.shortest();
        out.append("    expected ").append(where(scenario, mismatch, shortest.events())).append(":\n");
        mismatch.expected().forEach(line -> out.append("      ").append(line).append('\n'));
        out.append("    adapter:\n");
        mismatch.actual().forEach(line -> out.append("      ").append(line).append('\n'));
    }

    /** Where a difference is: after which event of a run of {@code events} events. */
    static String where(Scenario scenario, Result.Mismatch mismatch, int events) {
        if (mismatch.event() == 0) {
            return "at the topology";
        }
        if (mismatch.event() > events) {
            return "in the summary after event " + events;
        }
        return "after event "
                + mismatch.event()
                + " (line "
                + scenario.events().get(mismatch.event() - 1).fileLine()
                + ")";
    }
}
