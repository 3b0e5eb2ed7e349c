package io.proofgate.audit;

import java.util.ArrayList;
import java.util.List;

/**
 * The audit report as a pull-request comment: the verdict and a table first, then one row per finding, each witness in
 * a collapsed block. It stays below GitHub's comment size limit: blocks that would pass it are left out, and the
 * comment says how many (the JSON report has them all).
 */
public final class AuditMarkdown {

    /** GitHub refuses comments over 65,536 characters; keep room for the closing note. */
    static final int LIMIT = 65_000;

    private AuditMarkdown() {}

    public static String write(Audit.Report report) {
        List<String> open = report.unaccepted();
        List<Difference> differences = report.differences();
        List<ImplementationCheck.Finding> findings = report.implementationFindings();
        StringBuilder head = new StringBuilder();
        head.append("## proofgate audit: ")
                .append(
                        !report.incomplete().isEmpty()
                                ? "not judged (the behaviour search stopped at --max-pairs)"
                                : open.isEmpty()
                                        ? "no unaccepted semantic change"
                                        : AuditText.count(open.size(), "unaccepted semantic change"))
                .append("\n\n");
        head.append("base `")
                .append(report.base().shortName())
                .append("` → head ")
                .append(
                        report.head().name().equals(Revision.WORKTREE)
                                ? "the working tree"
                                : "`" + report.head().shortName() + "`")
                .append(" · models: ")
                .append(String.join(", ", report.models()))
                .append(
                        report.modelFilesDiffer().isEmpty()
                                ? ""
                                : " (compared on the base's; the head's differ: "
                                        + String.join(", ", report.modelFilesDiffer())
                                        + ")")
                .append("\n\n");
        long reasons = differences.stream().filter(d -> d.kind() == Difference.Kind.REASON).count();
        head.append("| question | answer | unaccepted |\n|---|---|---|\n");
        head.append("| safety (invariants and properties) | ")
                .append(
                        report.broken().isEmpty()
                                ? "kept on " + AuditText.count(report.safety().size(), "model")
                                : "**broken** on "
                                        + String.join(
                                                ", ",
                                                report.broken().stream()
                                                        .map(
                                                                s ->
                                                                        s.model()
                                                                                + " ("
                                                                                + s.broken().orElseThrow().property()
                                                                                + ")")
                                                        .toList()))
                .append(" | ")
                .append(report.broken().size())
                .append(" |\n");
        head.append("| behaviour of the spec | ")
                .append(differences.size() - reasons)
                .append(" verdict, ")
                .append(reasons)
                .append(" reason-only difference classes")
                .append(
                        report.behaviour().stream().allMatch(BehaviourDiff.Result::complete)
                                ? ""
                                : " (search incomplete)")
                .append(" | ")
                .append(differences.stream().filter(d -> !report.accepted(d.fingerprint())).count())
                .append(" |\n");
        head.append("| implementation | ");
        List<String> parts = new ArrayList<>();
        for (ImplementationCheck.Class kind : ImplementationCheck.Class.values()) {
            parts.add(findings.stream().filter(f -> f.kind() == kind).count() + " " + kind.wireName());
        }
        head.append(String.join(", ", parts))
                .append(" | ")
                .append(
                        findings.stream()
                                .filter(
                                        f ->
                                                f.kind() != ImplementationCheck.Class.EXPLAINED
                                                        && !report.accepted(f.fingerprint()))
                                .count())
                .append(" |\n");
        head.append("| namespace impact | ")
                .append(report.namespaceImpact() ? "**changed**: " : "none: ")
                .append(
                        String.join(
                                ", ",
                                report.namespace().stream()
                                        .map(s -> s.name() + " " + s.changed() + "/" + s.probes() + " probes changed")
                                        .toList()))
                .append(" | ")
                .append(
                        report.namespace().stream()
                                .filter(s -> s.changed() > 0 && !report.accepted(s.fingerprint()))
                                .count())
                .append(" |\n");
        head.append("| model bounds (distinct states, the head's own) | ")
                .append(
                        String.join(
                                ", ",
                                report.counts().stream()
                                        .map(
                                                m ->
                                                        m.name()
                                                                + " "
                                                                + m.baseStates()
                                                                + (m.baseStates() == m.headStates()
                                                                        ? ""
                                                                        : " → " + m.headStates()))
                                        .toList()))
                .append(
                        report.modelFindings().isEmpty()
                                ? ""
                                : "; "
                                        + String.join(
                                                "; ",
                                                report.modelFindings().stream()
                                                        .map(
                                                                f ->
                                                                        "`"
                                                                                + f.fingerprint()
                                                                                + "` "
                                                                                + escape(f.model() + ": " + f.what()))
                                                        .toList()))
                .append(" | ")
                .append(report.modelFindings().stream().filter(f -> !report.accepted(f.fingerprint())).count())
                .append(" |\n\n");

        List<String> blocks = new ArrayList<>();
        for (Safety s : report.broken()) {
            Safety.Broken b = s.broken().orElseThrow();
            blocks.add(
                    "<details open><summary><code>"
                            + s.fingerprint()
                            + "</code> safety broken on "
                            + escape(s.model())
                            + ": "
                            + b.kindName()
                            + " "
                            + escape(b.property())
                            + " (counterexample of "
                            + AuditText.count(b.trace().size(), "state")
                            + "; cannot be accepted)</summary>\n\n```\n"
                            + b.counterexample()
                            + "```\n\n</details>\n");
        }
        for (Difference d : differences) {
            StringBuilder block = new StringBuilder();
            block.append("<details><summary><code>")
                    .append(d.fingerprint())
                    .append("</code> ")
                    .append(report.accepted(d.fingerprint()) ? "(accepted) " : "")
                    .append(escape(d.model() + ": " + d.className()))
                    .append(" (")
                    .append(d.kind().wireName())
                    .append(", ")
                    .append(AuditText.count(d.events(), "event"))
                    .append(")</summary>\n\nSeen at ")
                    .append(AuditText.count(d.occurrences(), "transition"))
                    .append(": ")
                    .append(escape(String.join("; ", d.seenIn())))
                    .append(".\n\n```json\n");
            d.witness().forEach(line -> block.append(line).append('\n'));
            block.append("```\n\n- base: ")
                    .append(code(AuditText.verdicts(d.baseTakes(), d.baseVerdicts())))
                    .append("\n- head: ")
                    .append(code(AuditText.verdicts(d.headTakes(), d.headVerdicts())));
            acceptance(report, d.fingerprint(), block);
            blocks.add(block.append("\n</details>\n").toString());
        }
        for (ImplementationCheck.Finding f : findings) {
            StringBuilder block = new StringBuilder();
            block.append("<details><summary><code>")
                    .append(f.fingerprint())
                    .append("</code> ")
                    .append(report.accepted(f.fingerprint()) ? "(accepted) " : "")
                    .append("implementation ")
                    .append(f.kind().wireName())
                    .append(" on ")
                    .append(f.model())
                    .append(" (")
                    .append(AuditText.count(f.logs(), "log"))
                    .append(")</summary>\n\n")
                    .append(escape(f.difference()))
                    .append("\n\n```json\n");
            f.log().forEach(line -> block.append(line).append('\n'));
            block.append("```\n");
            acceptance(report, f.fingerprint(), block);
            blocks.add(block.append("\n</details>\n").toString());
        }
        for (Audit.SurfaceChange s : report.namespace()) {
            if (s.changed() > 0) {
                StringBuilder block =
                        new StringBuilder(
                                "<details><summary><code>"
                                        + s.fingerprint()
                                        + "</code> namespace "
                                        + s.name()
                                        + ": "
                                        + s.changed()
                                        + " of "
                                        + s.probes()
                                        + " probes changed</summary>\n\n"
                                        + "- base: "
                                        + code(s.firstBase())
                                        + "\n- head: "
                                        + code(s.firstHead()));
                acceptance(report, s.fingerprint(), block);
                blocks.add(block.append("\n</details>\n").toString());
            }
        }
        StringBuilder out = new StringBuilder(head);
        int left = 0;
        for (String block : blocks) {
            if (out.length() + block.length() > LIMIT) {
                left++;
            } else {
                out.append(block);
            }
        }
        if (left > 0) {
            out.append("\n")
                    .append(left)
                    .append(
                            " more findings are not shown (comment size limit): run"
                                    + " `proofgate audit --format json` for all of them.\n");
        }
        if (!report.acceptedByChange().isEmpty()) {
            out.append("\nAccepted by this change, needs a reviewer: `")
                    .append(String.join("`, `", report.acceptedByChange()))
                    .append("` (acceptances are read from the base)\n");
        }
        if (!report.incomplete().isEmpty()) {
            out.append("\n**Not judged**: the behaviour search stopped at `--max-pairs` on ")
                    .append(String.join(", ", report.incomplete()))
                    .append(".\n");
        }
        for (String stale : report.staleAcceptances()) {
            out.append("\nStale acceptance `")
                    .append(stale)
                    .append("` in `")
                    .append(Accepted.FILE)
                    .append("`: no finding has it; remove it.\n");
        }
        if (!open.isEmpty()) {
            out.append("\nAccept an intended change by adding its fingerprint with a justification to `")
                    .append(Accepted.FILE)
                    .append("`.\n");
        }
        return out.toString();
    }

    private static void acceptance(Audit.Report report, String fingerprint, StringBuilder block) {
        String why = report.justification(fingerprint);
        if (why != null) {
            block.append("\n- accepted: ").append(escape(why));
        }
    }

    private static String code(String text) {
        return "`" + text.replace("`", "'") + "`";
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
