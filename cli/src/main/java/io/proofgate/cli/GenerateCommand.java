package io.proofgate.cli;

import io.proofgate.check.CheckOptions;
import io.proofgate.check.Model;
import io.proofgate.check.ModelCatalog;
import io.proofgate.generate.Generation;
import io.proofgate.generate.GenerationException;
import io.proofgate.tlc.ParseException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/** {@code proofgate generate}: the conformance tests from the model's state graph. */
final class GenerateCommand implements Command {

    @Override
    public String name() {
        return "generate";
    }

    @Override
    public String summary() {
        return "generate the JUnit conformance tests from the ci model's state graph";
    }

    @Override
    public String help() {
        return """
                Usage: proofgate generate [--check] [--workers N] [--model ci|PATH]

                Runs TLC on each model that spec/models.json marks "generate" (ci first) with the state
                graph dumped (-dump dot,actionlabels), computes the fewest paths from the initial state
                that together take every edge, and writes one JUnit test per path
                into generated-tests/src/test/java/io/proofgate/generated/, with a coverage summary in
                generated-tests/COVERAGE.md (states, edges, covered edges, tests, steps, lower bounds).
                Each test replays its path's events through the validator and asserts, after every event,
                the verdicts and state the model says follow. Output is byte-identical across runs.

                  --model M    generate from this one model only (ci or the path of a .cfg), for experiments
                  --check      write nothing; compare with the committed tests and list what differs
                  --workers N  TLC worker threads (default: all cores)

                Exit codes: 0 written (with --check: up to date); 1 with --check: the committed tests are
                stale; 2 usage error, TLC failed, or the model is not one the generator understands.
                """;
    }

    /** Each model with the class prefix its tests get: none for ci, the config's name otherwise. */
    static List<Generation.Source> sources(List<Model> models, Path root, int workers) {
        return models.stream().map(m -> {
            String config = m.config().getFileName().toString().replaceFirst("\\.cfg$", "");
            String prefix = config.equals("MCPublication") ? "" : config.replaceFirst("^MC", "");
            return new Generation.Source(m, root.relativize(m.config().toAbsolutePath()).toString(), prefix,
                    CheckOptions.defaults(workers, root.resolve("target/proofgate/generate").resolve(config)));
        }).toList();
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        var options = Options.parse(args, java.util.Set.of("--check"), java.util.Set.of("--model", "--workers"));
        String model = options.get("--model");
        boolean check = options.containsKey("--check");
        int workers = (int) Options.integer(options, "--workers", 1, 1024, Runtime.getRuntime().availableProcessors());
        Path root = ProjectRoot.find();
        try {
            ModelCatalog catalog = ModelCatalog.of(root.resolve("spec"));
            List<Model> models = model == null ? catalog.generationModels() : List.of(catalog.resolve(model));
            Generation.Output output = Generation.build(sources(models, root, workers), err);
            Path module = root.resolve("generated-tests");
            Path sources = module.resolve("src/test/java");
            if (check) {
                List<String> stale = Generation.staleness(output, module, sources);
                if (stale.isEmpty()) {
                    out.println("proofgate generate --check: the committed tests are up to date ("
                            + output.summary().tests() + " tests from " + models.size() + " models)");
                    return Main.OK;
                }
                out.println("proofgate generate --check: the committed tests are stale; run ./proofgate generate and review the diff:");
                stale.forEach(line -> out.println("  " + line));
                return Main.FINDINGS;
            }
            Generation.write(output, module, sources);
            out.print(output.summary().text());
            out.println();
            out.println("wrote " + output.sources().size() + " files to " + root.relativize(sources.resolve("io/proofgate/generated")));
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
