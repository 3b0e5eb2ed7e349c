package io.proofgate.cli;

import io.proofgate.replay.MergeRefused;
import io.proofgate.replay.OutputFailed;
import io.proofgate.replay.ReplayMerge;
import io.proofgate.shard.ShardKey;
import io.proofgate.words.FileProblems;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/** {@code proofgate merge-replay}: replay shards, combined into what one replay over all the logs prints. */
final class ReplayMergeCommand implements Command {

    private final Function<String, String> environment;

    ReplayMergeCommand(Function<String, String> environment) {
        this.environment = environment;
    }

    @Override
    public String name() {
        return "merge-replay";
    }

    @Override
    public String summary() {
        return "combine replay shards (replay --shard K/N --out FILE) into what one replay of all the logs prints";
    }

    @Override
    public String help() {
        return """
        Usage: proofgate merge-replay [--check] FILE...

        Reads the shards that `proofgate replay --shard K/N --out FILE LOG...` wrote and prints
        what one replay over all the logs prints, and exits as it would (2 when a log had a
        structural error). Every shard is checked whole first (its header, each log's lines as a
        replay writes them, the summary's counts against them, its end line), so a refused merge
        prints nothing.

        With PROOFGATE_SHARD_KEY set (at least 32 characters), every shard must carry an HMAC that
        verifies under it; without it, a signed shard is refused (docs/scale.md: what is protected).

          --check          each log at its path here must be the one its shard replayed (SHA-256)

        Exit codes: 0 merged; 2 a log had a structural error (its error is printed as replay prints
        it), or the files are not the shards of one replay, or cannot be read.
        """;
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        List<String> files = new ArrayList<>();
        var options = Options.parse(args, Set.of("--check"), Set.of(), files);
        if (files.isEmpty()) {
            throw new UsageException("missing FILE: the shards that replay --shard K/N --out FILE wrote");
        }
        try {
            if (!ReplayMerge.isShard(Path.of(files.getFirst()))) {
                throw new UsageException(
                        files.getFirst()
                                + " is not a replay shard (a mutation shard merges with proofgate merge-mutate)");
            }
        } catch (IOException e) {
            err.println("proofgate merge-replay: " + files.getFirst() + ": " + FileProblems.words(e));
            return Main.USAGE;
        }
        OutputStream sink = new BufferedOutputStream(new NonClosing(out), 1 << 16);
        try {
            Optional<ShardKey> key = ShardKey.from(environment);
            List<String> errors =
                    ReplayMerge.merge(files.stream().map(Path::of).toList(), sink, key, options.containsKey("--check"));
            sink.flush();
            errors.forEach(error -> err.println("proofgate replay: " + error));
            return errors.isEmpty() ? Main.OK : Main.USAGE;
        } catch (MergeRefused | ShardKey.Refused | OutputFailed e) {
            err.println("proofgate merge-replay: " + e.getMessage());
            return Main.USAGE;
        } catch (IOException e) {
            err.println("proofgate merge-replay: " + FileProblems.words(e));
            return Main.USAGE;
        }
    }
}
