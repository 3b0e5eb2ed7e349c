package io.proofgate.review;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

import io.proofgate.audit.DocsWorkflow;

import org.junit.jupiter.api.Test;

/** The GitHub Actions workflow docs/audit.md gives connector repositories is YAML that does what the page says. */
class ConnectorAuditWorkflowTest {

    @Test
    void theConnectorWorkflowParsesAndRunsTheAudit() throws Exception {
        JsonNode workflow = DocsWorkflow.under("### In CI: a GitHub Actions workflow for a connector repository");
        JsonNode steps = workflow.path("jobs").path("audit").path("steps");
        assertTrue(steps.isArray() && steps.size() > 3, workflow.toString());
        assertEquals(0, steps.get(0).path("with").path("fetch-depth").asInt(-1), "the base commit must be in history");
        String run = "";
        for (JsonNode step : steps) {
            if (step.path("id").asText().equals("audit")) {
                run = step.path("run").asText();
            }
        }
        assertTrue(
                run.contains("proofgate audit-connector --exec ")
                        && run.contains("--base \"origin/${{ github.base_ref }}\"")
                        && run.contains("--format markdown"),
                run);
        assertEquals("write", workflow.path("permissions").path("pull-requests").asText());
    }
}
