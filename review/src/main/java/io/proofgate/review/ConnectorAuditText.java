package io.proofgate.review;

import io.proofgate.audit.Approvals;
import io.proofgate.conform.Json;
import io.proofgate.conform.Line;
import io.proofgate.words.Capability;
import io.proofgate.words.Formats;

import java.util.List;

/** The terminal report of a connector audit; it ends with the verdict. */
public final class ConnectorAuditText {

    /** Errors listed in full; the JSON report has every one. */
    private static final int ERRORS_SHOWN = 20;

    private ConnectorAuditText() {}

    /** The report; every line escaped as outside text ({@link io.proofgate.words.Outside#lines}). */
    public static String write(ConnectorAuditReport report) {
        return io.proofgate.words.Outside.lines(text(report));
    }

    private static String text(ConnectorAuditReport report) {
        StringBuilder out = new StringBuilder();
        ConnectorAudit.Run run = report.run();
        out.append("proofgate audit-connector: base ")
                .append(side(report.base()))
                .append(", head ")
                .append(side(report.head()))
                .append('\n');
        out.append("adapters: base ")
                .append(hello(run.base()))
                .append("; head ")
                .append(hello(run.head()))
                .append('\n');
        if (!report.head().uncommitted().isEmpty()) {
            out.append("uncommitted at head: ")
                    .append(String.join(", ", report.head().uncommitted().stream().map(Json::excerpt).toList()))
                    .append('\n');
        }
        out.append(
                String.format(
                        "scenarios: %,d: %,d the same, %,d differ, %s, %,d errors%n",
                        run.outcomes().size(),
                        report.same(),
                        report.differing(),
                        report.notRun(),
                        report.errors().size()));
        out.append('\n');
        List<DifferenceClass> classes = report.classes();
        long safety = report.count(ModelJudgement.SAFETY_REGRESSION) + report.count(ModelJudgement.SAFETY_FIX);
        out.append("Differences: ")
                .append(classes.size())
                .append(classes.size() == 1 ? " class" : " classes")
                .append(
                        safety == 0
                                ? " ("
                                : String.format(
                                        " (%d safety regression, %d safety fix, ",
                                        report.count(ModelJudgement.SAFETY_REGRESSION),
                                        report.count(ModelJudgement.SAFETY_FIX)))
                .append(
                        String.format(
                                "%d fix, %d regression, %d both differ from the model, %d model silent)%n",
                                report.count(ModelJudgement.FIX),
                                report.count(ModelJudgement.REGRESSION),
                                report.count(ModelJudgement.BOTH_DIFFER),
                                report.count(ModelJudgement.MODEL_SILENT)));
        for (DifferenceClass c : classes) {
            Comparison.Differs d = c.first();
            out.append("  [")
                    .append(c.fingerprint())
                    .append("] ")
                    .append(d.judgement().words())
                    .append(", ")
                    .append(d.kind().words())
                    .append(": ")
                    .append(d.rule())
                    .append(String.format(" (%,d scenario%s)%n", c.scenarios(), c.scenarios() == 1 ? "" : "s"));
            out.append("      seen in ").append(seenIn(c.seenIn())).append('\n');
            out.append("      shortest witness: ")
                    .append(c.witness().id())
                    .append(" (")
                    .append(c.witness().file())
                    .append(':')
                    .append(c.witness().line())
                    .append("), ")
                    .append(c.events())
                    .append(c.events() == 1 ? " event" : " events")
                    .append(" after the topology:\n");
            c.witnessLines().forEach(line -> out.append("        ").append(line).append('\n'));
            String at = d.message() > c.events() ? "the summary" : "event " + d.message();
            out.append("      base after ").append(at).append(":\n");
            d.base().forEach(line -> out.append("        ").append(line).append('\n'));
            out.append("      head:\n");
            d.head().forEach(line -> out.append("        ").append(line).append('\n'));
            out.append("      model:\n");
            d.model().forEach(line -> out.append("        ").append(line).append('\n'));
            out.append("      ").append(status(report, c.fingerprint())).append('\n');
        }
        if (!report.refusedByOne().isEmpty()) {
            out.append("\nRefused by one revision only (not comparable): ")
                    .append(report.refusedByOne().size())
                    .append('\n');
            report.refusedByOne().stream()
                    .limit(ERRORS_SHOWN)
                    .forEach(
                            o -> {
                                Comparison.OneRefused r = (Comparison.OneRefused) o.comparison();
                                out.append("  ")
                                        .append(o.scenario().id())
                                        .append(": the ")
                                        .append(r.side())
                                        .append(" revision refused message ")
                                        .append(r.message())
                                        .append(": ")
                                        .append(Json.excerpt(r.refusal()))
                                        .append('\n');
                            });
        }
        if (!report.refusedByBoth().isEmpty()) {
            out.append("\nRefused by both revisions (not compared): ")
                    .append(String.format("%,d", report.refusedByBoth().size()))
                    .append('\n');
            report.refusedByBoth().stream()
                    .limit(ERRORS_SHOWN)
                    .forEach(
                            o -> {
                                Comparison.BothRefused r = (Comparison.BothRefused) o.comparison();
                                out.append("  ")
                                        .append(o.scenario().id())
                                        .append(": both revisions refused message ")
                                        .append(r.message())
                                        .append(": base ")
                                        .append(Json.excerpt(r.base()))
                                        .append(", head ")
                                        .append(Json.excerpt(r.head()))
                                        .append('\n');
                            });
            andMore(out, report.refusedByBoth().size());
        }
        if (!report.reproducible()) {
            out.append("\nNot reproducible (asked again, an adapter answered otherwise: no difference is a finding): ")
                    .append(report.notReproducible())
                    .append('\n');
        }
        if (!report.errors().isEmpty()) {
            out.append("\nErrors (the scenario could not be judged): ")
                    .append(String.format("%,d", report.errors().size()))
                    .append('\n');
            report.errors().stream()
                    .limit(ERRORS_SHOWN)
                    .forEach(e -> out.append("  ").append(e.message()).append('\n'));
            andMore(out, report.errors().size());
        }
        if (!report.dropped().isEmpty()) {
            out.append("\nDeclarations the head drops (what the base was checked on and the head is not):\n");
            for (ConnectorAuditReport.Dropped dropped : report.dropped()) {
                String fingerprint = dropped.fingerprint();
                out.append("  [")
                        .append(fingerprint)
                        .append("] ")
                        .append(dropped.text())
                        .append(": ")
                        .append(status(report, fingerprint))
                        .append('\n');
            }
        }
        List<String> byChange =
                report.classes().stream()
                        .filter(c -> report.approval(c.fingerprint()) instanceof Approvals.ByChange)
                        .map(DifferenceClass::fingerprint)
                        .toList();
        if (!byChange.isEmpty()) {
            out.append("\nAccepted by this change, needs a reviewer: ")
                    .append(String.join(", ", byChange))
                    .append(
                            report.approvals().fromHead()
                                    ? " (taken as accepted: --accept-from-head)"
                                    : " (still unaccepted)")
                    .append('\n');
        }
        if (!report.stale().isEmpty()) {
            out.append("\nStale acceptances at the base (no difference has them): ")
                    .append(String.join(", ", report.stale()))
                    .append('\n');
        }
        out.append('\n').append(namespace(report)).append('\n');
        out.append('\n').append(report.verdict()).append('\n');
        return out.toString();
    }

