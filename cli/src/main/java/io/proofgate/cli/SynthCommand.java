package io.proofgate.cli;

import io.proofgate.replay.OutputFailed;
import io.proofgate.replay.SyntheticLog;
import io.proofgate.words.FileProblems;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/** {@code proofgate synth}: a deterministic synthetic log for load tests and benchmarks. */
final class SynthCommand implements Command {

    @Override
    public String name() {
        return "synth";
    }

    @Override
    public String summary() {
        return "write a deterministic synthetic proofgate-events/v1 log (load tests)";
    }

    @Override
    public String help() {
        return """
        Usage: proofgate synth [--bytes SIZE] [--seed N] [--batch N] [--out FILE]

        Writes a synthetic scheduler log: BATCH requests scheduled per step (chunked prefill, then
        decode), about 10% of them carrying evidence (checkpoints, aligned and copy-on-write
        proofs, now and then conflicting, future or malformed entries), about 1% preempted per
        step, held reports from two ranks, and finished requests replaced by new ones. The same
        seed gives the same bytes.

          --bytes SIZE  stop after the step that reaches SIZE bytes (suffix K, M or G; default 1M)
          --seed N      random seed (default 1)
          --batch N     requests scheduled per step (default 256)
          --out FILE    write to FILE instead of stdout

        Example: proofgate synth --bytes 1G --out big.jsonl && proofgate replay big.jsonl
        """;
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        var options =
                Options.parse(args, java.util.Set.of(), java.util.Set.of("--bytes", "--seed", "--batch", "--out"));
        long bytes = options.containsKey("--bytes") ? Options.size("--bytes", options.get("--bytes")) : 1 << 20;
        long seed = Options.integer(options, "--seed", Long.MIN_VALUE, Long.MAX_VALUE, 1);
        int batch = (int) Options.integer(options, "--batch", 1, 100_000, 256);
        Path file = options.containsKey("--out") ? Path.of(options.get("--out")) : null;
        if (file != null) {
            // as every result file: written whole beside the target and moved into place, never through a link
            try {
                AtomicFile.write(file, sink -> new SyntheticLog(seed, batch).write(sink, bytes));
            } catch (AtomicFile.NotAFile e) {
                err.println(
                        "proofgate synth: --out "
                                + io.proofgate.words.Outside.bare(file.toString())
                                + ": "
                                + e.getMessage());
                return Main.USAGE;
            } catch (IOException e) {
                err.println("proofgate synth: " + file + ": " + FileProblems.words(e));
                return Main.USAGE;
            }
            return Main.OK;
        }
        try (OutputStream sink = new BufferedOutputStream(new NonClosing(out), 1 << 16)) {
            new SyntheticLog(seed, batch).write(sink, bytes);
        } catch (OutputFailed e) {
            err.println("proofgate synth: " + e.getMessage());
            return Main.USAGE;
        } catch (IOException e) {
            err.println("proofgate synth: stdout: " + FileProblems.words(e));
            return Main.USAGE;
        }
        return Main.OK;
    }
}
