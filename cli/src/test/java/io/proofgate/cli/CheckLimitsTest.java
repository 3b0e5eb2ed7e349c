package io.proofgate.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A check stopped by a limit has no answer: exit 2, never a pass. The state bound decides the same way on every machine
 * (gen-attention has 162 distinct states).
 */
class CheckLimitsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private static CliRun check(String... args) {
        System.setProperty("proofgate.root", ROOT.toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] all = new String[args.length + 1];
        all[0] = "check";
        System.arraycopy(args, 0, all, 1, args.length);
        int exit =
                Main.run(
                        all,
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
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
}
