package io.proofgate.review;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.proofgate.audit.Approvals;
import io.proofgate.audit.SarifLog;
import io.proofgate.namespace.NamespaceImpact;

import java.util.List;

/**
 * The connector audit as SARIF 2.1.0, for code scanning: one result per difference class and per changed namespace
 * name, its fingerprint as {@code partialFingerprints} (the spec audit's key), located at the files the change touched;
 * an accepted one carries its justification as an external suppression.
 */
public final class ConnectorAuditSarif {

    /**
     * Every finding that counts toward exit 1 is an {@code error}: a code-scanning check that fails on errors (GitHub's
     * default) fails where the audit does; an accepted one is a {@code note} (SarifLog).
     */
    private static final String[][] RULES = {
        {
            "connector-safety_regression",
            "The head publishes a block that does not hold its prefix; the base did not",
            "error"
        },
        {
            "connector-safety_fix",
            "The base published a block that did not hold its prefix; the head no longer does",
            "error"
        },
        {"connector-fix", "The head now says what the model says; the base did not", "error"},
        {"connector-regression", "The base said what the model says; the head does not", "error"},
        {"connector-both_differ", "Both revisions differ from the model, differently", "error"},
        {"connector-model_silent", "The revisions differ where the model states nothing", "error"},
        {"connector-namespace", "What stored data means or where it is found changed", "error"},
        {
            "connector-declaration",
            "The head no longer declares a capability or the connector policy the base declares: fewer checks",
            "error"
        },
    };

    private ConnectorAuditSarif() {}

    public static String write(ConnectorAuditReport report) {
        SarifLog log = new SarifLog("proofgate audit-connector", RULES);
        for (DifferenceClass c : report.classes()) {
            Comparison.Differs d = c.first();
            result(
                    log,
                    "connector-" + d.judgement().wireName(),
                    d.kind().words()
                            + ": "
                            + d.rule()
                            + " ("
                            + c.scenarios()
                            + " scenario"
                            + (c.scenarios() == 1 ? "" : "s")
                            + "; shortest witness "
                            + c.witness().id()
                            + ", "
                            + c.events()
                            + " event"
                            + (c.events() == 1 ? "" : "s")
                            + ")",
                    c.fingerprint(),
                    report);
        }
        for (NamespaceImpact.Name name : report.namespace().changed()) {
            result(
                    log,
                    "connector-namespace",
                    name.name()
                            + ": changed on "
                            + name.changed()
                            + " of "
                            + name.probes()
                            + " probes; first "
                            + name.firstProbe()
                            + ": base "
                            + NamespaceImpact.shown(name.base())
                            + ", head "
                            + NamespaceImpact.shown(name.head()),
                    NamespaceRun.Result.fingerprint(name),
                    report);
        }
        for (var dropped : report.dropped()) {
            result(
                    log,
                    "connector-declaration",
                    "the head no longer declares " + dropped.text() + ": what it gates is not checked at the head",
                    dropped.fingerprint(),
                    report);
        }
        if (!report.judged()) {
            log.notJudged(report.verdict());
        }
        return log.write();
    }

    private static void result(
            SarifLog log, String rule, String message, String fingerprint, ConnectorAuditReport report) {
        String why =
                switch (report.approval(fingerprint)) {
                    case Approvals.ByBase b -> b.justification();
                    case Approvals.ByChange c -> report.approvals().fromHead() ? c.justification() : null;
                    case Approvals.Open o -> null;
                };
        ObjectNode result = log.result(rule, message, fingerprint, why);
        List<String> files = report.changedFiles();
        if (!files.isEmpty()) {
            ArrayNode locations = result.putArray("locations");
            for (String file : files) {
                locations.addObject().putObject("physicalLocation").putObject("artifactLocation").put("uri", file);
            }
        }
    }
}
