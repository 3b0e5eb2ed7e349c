package io.proofgate.review;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.proofgate.audit.Approvals;
import io.proofgate.conform.Line;
import io.proofgate.words.Capability;
import io.proofgate.words.Formats;

import java.util.List;

/** The connector audit as JSON ({@code proofgate-connector-audit/v1}, docs/audit.md): every field, every error. */
public final class ConnectorAuditJson {

    public static final String SCHEMA = "proofgate-connector-audit/v1";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ConnectorAuditJson() {}

    public static String write(ConnectorAuditReport report) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("schema", SCHEMA);
        root.set("base", side(report.base(), report.run().base()));
        root.set("head", side(report.head(), report.run().head()));
        root.put("verdict", report.verdict());
        root.put("judged", report.judged());
        root.put("reproducible", report.reproducible());
        if (!report.reproducible()) {
            root.put("not_reproducible", report.notReproducible());
        }
        root.put("unaccepted", report.open().size() + report.openNamespace().size() + report.openDropped().size());
        ObjectNode scenarios = root.putObject("scenarios");
        scenarios.put("total", report.run().outcomes().size());
        scenarios.put("same", report.same());
        scenarios.put("differ", report.differing());
        scenarios.put("not_run", report.run().count(Outcome.NotRun.class));
        scenarios.put("errors", report.errors().size());
        scenarios.put("refused_by_one", report.refusedByOne().size());
        scenarios.put("stopped_after_errors", report.run().stoppedAfter());
        ArrayNode classes = root.putArray("classes");
        for (DifferenceClass c : report.classes()) {
            ObjectNode node = classes.addObject();
            node.put("fingerprint", c.fingerprint());
            node.put("kind", c.first().kind().wireName());
            node.put("model", c.first().judgement().wireName());
            node.put("rule", c.first().rule());
            node.put("scenarios", c.scenarios());
            strings(node.putArray("seen_in"), c.seenIn());
            node.put("witness_scenario", c.witness().id());
            node.put("witness_file", c.witness().file().toString() + ":" + c.witness().line());
            ArrayNode witness = node.putArray("witness");
            for (String line : c.witnessLines()) {
                witness.add(parse(line));
            }
            node.put("at", c.first().message() > c.events() ? "summary" : "event " + c.first().message());
            lines(node.putArray("base_answer"), c.first().base());
            lines(node.putArray("head_answer"), c.first().head());
            lines(node.putArray("model_expects"), c.first().model());
            approval(node, report, c.fingerprint());
        }
        ArrayNode errors = root.putArray("errors");
        for (Outcome.Errored e : report.errors()) {
            ObjectNode node = errors.addObject();
            node.put("scenario", e.scenario().id());
            node.put("side", e.side());
            node.put("message", e.message());
        }
        refusals(root.putArray("refused_by_one"), report.refusedByOne());
        refusals(root.putArray("refused_by_both"), report.refusedByBoth());
        ArrayNode dropped = root.putArray("dropped");
        for (var declaration : report.dropped()) {
            String fingerprint = declaration.fingerprint();
            ObjectNode node = dropped.addObject();
            node.put(declaration.field(), declaration.wireName());
            node.put("fingerprint", fingerprint);
            approval(node, report, fingerprint);
        }
        strings(root.putArray("stale_acceptances"), report.stale());
        ObjectNode namespace = root.putObject("namespace");
        namespace.put("computed", report.namespace().computed());
        if (!report.namespace().computed()) {
            namespace.put("why_not", report.namespace().why());
        } else {
            namespace.put("set", Formats.NAMESPACE);
            namespace.put("probes", report.namespace().probes());
            namespace.put("impact", !report.namespace().changed().isEmpty());
            ArrayNode names = namespace.putArray("names");
            for (var name : report.namespace().names()) {
                ObjectNode node = names.addObject();
                node.put("name", name.name());
                node.put("probes", name.probes());
                node.put("changed", name.changed());
                if (name.changed() > 0) {
                    String fingerprint = NamespaceRun.Result.fingerprint(name);
                    node.put("fingerprint", fingerprint);
                    node.put("first_probe", name.firstProbe());
                    node.put("base", name.base());
                    node.put("head", name.head());
                    approval(node, report, fingerprint);
                }
            }
            strings(namespace.putArray("refused_by_one"), report.namespace().refusedByOne());
            strings(namespace.putArray("refused_by_both"), report.namespace().refusedByBoth());
        }
        try {
            return MAPPER.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of plain nodes always writes", e);
        }
    }

    /**
     * Whether a finding is accepted, and by whose justification: the same fields for a difference class, a dropped
     * capability and a changed namespace name, as the text and Markdown reports say it for each.
     */
    private static void approval(ObjectNode node, ConnectorAuditReport report, String fingerprint) {
        switch (report.approval(fingerprint)) {
            case Approvals.ByBase b -> node.put("accepted", b.justification());
            case Approvals.ByChange ch -> node.put("accepted_by_this_change", ch.justification());
            case Approvals.Open o -> {}
        }
        node.put("unaccepted", report.open(fingerprint));
    }

    private static ObjectNode side(ConnectorAuditReport.Side side, Line.Hello hello) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("revision", side.name());
        if (side.commit() != null) {
            node.put("commit", side.commit());
        }
        node.put("command", side.command());
        node.put("implementation", hello.implementation());
        strings(node.putArray("capabilities"), hello.capabilities().stream().map(Capability::wireName).toList());
        strings(node.putArray("uncommitted"), side.uncommitted());
        return node;
    }

    /** An answer line as a JSON value where it is one (verdicts, summaries), as text otherwise (state lines, notes). */
    private static void lines(ArrayNode array, List<String> lines) {
        for (String line : lines) {
            array.add(line.startsWith("{") ? parse(line) : MAPPER.getNodeFactory().textNode(line));
        }
    }

    private static com.fasterxml.jackson.databind.JsonNode parse(String line) {
        try {
            return MAPPER.readTree(line);
        } catch (JsonProcessingException e) {
            return MAPPER.getNodeFactory().textNode(line);
        }
    }

    private static void strings(ArrayNode array, List<String> values) {
        values.forEach(array::add);
    }

    /** Scenarios refused by one revision or by both: where, and what each refusal said. */
    private static void refusals(ArrayNode into, List<Outcome.Compared> outcomes) {
        for (Outcome.Compared o : outcomes) {
            ObjectNode node = into.addObject();
            node.put("scenario", o.scenario().id());
            switch (o.comparison()) {
                case Comparison.OneRefused r -> {
                    node.put("side", r.side());
                    node.put("message", r.message());
                    node.put("refusal", r.refusal());
                }
                case Comparison.BothRefused r -> {
                    node.put("message", r.message());
                    node.put("base_refusal", r.base());
                    node.put("head_refusal", r.head());
                }
                case Comparison.Same s -> throw new IllegalStateException("not a refusal: " + s);
                case Comparison.NotApplicable n -> throw new IllegalStateException("not a refusal: " + n);
                case Comparison.Differs d -> throw new IllegalStateException("not a refusal: " + d);
            }
        }
    }
}
