package io.proofgate.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Regression: {@code check --model DIR/X.cfg} for a folder outside spec/ took spec/ as the place of the modules X
 * extends, so a folder without its own Publication.tla was checked against this checkout's and reported "passed": a
 * verdict on a spec that is neither the folder's nor this one.
 */
class CheckModelFolderTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @TempDir Path dir;

    private CliRun check() {
        System.setProperty("proofgate.root", ROOT.toString());
        return CliRun.of(
                "check", "--workers", "1", "--heap", "512m", "--model", dir.resolve("MCGenAttention.cfg").toString());
    }

    @Test
    void aConfigOutsideSpecExtendsOnlyTheModulesBesideIt() throws Exception {
        Files.copy(ROOT.resolve("spec/MCGenAttention.cfg"), dir.resolve("MCGenAttention.cfg"));
        Files.copy(ROOT.resolve("spec/MCPublication.tla"), dir.resolve("MCPublication.tla"));
        CliRun missing = check();
        assertEquals(Main.USAGE, missing.exit(), missing.out());
        assertTrue(
                missing.out()
                        .contains("Cannot find source file for module Publication imported in module MCPublication"),
                missing.out());
        assertTrue(!missing.out().contains("passed"), missing.out());
        Files.copy(ROOT.resolve("spec/Publication.tla"), dir.resolve("Publication.tla"));
        CliRun whole = check();
        assertEquals(Main.OK, whole.exit(), whole.out());
        assertTrue(whole.out().contains("MCGenAttention passed"), whole.out());
    }

    /**
     * Regression: a config that checks nothing (no invariant, no property, CHECK_DEADLOCK FALSE) was reported passed,
     * exit 0.
     */
    @Test
    void aConfigThatChecksNothingIsRefused() throws Exception {
        Files.copy(ROOT.resolve("spec/MCPublication.tla"), dir.resolve("MCPublication.tla"));
        Files.copy(ROOT.resolve("spec/Publication.tla"), dir.resolve("Publication.tla"));
        String config = Files.readString(ROOT.resolve("spec/MCGenAttention.cfg"));
        // its checks cut off: what is left sets the constants, INIT and NEXT
        Files.writeString(
                dir.resolve("MCGenAttention.cfg"),
                config.substring(0, config.indexOf("\nINVARIANTS")) + "\nCHECK_DEADLOCK FALSE\n");
        assertEquals(
                new CliRun(
                        Main.USAGE,
                        "",
                        "proofgate check: "
                                + dir.resolve("MCGenAttention.cfg")
                                + ": checks no invariant, no property and no deadlock (CHECK_DEADLOCK FALSE): there is"
                                + " nothing for it to pass\n"),
                check());
        assertEquals(
                new CliRun(
                        Main.USAGE,
                        "",
                        "proofgate check: --all checks every model spec/models.json lists; --model names"
                                + " one (give one of them) (see proofgate check --help)\n"),
                CliRun.of("check", "--all", "--model", "ci"));
    }
}
