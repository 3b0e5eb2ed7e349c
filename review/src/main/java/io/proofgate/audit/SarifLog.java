package io.proofgate.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A SARIF 2.1.0 log of one run of an audit (the spec's or a connector's): the tool with its rules, then one result per
 * finding, its fingerprint under {@link #FINGERPRINT_KEY} so that code scanning follows a finding across commits, an
 * accepted one as a note with an external suppression carrying the reviewers' justification.
 */
public final class SarifLog {

    public static final String FINGERPRINT_KEY = "proofgateFinding/v1";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ObjectNode root = JSON.createObjectNode();
    private final ArrayNode results;
    private final Map<String, String> levels = new LinkedHashMap<>();
    private final ObjectNode invocation;

    /** {@code rules}: each {id, short description, default level}. */
    public SarifLog(String tool, String[][] rules) {
        root.put("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
        root.put("version", "2.1.0");
        ObjectNode run = root.putArray("runs").addObject();
        ObjectNode driver = run.putObject("tool").putObject("driver");
        driver.put("name", tool);
        ArrayNode ruleNodes = driver.putArray("rules");
        for (String[] rule : rules) {
            ObjectNode node = ruleNodes.addObject().put("id", rule[0]);
            node.putObject("shortDescription").put("text", rule[1]);
            node.putObject("defaultConfiguration").put("level", rule[2]);
            levels.put(rule[0], rule[2]);
        }
        results = run.putArray("results");
        invocation = run.putArray("invocations").addObject().put("executionSuccessful", true);
    }

    /**
     * The run could not be judged (exit 2): its invocation says so, with why, so that an upload of a log without
     * results never reads as a clean change (a code-scanning check would close the earlier alerts).
     */
    public void notJudged(String why) {
        invocation.put("executionSuccessful", false);
        ObjectNode notification = invocation.putArray("toolExecutionNotifications").addObject();
        notification.put("level", "error");
        notification.putObject("message").put("text", why);
    }

    /** One finding; {@code justification} is the reviewers' reason where it is accepted, null where it is not. */
    public ObjectNode result(String rule, String message, String fingerprint, String justification) {
        String level = levels.get(rule);
        if (level == null) {
            throw new IllegalArgumentException("no rule " + rule + " in this log");
        }
        ObjectNode result = results.addObject();
        result.put("ruleId", rule);
        result.put("level", justification != null ? "note" : level);
        result.putObject("message").put("text", message);
        result.putObject("partialFingerprints").put(FINGERPRINT_KEY, fingerprint);
        if (justification != null) {
            result.putArray("suppressions").addObject().put("kind", "external").put("justification", justification);
        }
        return result;
    }

    public String write() {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of plain values always serialises", e);
        }
    }
}
