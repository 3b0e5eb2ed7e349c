package io.proofgate.audit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The first YAML block under a heading of docs/audit.md, read as a GitHub Actions workflow. */
public final class DocsWorkflow {

    private DocsWorkflow() {}

    /** The workflow under {@code heading} (a whole heading line, "## ..." or "### ..."), as YAML reads it. */
    public static JsonNode under(String heading) throws IOException {
        String page = Files.readString(Path.of("..", "docs", "audit.md"));
        int section = page.indexOf(heading + "\n");
        assertTrue(section >= 0, "docs/audit.md has no section " + heading);
        int start = page.indexOf("```yaml\n", section) + "```yaml\n".length();
        return new YAMLMapper().readTree(page.substring(start, page.indexOf("\n```", start)));
    }
}
