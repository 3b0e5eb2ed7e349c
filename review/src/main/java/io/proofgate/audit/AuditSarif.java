package io.proofgate.audit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * The audit report as SARIF 2.1.0, for code scanning: one result per finding, located at the TLA+ definitions that
 * changed (behaviour) or the validator sources that changed (implementation), with the finding's fingerprint as its
 * partial fingerprint so that a result keeps its identity across pushes. Accepted findings carry an external
 * suppression with the reviewers' justification.
 */
public final class AuditSarif {

    public static final String FINGERPRINT_KEY = SarifLog.FINGERPRINT_KEY;

    /**
     * Every finding that counts toward exit 1 is an {@code error}: a code-scanning check that fails on errors (GitHub's
     * default) fails where the audit does; an accepted one is a {@code note} (SarifLog).
     */
    private static final String[][] RULES = {
        {"safety-broken", "The head's spec violates an invariant or property the base's passes", "error"},
        {"behaviour-verdict", "The spec's verdicts changed", "error"},
        {"behaviour-reason", "The spec's rejection reasons changed (verdicts kept)", "error"},
        {"implementation-not_followed", "The spec changed and the validator does not follow it", "error"},
        {"implementation-unexplained", "The validator changed where the spec did not", "error"},
        {"implementation-explained", "The validator follows a spec change", "note"},
        {"namespace-impact", "What decides a published prefix's target or blocks changed", "error"},
        {
            "model-shrunk",
            "A model of the head is smaller than the base's, checks less, or is not what its models.json records",
            "error"
        },
    };

    private AuditSarif() {}

    public static String write(Audit.Report report) {
        SarifLog log = new SarifLog("proofgate audit", RULES);
        for (Safety s : report.broken()) {
            Safety.Broken b = s.broken().orElseThrow();
            ObjectNode result =
                    result(
                            log,
                            "safety-broken",
                            s.model()
                                    + ": "
                                    + b.kindName()
                                    + " "
                                    + b.property()
                                    + " violated (counterexample of "
                                    + AuditText.count(b.trace().size(), "state")
                                    + ")",
                            s.fingerprint(),
                            report);
            locate(result, report.specChanges(), "spec/Publication.tla");
        }
        for (Difference d : report.differences()) {
            String rule = d.kind() == Difference.Kind.VERDICT ? "behaviour-verdict" : "behaviour-reason";
            ObjectNode result =
                    result(
                            log,
                            rule,
                            d.model()
                                    + ": "
                                    + d.className()
                                    + " (witness of "
                                    + AuditText.count(d.events(), "event")
                                    + "; base: "
                                    + AuditText.verdicts(d.baseTakes(), d.baseVerdicts())
                                    + "; head: "
                                    + AuditText.verdicts(d.headTakes(), d.headVerdicts())
                                    + ")",
                            d.fingerprint(),
                            report);
            locate(result, report.specChanges(), "spec/Publication.tla");
        }
        for (ImplementationCheck.Finding f : report.implementationFindings()) {
            ObjectNode result =
                    result(
                            log,
                            "implementation-" + f.kind().wireName(),
                            f.model() + ": " + f.difference() + " (" + AuditText.count(f.logs(), "log") + ")",
                            f.fingerprint(),
                            report);
            locate(
                    result,
                    report.validatorChanges().isEmpty() ? report.specChanges() : report.validatorChanges(),
                    "validator/src/main/java/io/proofgate/protocol/Connector.java");
        }
        for (Audit.SurfaceChange s : report.namespace()) {
            if (s.changed() > 0) {
                ObjectNode result =
                        result(
                                log,
                                "namespace-impact",
                                s.name()
                                        + ": "
                                        + s.changed()
                                        + " of "
                                        + s.probes()
                                        + " probes changed; first: base "
                                        + s.firstBase()
                                        + ", head "
                                        + s.firstHead(),
                                s.fingerprint(),
                                report);
                locate(
                        result,
                        report.validatorChanges(),
                        "validator/src/main/java/io/proofgate/protocol/Topology.java");
            }
        }
        for (ModelSizes.Finding f : report.modelFindings()) {
            ObjectNode result = result(log, "model-shrunk", f.model() + ": " + f.what(), f.fingerprint(), report);
            locate(result, List.of(), "spec/models.json");
        }
        if (!report.incomplete().isEmpty()) {
            log.notJudged(
                    "not judged: the behaviour search stopped at --max-pairs on "
                            + String.join(", ", report.incomplete()));
        }
        return log.write();
    }

    private static ObjectNode result(
            SarifLog log, String rule, String message, String fingerprint, Audit.Report report) {
        return log.result(rule, message, fingerprint, report.justification(fingerprint));
    }

    /** The finding's locations: where the code changed, or the file it is about when nothing there changed. */
    private static void locate(ObjectNode result, List<ChangedCode.Location> changes, String fallback) {
        ArrayNode locations = result.putArray("locations");
        if (changes.isEmpty()) {
            locations.addObject().putObject("physicalLocation").putObject("artifactLocation").put("uri", fallback);
            return;
        }
        for (ChangedCode.Location change : changes) {
            ObjectNode location = locations.addObject();
            ObjectNode physical = location.putObject("physicalLocation");
            physical.putObject("artifactLocation").put("uri", change.path());
            physical.putObject("region").put("startLine", change.line()).put("startColumn", change.column());
            location.putObject("message").put("text", change.what());
        }
    }
}
