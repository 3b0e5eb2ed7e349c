package io.proofgate.audit;

import io.proofgate.words.Formats;

import java.util.List;

/** The audit report for a terminal: the verdict last, after what it rests on. */
public final class AuditText {

    private AuditText() {}

    /** The report; every line escaped as outside text ({@link io.proofgate.words.Outside#lines}). */
    public static String write(Audit.Report report) {
        return io.proofgate.words.Outside.lines(text(report));
    }

    private static String text(Audit.Report report) {
        StringBuilder out = new StringBuilder();
        out.append("proofgate audit: base ")
                .append(report.base().shortName())
                .append(", head ")
                .append(side(report.head()))
                .append('\n');
        out.append("models: ")
                .append(String.join(", ", report.models()))
                .append(
                        report.modelFilesDiffer().isEmpty()
                                ? " (the same model files at both revisions)"
                                : " (compared on the base's; the head's differ: "
                                        + String.join(", ", report.modelFilesDiffer())
                                        + ")")
                .append("\n\n");

        List<Safety> broken = report.broken();
        out.append("Safety (each model's invariants and properties, the head's spec on the base's models): ")
                .append(
                        broken.isEmpty()
                                ? "kept on " + count(report.safety().size(), "model")
                                : "BROKEN on " + count(broken.size(), "model") + " of " + report.safety().size())
                .append('\n');
        for (Safety s : broken) {
            Safety.Broken b = s.broken().orElseThrow();
            out.append("  [")
                    .append(s.fingerprint())
                    .append(", cannot be accepted] ")
                    .append(s.model())
                    .append(": ")
                    .append(b.kindName())
                    .append(' ')
                    .append(b.property())
                    .append(" holds at the base, violated at the head; counterexample, ")
                    .append(count(b.trace().size(), "state"))
                    .append(" (behaviour not compared on this model):\n");
            b.counterexample().lines().forEach(line -> out.append("    ").append(line).append('\n'));
        }
        out.append('\n');

        List<Difference> differences = report.differences();
        long reasons = differences.stream().filter(d -> d.kind() == Difference.Kind.REASON).count();
        out.append("Behaviour of the spec: ")
                .append(count(differences.size(), "difference"))
                .append(
                        differences.isEmpty()
                                ? ""
                                : " ("
                                        + (differences.size() - reasons)
                                        + " of verdicts, "
                                        + reasons
                                        + " of reasons only)")
                .append('\n');
        for (BehaviourDiff.Result r : report.behaviour()) {
            if (!r.complete()) {
                out.append("  ")
                        .append(r.model())
                        .append(": search stopped at ")
                        .append(r.pairs())
                        .append(" state pairs (--max-pairs); differences beyond them are not known\n");
            }
        }
        for (Difference d : differences) {
            out.append("  ")
                    .append(mark(report, d.fingerprint()))
                    .append(d.model())
                    .append("  ")
                    .append(d.className())
                    .append("  (")
                    .append(d.kind().wireName())
                    .append(")\n");
            out.append("      seen at ")
                    .append(count(d.occurrences(), "transition"))
                    .append(" of the product: ")
                    .append(String.join("; ", d.seenIn()))
                    .append('\n');
            out.append("      shortest witness, ").append(count(d.events(), "event")).append(" after the topology:\n");
            d.witness().forEach(line -> out.append("        ").append(line).append('\n'));
            out.append("      base: ").append(verdicts(d.baseTakes(), d.baseVerdicts())).append('\n');
            out.append("      head: ").append(verdicts(d.headTakes(), d.headVerdicts())).append('\n');
        }

        List<ImplementationCheck.Finding> findings = report.implementationFindings();
        out.append("\nImplementation: ");
        for (ImplementationCheck.Class kind : ImplementationCheck.Class.values()) {
            out.append(findings.stream().filter(f -> f.kind() == kind).count())
                    .append(' ')
                    .append(kind.wireName())
                    .append(kind.ordinal() < 2 ? ", " : "");
        }
        int logs = report.implementation().stream().mapToInt(ImplementationCheck.Result::logs).sum();
        int oneSided = report.implementation().stream().mapToInt(ImplementationCheck.Result::oneSidedLogs).sum();
        int replayed = report.implementation().stream().mapToInt(ImplementationCheck.Result::replayed).sum();
        out.append(" (")
                .append(logs)
                .append(
                        replayed == logs - oneSided
                                ? " logs through both validators"
                                : " logs; both revisions' validators are built from the same sources, so only the "
                                        + replayed
                                        + " the specs answer differently went through them");
        out.append(oneSided > 0 ? "; " + oneSided + " only one spec's environment sends, not compared" : "")
                .append(")\n");
        for (ImplementationCheck.Finding f : findings) {
            out.append("  ")
                    .append(mark(report, f.fingerprint()))
                    .append(f.kind().wireName())
                    .append(' ')
                    .append(f.model())
                    .append(" (")
                    .append(count(f.logs(), "log"))
                    .append("): ")
                    .append(f.difference())
                    .append('\n');
            out.append("      shortest log:\n");
            f.log().forEach(line -> out.append("        ").append(line).append('\n'));
        }

        out.append("\nNamespace impact: ");
        if (!report.namespaceImpact()) {
            out.append("none (");
            out.append(
                    String.join(
                            ", ",
                            report.namespace().stream().map(s -> s.name() + " " + s.probes() + " probes").toList()));
            out.append(" of " + Formats.NAMESPACE + ", all byte-identical)\n");
        } else {
            out.append("CHANGED\n");
            for (Audit.SurfaceChange s : report.namespace()) {
                out.append("  ")
                        .append(s.changed() > 0 ? mark(report, s.fingerprint()) : "")
                        .append(s.name())
                        .append(": ")
                        .append(s.changed())
                        .append(" of ")
                        .append(s.probes())
                        .append(" probes changed\n");
                if (s.changed() > 0) {
                    out.append("      base: ")
                            .append(s.firstBase())
                            .append("\n      head: ")
                            .append(s.firstHead())
                            .append('\n');
                }
            }
        }

        out.append(
                "\n"
                    + "Model bounds (distinct states, base -> head on the base's models; the head's own models, edges,"
                    + " scenarios):\n");
        for (ModelSizes m : report.counts()) {
            out.append("  ")
                    .append(m.name())
                    .append(' ')
                    .append(m.baseStates())
                    .append(" -> ")
                    .append(m.headOnBaseStates())
                    .append(
                            m.baseStates() != m.headOnBaseStates()
                                            && differences.stream().noneMatch(d -> d.model().equals(m.name()))
                                    ? " (changed with no behaviour difference: bounds or bookkeeping changed)"
                                    : "")
                    .append("; own: ")
                    .append(
                            m.headStates() < 0
                                    ? "none"
                                    : m.baseStates()
                                            + " -> "
                                            + m.headStates()
                                            + " states, "
                                            + m.baseEdges()
                                            + " -> "
                                            + m.headEdges()
                                            + " edges, "
                                            + m.baseScenarios()
                                            + " -> "
                                            + m.headScenarios()
                                            + " scenarios")
                    .append('\n');
        }
        for (ModelSizes.Finding finding : report.modelFindings()) {
            out.append("  ")
                    .append(mark(report, finding.fingerprint()))
                    .append(finding.model())
                    .append(": ")
                    .append(finding.what())
                    .append('\n');
        }
        for (String stale : report.staleAcceptances()) {
            out.append("\nstale acceptance: ")
                    .append(stale)
                    .append(" in ")
                    .append(Accepted.FILE)
                    .append(" matches no finding of this audit; remove it\n");
        }
        if (!report.acceptedByChange().isEmpty()) {
            out.append("\naccepted by this change, needs a reviewer: ")
                    .append(String.join(", ", report.acceptedByChange()))
                    .append(
                            report.approvals().fromHead()
                                    ? " (taken as accepted: --accept-from-head)"
                                    : " (acceptances are read from the base: still unaccepted)")
                    .append('\n');
        }
        List<String> open = report.unaccepted();
        if (!report.incomplete().isEmpty()) {
            out.append("\nVerdict: not judged: the behaviour search stopped at --max-pairs on ")
                    .append(String.join(", ", report.incomplete()))
                    .append(" (raise --max-pairs, or audit fewer models)\n");
            return out.toString();
        }
        out.append('\n')
                .append(
                        open.isEmpty()
                                ? "Verdict: no unaccepted semantic change\n"
                                : "Verdict: "
                                        + count(open.size(), "unaccepted semantic change")
                                        + " (accept one by adding its fingerprint"
                                        + " with a justification to "
                                        + Accepted.FILE
                                        + ")\n");
        return out.toString();
    }

    static String side(Revision revision) {
        return revision.name().equals(Revision.WORKTREE)
                ? "the working tree (on "
                        + revision.commit().substring(0, 7)
                        + ", "
                        + count(revision.uncommitted().size(), "uncommitted file")
                        + ")"
                : revision.shortName();
    }

    private static String mark(Audit.Report report, String fingerprint) {
        return "[" + fingerprint + (report.accepted(fingerprint) ? ", accepted" : "") + "] ";
    }

    static String verdicts(boolean takes, List<String> verdicts) {
        return !takes
                ? "does not take the last event (its environment never sends it)"
                : verdicts.isEmpty() ? "no verdict" : String.join("; ", verdicts);
    }

    static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
