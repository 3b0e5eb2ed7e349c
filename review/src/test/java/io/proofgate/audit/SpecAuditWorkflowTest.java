package io.proofgate.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

/**
 * The spec audit's GitHub Actions workflow in docs/audit.md is YAML that keeps the audit's state graphs as the page
 * says.
 */
class SpecAuditWorkflowTest {

    @Test
    void theWorkflowKeepsTheGraphsOfTheAuditsItRan() throws Exception {
        JsonNode steps =
                DocsWorkflow.under("## In CI: a GitHub Actions workflow").path("jobs").path("audit").path("steps");
        List<String> order = new ArrayList<>();
        for (JsonNode step : steps) {
            order.add(step.path("uses").asText(step.path("id").asText(step.path("name").asText())));
        }
        int restore = order.indexOf("actions/cache/restore@v4");
        int audit = order.indexOf("audit");
        int prune = order.indexOf("Keep only the graphs recent audits used");
        int save = order.indexOf("actions/cache/save@v4");
        assertTrue(
                restore >= 0 && restore < audit && audit < prune && prune < save,
                "restore, audit, prune, save in that order: " + order);
        assertEquals("target/proofgate/audit/graphs", steps.get(restore).path("with").path("path").asText());
        assertEquals("target/proofgate/audit/graphs", steps.get(save).path("with").path("path").asText());
        assertEquals(
                steps.get(restore).path("with").path("key").asText(),
                steps.get(save).path("with").path("key").asText());
        assertTrue(
                steps.get(restore)
                        .path("with")
                        .path("restore-keys")
                        .asText()
                        .contains("proofgate-graphs-${{ github.event.pull_request.base.sha }}-"),
                "another push on the same base restores");
        assertEquals(
                "always()", steps.get(prune).path("if").asText(), "pruned whether or not the audit found a change");
        assertEquals(
                "always()",
                steps.get(save).path("if").asText(),
                "saved when the audit fails the job too (an unaccepted change), or its next push runs TLC on the base"
                        + " again");
        assertTrue(
                steps.get(prune)
                        .path("run")
                        .asText()
                        .contains("find target/proofgate/audit/graphs -name '*.dot' -mmin +"));
        assertTrue(steps.get(audit).path("run").asText().contains("./proofgate audit --base"));
    }

    /**
     * A push to main saves its spec's graphs under a key that a pull request on that commit restores by its base's sha;
     * each job runs on its own event only.
     */
    @Test
    void aPushToMainSeedsTheGraphsEveryPullRequestOnItReads() throws Exception {
        JsonNode workflow = DocsWorkflow.under("## In CI: a GitHub Actions workflow");
        assertEquals("main", workflow.path("on").path("push").path("branches").path(0).asText());
        JsonNode seed = workflow.path("jobs").path("seed");
        assertEquals("github.event_name == 'push'", seed.path("if").asText());
        assertEquals("github.event_name == 'pull_request'", workflow.path("jobs").path("audit").path("if").asText());
        String run = "";
        for (JsonNode step : seed.path("steps")) {
            run += step.path("run").asText();
        }
        assertTrue(
                run.contains("./proofgate audit --base HEAD --head HEAD"), "the seed runs TLC on this commit: " + run);
        JsonNode save = stepUsing(seed.path("steps"), "actions/cache/save@v4");
        assertEquals("target/proofgate/audit/graphs", save.path("with").path("path").asText());
        // on a push, github.sha is the commit a pull request on it names as its base's sha
        String key = save.path("with").path("key").asText();
        String restoreKeys =
                stepUsing(workflow.path("jobs").path("audit").path("steps"), "actions/cache/restore@v4")
                        .path("with")
                        .path("restore-keys")
                        .asText();
        String asAPullRequestNamesIt = key.replace("${{ github.sha }}", "${{ github.event.pull_request.base.sha }}");
        assertTrue(
                restoreKeys
                        .lines()
                        .map(String::strip)
                        .anyMatch(
                                prefix ->
                                        !prefix.isEmpty()
                                                && asAPullRequestNamesIt.startsWith(prefix)
                                                && prefix.contains("base.sha")),
                "a pull request restores the seed of its base: " + key + " / " + restoreKeys);
    }

    /** The step of {@code steps} that uses {@code action}; the test fails when none does. */
    private static JsonNode stepUsing(JsonNode steps, String action) {
        for (JsonNode step : steps) {
            if (step.path("uses").asText().equals(action)) {
                return step;
            }
        }
        throw new AssertionError("no step uses " + action + ": " + steps);
    }
}
