package io.proofgate.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Regression: a result file (replay and mutate --out, conform --junit) was moved over whatever was at its path: a named
 * pipe or a device became a new regular file (its reader never saw the result), a symbolic link was replaced instead of
 * its file, and `replay --out LOG LOG` replaced the log it had just read. Each is refused before the run, exit 2.
 */
class ResultFileTargetTest {

    private static final String LOG = "../examples/seed-aligned.jsonl";

    @TempDir Path dir;

    private static CliRun replayOut(String out, String log) {
        return CliRun.of("replay", "--shard", "0/1", "--out", out, log);
    }

    @Test
    void aTargetThatIsNotAFileIsRefusedBeforeTheRun() throws Exception {
        Path real = dir.resolve("real.jsonl");
        Files.writeString(real, "kept\n");
        Path link = Files.createSymbolicLink(dir.resolve("link.jsonl"), real);
        assertEquals(
                new CliRun(
                        Main.USAGE,
                        "",
                        "proofgate replay: --out "
                                + link
                                + ": a symbolic link: the result would replace"
                                + " the link, not the file it points to (give that file's path)\n"),
                replayOut(link.toString(), LOG));
        assertTrue(Files.isSymbolicLink(link));
        assertEquals("kept\n", Files.readString(real));
        // synth's log too (it wrote through the link into its target)
        assertEquals(
                new CliRun(
                        Main.USAGE,
                        "",
                        "proofgate synth: --out "
                                + link
                                + ": a symbolic link: the result would replace"
                                + " the link, not the file it points to (give that file's path)\n"),
                CliRun.of("synth", "--bytes", "4K", "--out", link.toString()));
        assertEquals("kept\n", Files.readString(real));
        assertEquals(
                new CliRun(Main.USAGE, "", "proofgate replay: --out " + dir + ": a folder, not a file\n"),
                replayOut(dir.toString(), LOG));
        assertEquals(
                new CliRun(
                        Main.USAGE,
                        "",
                        "proofgate replay: --out " + real + "/x: " + real + " is a file, not a folder to write into\n"),
                replayOut(real + "/x", LOG));
        assertEquals(
                new CliRun(Main.USAGE, "", "proofgate replay: --out : not the path of a file\n"), replayOut("", LOG));
        Path log = dir.resolve("log.jsonl");
        Files.copy(Path.of(LOG), log);
        assertEquals(
                new CliRun(
                        Main.USAGE,
                        "",
                        "proofgate replay: --out "
                                + log
                                + ": it is also a log of the run (\""
                                + log
                                + "\"), which its result file would replace\n"),
                replayOut(log.toString(), log.toString()));
        assertEquals(Files.readString(Path.of(LOG)), Files.readString(log), "the log is untouched");
        assertEquals(
                Main.OK,
                replayOut(dir.resolve("new/shard.jsonl").toString(), LOG).exit(),
                "a new file in a new folder");
        assertEquals(Main.OK, replayOut(dir.resolve("new/shard.jsonl").toString(), LOG).exit(), "a file replaced");
    }

    @Test
    void aNamedPipeIsRefused() throws Exception {
        Path fifo = dir.resolve("fifo");
        Process mkfifo;
        try {
            mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        } catch (java.io.IOException e) {
            org.junit.jupiter.api.Assumptions.abort("no mkfifo on this machine: " + e.getMessage());
            return;
        }
        assertEquals(0, mkfifo.waitFor());
        String refused =
                "not a regular file (a named pipe, a device or a socket): a result file is written whole beside it and"
                        + " moved into its place, so give the path of a file\n";
        assertEquals(
                new CliRun(Main.USAGE, "", "proofgate replay: --out " + fifo + ": " + refused),
                replayOut(fifo.toString(), LOG));
        System.setProperty("proofgate.root", Path.of("..").toAbsolutePath().normalize().toString());
        assertEquals(
                new CliRun(Main.USAGE, "", "proofgate conform: --junit " + fifo + ": " + refused),
                CliRun.of("conform", "--in-process", "--junit", fifo.toString()));
        assertTrue(!Files.isRegularFile(fifo), "the pipe is still a pipe");
    }

    /**
     * mutate --out naming a file the run reads (its module here) would replace it with the result: refused before the
     * run.
     */
    @Test
    void mutateRefusesToWriteOverAnInput() throws Exception {
        System.setProperty("proofgate.root", Path.of("..").toAbsolutePath().normalize().toString());
        Path module = dir.resolve("Publication.tla");
        Files.copy(Path.of("../spec/Publication.tla"), module);
        CliRun refused = CliRun.of("mutate", "--module", module.toString(), "--list", "--out", module.toString());
        assertEquals(Main.USAGE, refused.exit(), refused.err());
        assertTrue(
                refused.err().startsWith("proofgate mutate: --out " + module + ": it is a file the run reads (\""),
                refused.err());
        assertEquals(
                Files.readString(Path.of("../spec/Publication.tla")),
                Files.readString(module),
                "the module is untouched");
    }
}
