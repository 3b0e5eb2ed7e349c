package io.proofgate.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: {@code check --model DIR/X.cfg} for a folder outside spec/ took spec/ as the place
 * of the modules X extends, so a folder without its own Publication.tla was checked against this
 * checkout's and reported "passed": a verdict on a spec that is neither the folder's nor this one.
 */
class CheckModelFolderTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    private CliRun check() {
        System.setProperty("proofgate.root", ROOT.toString());
        return CliRun.of("check", "--workers", "1", "--heap", "512m", "--model", dir.resolve("MCGenAttention.cfg").toString());
    }

    @Test
    void aConfigOutsideSpecExtendsOnlyTheModulesBesideIt() throws Exception {
        Files.copy(ROOT.resolve("spec/MCGenAttention.cfg"), dir.resolve("MCGenAttention.cfg"));
        Files.copy(ROOT.resolve("spec/MCPublication.tla"), dir.resolve("MCPublication.tla"));
        CliRun missing = check();
        assertEquals(Main.USAGE, missing.exit(), missing.out());
        assertTrue(missing.out().contains("Cannot find source file for module Publication imported in module MCPublication"),
                missing.out());
        assertTrue(!missing.out().contains("passed"), missing.out());
        Files.copy(ROOT.resolve("spec/Publication.tla"), dir.resolve("Publication.tla"));
        CliRun whole = check();
        assertEquals(Main.OK, whole.exit(), whole.out());
        assertTrue(whole.out().contains("MCGenAttention passed"), whole.out());
    }
}
