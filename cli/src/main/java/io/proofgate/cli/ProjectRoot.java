package io.proofgate.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/** The checkout the command works on: {@code -Dproofgate.root} (set by the launcher), else the working directory. */
final class ProjectRoot {

    private ProjectRoot() {}

    static Path find() throws UsageException {
        String configured = System.getProperty("proofgate.root");
        Path root = Path.of(configured != null ? configured : "").toAbsolutePath();
        if (!Files.isDirectory(root.resolve("spec"))) {
            throw new UsageException(
                    "no spec/ folder under " + root + " (run from a proofgate checkout or use ./proofgate)");
        }
        return root;
    }
}
