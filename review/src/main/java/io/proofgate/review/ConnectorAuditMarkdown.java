package io.proofgate.review;

import io.proofgate.audit.Approvals;
import io.proofgate.conform.Json;

/**
 * The connector audit as a pull-request comment: a one-line verdict, a table of the classes (kind, against the model,
 * count, accepted), then each witness in a collapsed block. Blocks are left out past GitHub's comment limit, saying how
 * many.
 */
public final class ConnectorAuditMarkdown {

    /** GitHub refuses comments over 65,536 characters; leave room for the closing lines. */
    private static final int LIMIT = 60_000;

    private ConnectorAuditMarkdown() {}

    public static String write(ConnectorAuditReport report) {
        StringBuilder out = new StringBuilder();
        out.append("## proofgate audit: ").append(report.verdict()).append("\n\n");
        out.append("base `")
                .append(ConnectorAuditText.shortName(report.base()))
                .append("` → head `")
                .append(ConnectorAuditText.shortName(report.head()))
                .append("` · adapter `")
                .append(code(report.head().command()))
                .append("`\n\n");
        out.append(
                String.format(
                        "%,d scenarios: %,d the same, %,d differ, %s, %,d errors%n%n",
                        report.run().outcomes().size(),
                        report.same(),
                        report.differing(),
                        report.notRun(),
                        report.errors().size()));
        if (!report.classes().isEmpty()) {
            out.append("| class | kind | against the model | scenarios | accepted |\n|---|---|---|---|---|\n");
            for (DifferenceClass c : report.classes()) {
                out.append("| `")
                        .append(c.fingerprint())
                        .append("` ")
                        .append(cell(c.first().rule()))
                        .append(" | ")
                        .append(c.first().kind().words())
                        .append(" | ")
                        .append(c.first().judgement().words())
                        .append(" | ")
                        .append(String.format("%,d", c.scenarios()))
                        .append(" | ")
                        .append(
                                switch (report.approval(c.fingerprint())) {
                                    case Approvals.ByBase b -> "yes";
                                    case Approvals.ByChange ch -> "by this change, needs a reviewer";
                                    case Approvals.Open o -> "**no**";
                                })
                        .append(" |\n");
            }
            out.append('\n');
        }
        int left = 0;
        for (DifferenceClass c : report.classes()) {
            StringBuilder block = new StringBuilder();
            Comparison.Differs d = c.first();
            block.append("<details><summary><code>")
                    .append(c.fingerprint())
                    .append("</code> ")
                    .append(html(d.rule()))
                    .append(" (")
                    .append(d.judgement().words())
                    .append(", ")
                    .append(c.events())
                    .append(c.events() == 1 ? " event" : " events")
                    .append(")</summary>\n\n");
            block.append("Witness `").append(code(c.witness().id())).append("`:\n\n```\n");
            c.witnessLines().forEach(line -> block.append(line).append('\n'));
            block.append("```\n\n");
            String at = d.message() > c.events() ? "the summary" : "event " + d.message();
            lines(block, "base, after " + at, d.base());
            lines(block, "head", d.head());
            lines(block, "model", d.model());
            block.append(ConnectorAuditText.status(report, c.fingerprint())).append("\n</details>\n\n");
            if (out.length() + block.length() > LIMIT) {
                left++;
            } else {
                out.append(block);
            }
        }
        if (left > 0) {
            out.append(left)
                    .append(" witness")
                    .append(left == 1 ? " is" : "es are")
                    .append(" left out to stay under GitHub's comment limit (`--format json` has every one).\n\n");
        }
        for (var dropped : report.dropped()) {
            String fingerprint = dropped.fingerprint();
            out.append("The head no longer declares `")
                    .append(dropped.text())
                    .append("` (`")
                    .append(fingerprint)
                    .append("`): ")
                    .append(ConnectorAuditText.status(report, fingerprint))
                    .append("\n\n");
        }
        if (!report.judged()) {
            out.append("**Not judged.** ")
                    .append(
                            report.errors().isEmpty()
                                    ? ""
                                    : "First error: `" + code(report.errors().getFirst().message()) + "`")
                    .append('\n');
        }
        out.append("\n```\n").append(ConnectorAuditText.namespace(report)).append("\n```\n");
        return out.toString();
    }

    private static void lines(StringBuilder block, String title, java.util.List<String> lines) {
        block.append(title).append(":\n\n```\n");
        lines.forEach(line -> block.append(line.replace("```", "'''")).append('\n'));
        block.append("```\n\n");
    }

    private static String cell(String text) {
        return html(text).replace("|", "\\|");
    }

    /**
     * Outside text for a code span: control characters escaped as Json.excerpt does, quotes as they are, no backtick.
     */
    private static String code(String text) {
        String quoted = Json.excerpt(text);
        return quoted.substring(1, quoted.length() - 1).replace("\\\"", "\"").replace("`", "'");
    }

    private static String html(String text) {
        return code(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
