package io.proofgate.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A check stopped by a limit has no answer: exit 2, never a pass. The state bound decides the same way on every machine
 * (gen-attention has 162 distinct states).
 */
class CheckLimitsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private static CliRun check(String... args) {
        return checkIn(ROOT, args);
    }

    private static CliRun checkIn(Path root, String... args) {
        System.setProperty("proofgate.root", root.toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] all = new String[args.length + 1];
        all[0] = "check";
        System.arraycopy(args, 0, all, 1, args.length);
        int exit;
        try {
            exit =
                    Main.run(
                            all,
                            new PrintStream(out, true, StandardCharsets.UTF_8),
                            new PrintStream(err, true, StandardCharsets.UTF_8));
        } finally {
            System.setProperty(
                    "proofgate.root", ROOT.toString()); // the checkout, as the module's other classes read it
        }
        return new CliRun(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aModelOverItsStateBoundIsUnfinished() {
        CliRun over = check("--model", "gen-attention", "--workers", "1", "--heap", "512m", "--max-states", "100");
        assertEquals(Main.USAGE, over.exit(), over.out());
        assertTrue(
                over.out()
                        .contains(
                                "proofgate check: gen-attention stopped at its state bound: TLC found more than 100"
                                        + " distinct states, so its answer is unknown; raw TLC output: "),
                over.out());

        CliRun within = check("--model", "gen-attention", "--workers", "1", "--heap", "512m", "--max-states", "162");
        assertEquals(Main.OK, within.exit(), within.out());
        assertTrue(within.out().contains("gen-attention passed"), within.out());
    }

    @Test
    void allBoundsEachModelByItsRecordAndRefusesOneBoundForAll() {
        CliRun both = check("--all", "--max-states", "5");
        assertEquals(Main.USAGE, both.exit());
        assertTrue(
                both.err()
                        .contains(
                                "--all bounds each model by its recorded distinct states; --max-states is for one"
                                        + " model"),
                both.err());
    }

    /** A models.json that leaves --all nothing to check is refused: "0 models" and exit 0 would claim a check. */
    @Test
    void allWithNoModelToCheckIsRefused(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path spec = Files.createDirectories(dir.resolve("spec"));
        try (var files = Files.walk(ROOT.resolve("spec"))) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Path copy = spec.resolve(ROOT.resolve("spec").relativize(file).toString());
                Files.createDirectories(copy.getParent());
                Files.copy(file, copy);
            }
        }
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        var models =
                (com.fasterxml.jackson.databind.node.ObjectNode)
                        json.readTree(ROOT.resolve("spec/models.json").toFile());
        models.withArray("models")
                .forEach(m -> ((com.fasterxml.jackson.databind.node.ObjectNode) m).put("inCi", false));
        Files.delete(spec.resolve("models.json"));
        json.writeValue(spec.resolve("models.json").toFile(), models);
        CliRun none = checkIn(dir, "--all");
        assertEquals(Main.USAGE, none.exit(), none.out() + none.err());
        assertEquals(
                "proofgate check --all: spec/models.json lists no model checked in CI (each is \"inCi\": false, or"
                        + " none is listed): there is nothing to pass\n",
                none.err());
    }
}
