package io.proofgate.cli;

import io.proofgate.check.Model;
import io.proofgate.check.ModelCatalog;
import io.proofgate.mutate.Equivalents;
import io.proofgate.mutate.MutantLimits;
import io.proofgate.mutate.MutantResult;
import io.proofgate.mutate.MutationException;
import io.proofgate.mutate.MutationMerge;
import io.proofgate.mutate.MutationPlan;
import io.proofgate.mutate.MutationReport;
import io.proofgate.mutate.MutationShard;
import io.proofgate.mutate.RunInputs;
import io.proofgate.replay.ReplayMerge;
import io.proofgate.shard.ShardKey;
import io.proofgate.words.FileProblems;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** {@code proofgate merge-mutate}: mutation shards, combined into the report one unsharded run prints. */
final class MutationMergeCommand implements Command {

    private final java.util.function.Function<String, String> environment;

    MutationMergeCommand(java.util.function.Function<String, String> environment) {
        this.environment = environment;
    }

    @Override
    public String name() {
        return "merge-mutate";
    }

    @Override
    public String summary() {
        return "combine mutation shards (mutate --shard K/N --out FILE) into the report one run prints";
    }

    @Override
    public String help() {
        return """
        Usage: proofgate merge-mutate [--format text|json|markdown] [--check] [--equivalent FILE] FILE...

        Reads the result files that `proofgate mutate --shard K/N --out FILE` wrote, one per shard
        (K = 0..N-1, in any order, on any machines), checks that they are the N parts of one run
        (the same inputs by SHA-256: module, cfgs, model modules, models.json, mistakes and
        equivalents files; the same selection, models, timeout and N; each K once; each result its
        own shard's, on a model of the run, killed by what that model checks) and prints the report
        one unsharded run prints: the same bytes. The module, mistakes and equivalents files here
        must be the shards'. docs/scale.md runs the shards as a Kubernetes Indexed Job or a GitHub Actions matrix.

        With PROOFGATE_SHARD_KEY set (at least 32 characters), every shard must carry an HMAC that
        verifies under it; without it, a signed shard is refused (docs/scale.md: what is protected).

          --format F       text (default), json or markdown
          --check          the shards' inputs must be this checkout's; exit 1 as `mutate --check` would
          --equivalent F   the equivalents file the shards read (default spec/mutants-equivalent.json,
                           if present)

        Exit codes: 0 merged (with --check: nothing left to judge); 1 --check found survivors or
        stale judgements; 2 the files are not the shards of one run, or cannot be read, or a mutant
        timed out in its shard (the report is printed, then exit 2).
        """;
    }

    /**
     * --check: the shards' inputs must be this checkout's, as a run here would read them (its models.json's configs for
     * the shards' model names, its equivalents file), so that the verdict is this checkout's and not that of the files
     * the shards happened to see.
     */
    private static void sameAsHere(
            MutationShard shard, Path moduleFile, Path root, java.util.Map<String, String> options)
            throws MutationException {
        List<Model> models = new ArrayList<>();
        try {
            ModelCatalog catalog = ModelCatalog.of(moduleFile.toAbsolutePath().getParent());
            for (String name : shard.models()) {
                models.add(catalog.resolve(name));
            }
        } catch (IOException e) {
            throw new MutationException("--check: " + e.getMessage());
        } catch (io.proofgate.parse.ParseException e) {
            throw new MutationException("--check: " + e.getMessage());
        }
        RunInputs here =
                MutateCommand.inputs(
                                root,
                                moduleFile,
                                models,
                                shard.mistakes() == null ? null : root.resolve(shard.mistakes()),
                                MutateCommand.equivalentsFile(options, root),
                                MutantLimits.defaults())
                        .withLimitsOf(shard.inputs());
        Optional<String> difference = shard.inputs().difference(here, "the shards", "this checkout");
        if (difference.isPresent()) {
            throw new MutationException(
                    "--check: the shards were not run on this checkout's inputs: " + difference.get());
        }
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        List<String> files = new ArrayList<>();
        var options = Options.parse(args, Set.of("--check"), Set.of("--format", "--equivalent"), files);
        String format = options.getOrDefault("--format", "text");
        if (!Set.of("text", "json", "markdown").contains(format)) {
            throw new UsageException("--format must be text, json or markdown, not \"" + format + "\"");
        }
        if (files.isEmpty()) {
            throw new UsageException("missing FILE: the result files of the shards");
        }
        try {
            if (ReplayMerge.isShard(Path.of(files.getFirst()))) {
                throw new UsageException(
                        files.getFirst() + " is a replay shard; it merges with proofgate merge-replay");
            }
        } catch (IOException e) {
            err.println("proofgate merge-mutate: " + files.getFirst() + ": " + FileProblems.words(e));
            return Main.USAGE;
        }
        Optional<ShardKey> key;
        try {
            key = ShardKey.from(environment);
        } catch (ShardKey.Refused e) {
            err.println("proofgate merge-mutate: " + e.getMessage());
            return Main.USAGE;
        }
        Path root = ProjectRoot.find();
        try {
            List<MutationShard> shards = new ArrayList<>();
            for (String file : files) {
                MutationShard shard = MutationShard.read(Path.of(file));
                shard.verify(Path.of(file), key);
                shards.add(shard);
            }
            Path moduleFile = root.resolve(shards.getFirst().module());
            String text;
            try {
                text = Files.readString(moduleFile);
            } catch (IOException e) {
                err.println("proofgate merge-mutate: " + moduleFile + ": " + FileProblems.words(e));
                return Main.USAGE;
            }
            MutationPlan plan = MutationMerge.plan(shards, text, root);
            if (options.containsKey("--check")) {
                sameAsHere(shards.getFirst(), moduleFile, root, options);
            }
            List<MutantResult> results = MutationMerge.results(plan, shards);
            // the report is the one run's only with the judgements that run read (the shards record them)
            Path equivalentsFile = MutateCommand.equivalentsFile(options, root);
            if (equivalentsFile != null) {
                Optional<String> other = shards.getFirst().inputs().without(root, equivalentsFile);
                if (other.isPresent()) {
                    throw new MutationException(
                            "the equivalents file is not the shards': "
                                    + other.get()
                                    + " (give theirs with --equivalent FILE)");
                }
            }
            Equivalents equivalents = equivalentsFile == null ? Equivalents.none() : Equivalents.read(equivalentsFile);
            MutationReport report =
                    new MutationReport(
                            plan.source(),
                            plan.part(),
                            shards.getFirst().models(),
                            text,
                            results,
                            equivalents,
                            plan.allIds());
            out.print(report.render(format));
            out.flush();
            if (out.checkError()) {
                err.println("proofgate merge-mutate: cannot write to standard output; the report is incomplete");
                return Main.USAGE;
            }
            err.println(
                    "proofgate merge-mutate: "
                            + shards.size()
                            + " shard"
                            + (shards.size() == 1 ? "" : "s")
                            + ", "
                            + results.size()
                            + " mutants, "
                            + (key.isPresent() ? "each signature verified" : "unsigned"));
            if (MutateCommand.unfinished(report, shards.getFirst().inputs(), "merge-mutate", err)) {
                return Main.USAGE;
            }
            return options.containsKey("--check") && !report.passesCheck() ? Main.FINDINGS : Main.OK;
        } catch (MutationException e) {
            err.println("proofgate merge-mutate: " + e.getMessage());
            return Main.USAGE;
        }
    }
}