    /** The namespace section: per name, identical on every probe or changed with its first probe and both values. */
    static String namespace(ConnectorAuditReport report) {
        NamespaceRun.Result namespace = report.namespace();
        if (!namespace.computed()) {
            return "Namespace impact: not computed (" + namespace.why() + ")";
        }
        StringBuilder out = new StringBuilder("Namespace impact: ");
        List<io.proofgate.namespace.NamespaceImpact.Name> changed = namespace.changed();
        out.append(changed.isEmpty() ? "none" : "changed")
                .append(" (")
                .append(String.format("%,d", namespace.probes()))
                .append(" probes of ")
                .append(Formats.NAMESPACE)
                .append(")\n");
        for (var name : namespace.names()) {
            if (name.changed() == 0) {
                out.append("  ")
                        .append(name.name())
                        .append(": identical on every probe (")
                        .append(String.format("%,d", name.probes()))
                        .append(")\n");
                continue;
            }
            String fingerprint = NamespaceRun.Result.fingerprint(name);
            out.append("  [")
                    .append(fingerprint)
                    .append("] ")
                    .append(name.name())
                    .append(": changed on ")
                    .append(String.format("%,d of %,d probes", name.changed(), name.probes()))
                    .append(", first on ")
                    .append(name.firstProbe())
                    .append('\n');
            out.append("      base: ")
                    .append(Json.excerpt(io.proofgate.namespace.NamespaceImpact.shown(name.base())))
                    .append('\n');
            out.append("      head: ")
                    .append(Json.excerpt(io.proofgate.namespace.NamespaceImpact.shown(name.head())))
                    .append('\n');
            out.append("      ").append(status(report, fingerprint)).append('\n');
        }
        for (String probe : namespace.refusedByOne()) {
            out.append("  not comparable: ").append(probe).append('\n');
        }
        namespace.refusedByBoth().stream()
                .limit(ERRORS_SHOWN)
                .forEach(probe -> out.append("  not compared: ").append(probe).append('\n'));
        if (namespace.refusedByBoth().size() > ERRORS_SHOWN) {
            out.append(
                    String.format(
                            "  ... and %,d more probes both refused%n",
                            namespace.refusedByBoth().size() - ERRORS_SHOWN));
        }
        out.setLength(out.length() - 1);
        return out.toString();
    }

    /** The line for what a list of {@code total} shows no more of, past {@link #ERRORS_SHOWN}. */
    private static void andMore(StringBuilder out, int total) {
        if (total > ERRORS_SHOWN) {
            out.append(String.format("  ... and %,d more (--format json lists every one)%n", total - ERRORS_SHOWN));
        }
    }

    static String status(ConnectorAuditReport report, String fingerprint) {
        if (report.isSafetyRegression(fingerprint)) {
            return "not accepted: a safety regression, which no acceptance removes";
        }
        return switch (report.approval(fingerprint)) {
            case Approvals.ByBase b -> "accepted: " + Json.excerpt(b.justification());
            case Approvals.ByChange c ->
                    "accepted by this change, needs a reviewer: " + Json.excerpt(c.justification());
            case Approvals.Open o -> "not accepted";
        };
    }

    static String side(ConnectorAuditReport.Side side) {
        return shortName(side) + " (" + Json.excerpt(side.command()) + ")";
    }

    /** A commit's seven hex digits, or the side's name (worktree, base, head). */
    static String shortName(ConnectorAuditReport.Side side) {
        return side.commit() != null && side.name().equals(side.commit()) ? side.name().substring(0, 7) : side.name();
    }

    static String hello(Line.Hello hello) {
        return Json.excerpt(hello.implementation())
                + " ["
                + String.join(", ", hello.capabilities().stream().map(Capability::wireName).toList())
                + "]";
    }

    static String seenIn(List<String> files) {
        int shown = Math.min(8, files.size());
        return String.join(", ", files.subList(0, shown))
                + (files.size() > shown ? " and " + (files.size() - shown) + " more" : "");
    }
}
