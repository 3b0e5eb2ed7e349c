package io.proofgate.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.proofgate.conform.Line;
import io.proofgate.format.StateLine;

import java.util.List;

/**
 * The audit report as JSON ({@code proofgate-audit/v1}). Witnesses are lists of replay lines as JSON objects, topology
 * first; a witness's verdicts are the spec's, in replay's shape (the spec states a rejection's facts, not the
 * validator's sentence, so there is no {@code reason}).
 */
public final class AuditJson {

    public static final String SCHEMA = "proofgate-audit/v1";
    private static final ObjectMapper JSON = new ObjectMapper();

    private AuditJson() {}

    public static String write(Audit.Report report) {
        ObjectNode root = JSON.createObjectNode();
        root.put("schema", SCHEMA);
        root.put("base", report.base().name());
        root.put("head", report.head().name());
        root.put("head_commit", report.head().commit());
        strings(root.putArray("uncommitted"), report.head().uncommitted());
        // judged first: a search stopped at --max-pairs (exit 2) has not answered, whatever it found so far
        root.put("judged", report.incomplete().isEmpty());
        root.put("semantic_change", !report.unaccepted().isEmpty());
        strings(root.putArray("models_compared"), report.models());
        strings(root.putArray("model_files_differ"), report.modelFilesDiffer());
        ArrayNode safety = root.putArray("safety");
        for (Safety s : report.safety()) {
            ObjectNode node = safety.addObject().put("model", s.model()).put("kept", s.broken().isEmpty());
            s.broken()
                    .ifPresent(
                            b -> {
                                node.put("fingerprint", s.fingerprint())
                                        .put("kind", b.kindName())
                                        .put("property", b.property())
                                        .put("counterexample_states", b.trace().size())
                                        .put("counterexample", b.counterexample());
                            });
        }
        ArrayNode behaviour = root.putArray("behaviour");
        for (Difference d : report.differences()) {
            ObjectNode node = behaviour.addObject();
            node.put("fingerprint", d.fingerprint());
            node.put("model", d.model());
            node.put("class", d.className());
            node.put("kind", d.kind().wireName());
            strings(node.putArray("seen_in"), d.seenIn());
            node.put("occurrences", d.occurrences());
            ArrayNode witness = node.putArray("witness");
            d.witness().forEach(line -> witness.add(parse(line)));
            long step = d.witness().stream().filter(l -> l.startsWith("{\"kind\":\"step\"")).count();
            verdicts(node.putArray("base"), d.baseVerdicts(), step);
            verdicts(node.putArray("head"), d.headVerdicts(), step);
            node.put("base_takes_event", d.baseTakes());
            node.put("head_takes_event", d.headTakes());
            accepted(node, report, d.fingerprint());
        }
        ArrayNode searches = root.putArray("behaviour_search");
        for (BehaviourDiff.Result r : report.behaviour()) {
            searches.addObject().put("model", r.model()).put("state_pairs", r.pairs()).put("complete", r.complete());
        }
        ArrayNode implementation = root.putArray("implementation");
        for (ImplementationCheck.Finding f : report.implementationFindings()) {
            ObjectNode node = implementation.addObject();
            node.put("fingerprint", f.fingerprint());
            node.put("class", f.kind().wireName());
            node.put("model", f.model());
            node.put("difference", f.difference());
            node.put("logs", f.logs());
            ArrayNode log = node.putArray("log");
            f.log().forEach(line -> log.add(parse(line)));
            strings(node.putArray("base_validator"), f.baseValidator());
            strings(node.putArray("head_validator"), f.headValidator());
            strings(node.putArray("base_spec"), f.baseSpec());
            strings(node.putArray("head_spec"), f.headSpec());
            accepted(node, report, f.fingerprint());
        }
        ArrayNode runs = root.putArray("implementation_runs");
        for (ImplementationCheck.Result r : report.implementation()) {
            runs.addObject()
                    .put("model", r.model())
                    .put("logs", r.logs())
                    .put("logs_one_spec_only", r.oneSidedLogs())
                    .put("logs_replayed", r.replayed());
        }
        ObjectNode namespace = root.putObject("namespace");
        namespace.put("impact", report.namespaceImpact());
        ArrayNode surfaces = namespace.putArray("surfaces");
        for (Audit.SurfaceChange s : report.namespace()) {
            ObjectNode node =
                    surfaces.addObject().put("name", s.name()).put("probes", s.probes()).put("changed", s.changed());
            if (s.changed() > 0) {
                node.put("fingerprint", s.fingerprint())
                        .put("first_base", s.firstBase())
                        .put("first_head", s.firstHead());
                accepted(node, report, s.fingerprint());
            }
        }
        ArrayNode models = root.putArray("models");
        for (ModelSizes m : report.counts()) {
            models.addObject()
                    .put("name", m.name())
                    .put("base_states", m.baseStates())
                    .put("head_states", m.headOnBaseStates())
                    .put("head_own_states", m.headStates())
                    .put("base_edges", m.baseEdges())
                    .put("head_own_edges", m.headEdges())
                    .put("head_recorded_states", m.headRecorded())
                    .put("base_scenarios", m.baseScenarios())
                    .put("head_scenarios", m.headScenarios());
        }
        ArrayNode modelFindings = root.putArray("model_findings");
        for (ModelSizes.Finding f : report.modelFindings()) {
            ObjectNode node =
                    modelFindings
                            .addObject()
                            .put("fingerprint", f.fingerprint())
                            .put("model", f.model())
                            .put("finding", f.what());
            accepted(node, report, f.fingerprint());
        }
        strings(root.putArray("stale_acceptances"), report.staleAcceptances());
        strings(root.putArray("accepted_by_this_change"), report.acceptedByChange());
        strings(root.putArray("incomplete_models"), report.incomplete());
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of plain values always serialises", e);
        }
    }

    private static void accepted(ObjectNode node, Audit.Report report, String fingerprint) {
        String why = report.justification(fingerprint);
        if (why != null) {
            node.put("accepted", why);
        }
    }

    private static void strings(ArrayNode array, List<String> values) {
        values.forEach(array::add);
    }

    /** Spec verdicts, the scenario format's lines, as replay prints them ({@link Line.VerdictLine#of}). */
    private static void verdicts(ArrayNode array, List<String> lines, long step) {
        for (String line : lines) {
            if (!(StateLine.read("a spec verdict", 1, line) instanceof StateLine.Verdict verdict)) {
                throw new IllegalStateException("not a verdict line: " + line);
            }
            array.add(parse(Line.VerdictLine.of(String.valueOf(step), verdict).json()));
        }
    }

    static JsonNode parse(String line) {
        try {
            return JSON.readTree(line);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a replay line the audit wrote is not JSON: " + line, e);
        }
    }
}
