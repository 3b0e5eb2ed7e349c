package io.proofgate.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/**
 * Regression: two `check` runs at once whose configs share a file name wrote one folder, and a model that violates its
 * invariant was once in three trials reported passed with exit 0. Each run now has a folder of its own and reads its
 * verdict from its own output. One trial is enough: the folders are told apart by construction, which the last
 * assertion holds on every run, where the race of the shared folder showed only now and then.
 */
class CheckConcurrencyTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private record Run(int exit, String out) {}

    private static Run check(Path config) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream quiet = new PrintStream(PrintStream.nullOutputStream());
        int exit =
                Main.run(
                        new String[] {"check", "--workers", "1", "--heap", "512m", "--model", config.toString()},
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        quiet);
        return new Run(exit, out.toString(StandardCharsets.UTF_8));
    }

    private static String raw(Run run) {
        var m = java.util.regex.Pattern.compile("raw TLC output: (\\S+)").matcher(run.out());
        assertTrue(m.find(), run.out());
        return m.group(1);
    }

    /** A folder holding MCX.tla (the mutants' module, renamed), the modules it extends, and {@code cfg} as MCX.cfg. */
    private static Path model(String folder, Path cfg) throws Exception {
        Path dir = ROOT.resolve("target/proofgate/test/concurrency").resolve(folder);
        Files.createDirectories(dir);
        Files.writeString(
                dir.resolve("MCX.tla"),
                Files.readString(ROOT.resolve("spec/mutants/MCMutants.tla")).replace("MODULE MCMutants", "MODULE MCX"));
        Files.copy(cfg, dir.resolve("MCX.cfg"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        for (String module :
                java.util.List.of("MCPublication.tla", "Publication.tla")) { // a folder outside spec/ has its own
            Files.copy(
                    ROOT.resolve("spec").resolve(module),
                    dir.resolve(module),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        return dir.resolve("MCX.cfg");
    }

    @Test
    void twoRunsOfConfigsWithOneNameKeepTheirOwnVerdicts() throws Exception {
        System.setProperty("proofgate.root", ROOT.toString());
        Path violating = model("a", ROOT.resolve("spec/mutants/MCQuorumIgnored.cfg"));
        Path passing = model("b", ROOT.resolve("spec/MCGenAttention.cfg"));
        CompletableFuture<Run> a = CompletableFuture.supplyAsync(() -> check(violating));
        CompletableFuture<Run> b = CompletableFuture.supplyAsync(() -> check(passing));
        Run bad = a.get();
        Run good = b.get();
        assertEquals(1, bad.exit(), bad.out());
        assertTrue(bad.out().contains("VIOLATED invariant QuorumRetiresScheduledStore"), bad.out());
        assertEquals(0, good.exit(), good.out());
        assertTrue(good.out().contains("MCX passed"), good.out());
        assertTrue(!raw(bad).equals(raw(good)), "both runs wrote " + raw(bad));
    }
}
