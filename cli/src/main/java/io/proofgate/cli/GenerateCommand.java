package io.proofgate.cli;

import io.proofgate.check.CheckOptions;
import io.proofgate.check.FileTree;
import io.proofgate.check.Model;
import io.proofgate.check.ModelCatalog;
import io.proofgate.generate.CommittedScenarios;
import io.proofgate.generate.Generation;
import io.proofgate.generate.GenerationException;
import io.proofgate.parse.ParseException;
import io.proofgate.tlc.WarmTlcPool;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** {@code proofgate generate}: the conformance scenarios from the models' state graphs. */
final class GenerateCommand implements Command {

    @Override
    public String name() {
        return "generate";
    }

    @Override
    public String summary() {
        return "generate the conformance scenarios from the state graphs of the generation models";
    }

    @Override
    public String help() {
        return """
        Usage: proofgate generate [--check [--model M]] [--workers N]

        Runs TLC on each model that spec/models.json marks "generate" (ci first) with the state
        graph dumped (-dump dot,actionlabels) and writes, per edge of the graph, the canonical
        shortest path through it as a scenario (paths that are prefixes of others are dropped)
        into generated-tests/scenarios/MODEL/TOPIC.scenarios, one file per evidence row or step
        rule, with a coverage summary in generated-tests/COVERAGE.md (edges covered, counted
        from the written files). A scenario's name and file come from its events alone, so a
        spec change shows as changed expectation lines of the scenarios it affects. The
        generated-tests module replays each scenario through the validator and asserts, after
        every event, the verdicts and state the model says follow (for a model of vLLM alone,
        which states what every block holds instead, that each plan's blocks hold its prefix).
        Output is byte-identical across runs. Format and cover: docs/generation.md; the protocol: docs/protocol.md.

          --model M    with --check: check one model's scenarios only (its name in spec/models.json,
                       or the path of a .cfg); COVERAGE.md, which sums every model, is not read
          --check      write nothing; compare with the committed scenarios and list what differs
          --workers N  TLC worker threads (default: all cores)

        Exit codes: 0 written (with --check: up to date); 1 with --check: the committed scenarios are
        stale; 2 usage error, TLC failed, or the model is not one the generator understands.
        """;
    }

    /** Each model, its scenarios in a folder of its name, TLC's files in a folder of this run's own. */
    static List<Generation.Source> sources(List<Model> models, Path root, Path runDir, int workers) {
        return models.stream()
                .map(
                        m ->
                                new Generation.Source(
                                        m,
                                        m.name(),
                                        root.relativize(m.config().toAbsolutePath()).toString(),
                                        CheckOptions.defaults(workers, runDir.resolve(m.name()))))
                .toList();
    }

    /**
     * The suite of {@code models}, their TLC runs under {@code runDir}, in one warm TLC JVM kept for the next run (the
     * generation models are small, and a fresh JVM spends as long starting and loading TLC as checking one), as mutate
     * and the spec audit run theirs. Always warm, one model or eleven, so that a model's scenarios come from one kind
     * of run: what a run finds does not depend on the runs before it (docs/mutate.md, "Warm TLC JVMs").
     */
    static Generation.Output generate(List<Model> models, Path root, Path runDir, int workers, PrintStream progress)
            throws IOException, InterruptedException {
        try (WarmTlcPool warm = new WarmTlcPool(runDir.resolve("warm-tlc"), CheckOptions.DEFAULT_HEAP)) {
            return Generation.build(sources(models, root, runDir, workers), progress, warm);
        }
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        var options = Options.parse(args, java.util.Set.of("--check"), java.util.Set.of("--model", "--workers"));
        String model = options.get("--model");
        boolean check = options.containsKey("--check");
        if (model != null && !check) {
            // the scenario folder and COVERAGE.md are written whole, from every model: one model's
            // output in their place would drop every other model's scenarios
            throw new UsageException(
                    "--model checks one model's scenarios (with --check); writing them takes every"
                            + " model, since COVERAGE.md sums them all: run proofgate generate without --model");
        }
        int workers = (int) Options.integer(options, "--workers", 1, 1024, Runtime.getRuntime().availableProcessors());
        Path root = ProjectRoot.find();
        try {
            ModelCatalog catalog = ModelCatalog.of(root.resolve("spec"));
            List<Model> models = model == null ? catalog.generationModels() : List.of(catalog.resolve(model));
            Path runs = root.resolve("target/proofgate/generate");
            Files.createDirectories(runs);
            Path runDir = Files.createTempDirectory(runs, "run-");
            Generation.Output output = generate(models, root, runDir, workers, err);
            FileTree.delete(runDir); // kept only when TLC failed, for the raw output the error names
            Path module = root.resolve("generated-tests");
            if (check) {
                List<String> stale =
                        model == null
                                ? CommittedScenarios.staleness(output, module)
                                : CommittedScenarios.staleness(output, module, models.getFirst().name());
                if (stale.isEmpty()) {
                    out.println(
                            "proofgate generate --check: the committed scenarios are up to date ("
                                    + output.summary().scenarios()
                                    + " scenarios from "
                                    + (model == null
                                            ? models.size() + " models)"
                                            : "model "
                                                    + models.getFirst().name()
                                                    + "; COVERAGE.md, which sums every model, is checked without"
                                                    + " --model)"));
                    return Main.OK;
                }
                out.println(
                        "proofgate generate --check: the committed scenarios are stale; run ./proofgate generate and"
                                + " review the diff:");
                stale.forEach(line -> out.println("  " + line));
                return Main.FINDINGS;
            }
            CommittedScenarios.write(output, module);
            out.print(output.summary().text());
            out.println();
            out.println(
                    "wrote "
                            + output.summary().scenarios()
                            + " scenarios in "
                            + output.files().size()
                            + " files to "
                            + root.relativize(module.resolve(CommittedScenarios.SCENARIO_DIR)));
            return Main.OK;
        } catch (IOException | ParseException | GenerationException | IllegalArgumentException e) {
            err.println("proofgate generate: " + e.getMessage());
            return Main.USAGE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("proofgate generate: interrupted");
            return Main.USAGE;
        }
    }
}
