package io.proofgate.review;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The GitHub Actions workflow docs/audit.md gives connector repositories is YAML that does what the page says. */
class ConnectorAuditWorkflowTest {

    private static final String HEADING = "### In CI: a GitHub Actions workflow for a connector repository";

    @Test
    void theConnectorWorkflowParsesAndRunsTheAudit() throws Exception {
        String page = Files.readString(Path.of("..", "docs", "audit.md"));
        int section = page.indexOf(HEADING);
        assertTrue(section >= 0, "docs/audit.md has no section " + HEADING);
        int start = page.indexOf("```yaml\n", section) + "```yaml\n".length();
        String yaml = page.substring(start, page.indexOf("\n```", start));
        JsonNode workflow = new YAMLMapper().readTree(yaml);
        JsonNode steps = workflow.path("jobs").path("audit").path("steps");
        assertTrue(steps.isArray() && steps.size() > 3, yaml);
        assertEquals(0, steps.get(0).path("with").path("fetch-depth").asInt(-1), "the base commit must be in history");
        String run = "";
        for (JsonNode step : steps) {
            if (step.path("id").asText().equals("audit")) {
                run = step.path("run").asText();
            }
        }
        assertTrue(run.contains("proofgate audit --exec ") && run.contains("--base \"origin/${{ github.base_ref }}\"")
                && run.contains("--format markdown"), run);
        assertEquals("write", workflow.path("permissions").path("pull-requests").asText());
    }
}
