package io.proofgate.cli;

import io.proofgate.conform.AnswerLimits;
import io.proofgate.conform.Conform;
import io.proofgate.conform.ConformException;
import io.proofgate.conform.ConformText;
import io.proofgate.conform.InProcessAdapter;
import io.proofgate.conform.JunitXml;
import io.proofgate.conform.ProcessAdapter;
import io.proofgate.conform.Result;
import io.proofgate.conform.Scenario;
import io.proofgate.conform.ScenarioReader;
import io.proofgate.words.FileProblems;
import io.proofgate.words.Outside;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** {@code proofgate conform}: the conformance scenarios against any implementation, through an adapter. */
final class ConformCommand implements Command {

    static final String GENERATED = "generated-tests/scenarios";
    static final String HAND_WRITTEN = "validator/src/test/resources/scenarios";

    @Override
    public String name() {
        return "conform";
    }

    @Override
    public String summary() {
        return "run the conformance scenarios against any implementation through an adapter (proofgate-adapter/v1)";
    }

    @Override
    public String help() {
        return """
        Usage: proofgate conform (--exec CMD | --in-process) [--scenarios DIR|generated|hand-written|all]
                                 [--jobs N] [--timeout SECONDS] [--junit FILE] [--baseline] [--no-shrink]
                                 [--max-errors N]

        Runs the conformance scenarios against an implementation. CMD (run with /bin/sh -c, once per
        job) is its adapter: it reads proofgate-adapter/v1 messages on stdin (a hello, each
        scenario's topology and events as proofgate-events/v1 lines, a summary request) and answers
        each with lines as `proofgate replay` prints them, then {"kind":"end"}. Every plan is judged
        for safety first: each block it publishes must hold its prefix, on vLLM's block contents as
        the events imply them. An adapter that declares "restore" is also sent the lookups of
        proofgate-events/v2, and every hit and load it answers is judged against what its own safe
        plans saved. Then the answers are compared with latch-at-target's; an adapter whose
        hello says "connector_policy":"own" is judged on safety and refusals alone. The
        capabilities it declares decide what is compared; the report says what was not. In Python,
        an adapter is one class on adapters/python (proofgate_adapter), and a vLLM connector runs
        unchanged through its vLLM driver (proofgate_adapter.vllm) with a small mapping. The
        protocol and the scenario files: docs/conformance.md.

          --exec CMD       the adapter command, e.g. "python3 examples/conform/toy_connector.py"
          --in-process     proofgate's own validator in this JVM (the throughput baseline)
          --scenarios S    a folder of *.scenarios files and NAME.jsonl + NAME.expected logs, or
                           generated (generated-tests/scenarios), hand-written
                           (validator/src/test/resources/scenarios) or all (default)
          --jobs N         adapters run side by side (default: cores, at most 4)
          --timeout S      seconds an answer may take before the adapter counts as hung (default 60)
          --junit FILE     also write JUnit XML, a testcase per scenario
          --baseline       then run the same scenarios in process and print both throughputs
          --no-shrink      do not shrink failing scenarios to their shortest failing prefix
          --max-errors N   stop after N adapter errors (default 10)
          --max-answer-lines N, --max-answer-bytes N
                           the most one answer may hold before its end marker (default 10000
                           lines, 4194304 bytes): more is an error of the scenario

        Exit codes: 0 every scenario run passed; 1 some failed; 2 the run could not be judged (the
        adapter broke the protocol, hung or exited; unreadable scenarios; no scenario run).
        """;
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        var options =
                Options.parse(
                        args,
                        Set.of("--in-process", "--baseline", "--no-shrink"),
                        Set.of(
                                "--exec",
                                "--scenarios",
                                "--jobs",
                                "--timeout",
                                "--junit",
                                "--max-errors",
                                "--max-answer-lines",
                                "--max-answer-bytes"));
        String command = options.get("--exec");
        boolean inProcess = options.containsKey("--in-process");
        if ((command == null) == !inProcess) {
            throw new UsageException("give the adapter with --exec CMD, or --in-process for proofgate's own validator");
        }
        if (command != null && command.isBlank()) {
            throw new UsageException("--exec needs a command");
        }
        int jobs =
                (int)
                        Options.integer(
                                options, "--jobs", 1, 256, Math.min(4, Runtime.getRuntime().availableProcessors()));
        long timeout = Options.integer(options, "--timeout", 1, 3600, Conform.DEFAULT_PATIENCE.toSeconds());
        int maxErrors = (int) Options.integer(options, "--max-errors", 1, 1_000_000, 10);
        AnswerLimits limits =
                new AnswerLimits(
                        (int)
                                Options.integer(
                                        options, "--max-answer-lines", 1, 100_000_000, AnswerLimits.DEFAULT.lines()),
                        Options.integer(options, "--max-answer-bytes", 1, 1L << 40, AnswerLimits.DEFAULT.bytes()));
        List<Path> folders = folders(options.getOrDefault("--scenarios", "all"));
        Path junit = options.containsKey("--junit") ? Path.of(options.get("--junit")) : null;
        if (junit != null) {
            try {
                AtomicFile.check(junit); // before the run, not after it
                // a run that ends before its report (exit 2) leaves no earlier run's file that reads as this one's
                java.nio.file.Files.deleteIfExists(junit);
            } catch (AtomicFile.NotAFile e) {
                err.println(
                        "proofgate conform: --junit " + Outside.bare(options.get("--junit")) + ": " + e.getMessage());
                return Main.USAGE;
            } catch (IOException e) {
                err.println(
                        "proofgate conform: --junit "
                                + Outside.bare(options.get("--junit"))
                                + ": "
                                + FileProblems.words(e));
                return Main.USAGE;
            }
        }
        Path directory = Path.of("").toAbsolutePath();
        String adapter = inProcess ? "in process" : command;
        try {
            List<Scenario> scenarios = new ArrayList<>();
            for (Path folder : folders) {
                scenarios.addAll(ScenarioReader.read(folder));
            }
            if (scenarios.isEmpty()) {
                err.println("proofgate conform: no scenarios under " + folders);
                return Main.USAGE;
            }
            err.println(
                    "proofgate conform: "
                            + String.format("%,d", scenarios.size())
                            + " scenarios from "
                            + String.join(", ", folders.stream().map(Path::toString).toList())
                            + ", adapter: "
                            + adapter);
            Conform.Settings settings =
                    new Conform.Settings(
                            jobs, Duration.ofSeconds(timeout), !options.containsKey("--no-shrink"), maxErrors, limits);
            if (!inProcess) {
                ProcessAdapter.hygieneNote().ifPresent(note -> err.println("proofgate conform: " + note));
            }
            Conform.Adapters adapters =
                    inProcess ? InProcessAdapter::new : () -> new ProcessAdapter(command, directory);
            Conform.Report report =
                    Conform.run(scenarios, adapters, settings, line -> err.println("proofgate conform: " + line));
            out.print(ConformText.of(report, adapter));
            if (options.containsKey("--baseline")) {
                List<Scenario> ran =
                        report.results().stream()
                                .filter(r -> !(r instanceof Result.NotRun || r instanceof Result.NotApplicable))
                                .map(Result::scenario)
                                .toList();
                Conform.Report baseline = Conform.run(ran, InProcessAdapter::new, settings, line -> {});
                double adapterRate = ran.size() / report.seconds();
                double inProcessRate = ran.size() / baseline.seconds();
                out.printf(
                        "baseline: the same %,d scenarios in process: %.1f s, %,.0f scenarios/s (%d job%s; %.1f s"
                                + " answering%s); the adapter's throughput is %.3f of it%n",
                        ran.size(),
                        baseline.seconds(),
                        inProcessRate,
                        baseline.jobs(),
                        baseline.jobs() == 1 ? "" : "s",
                        baseline.waitedSeconds(),
                        baseline.jobs() == 1 ? "" : ", summed over the jobs",
                        adapterRate / inProcessRate);
            }
            out.flush();
            if (out.checkError()) {
                err.println("proofgate conform: cannot write to standard output; the report is incomplete");
                return Main.USAGE;
            }
            if (junit != null) {
                AtomicFile.write(
                        junit,
                        stream -> {
                            Writer writer = new OutputStreamWriter(stream, StandardCharsets.UTF_8);
                            JunitXml.write(report, writer);
                            writer.flush();
                        });
            }
            long failed = report.count(Result.Failed.class) + report.count(Result.Unsafe.class);
            long errors = report.count(Result.Errored.class) + report.late().size();
            if (report.results().size() != scenarios.size()) {
                err.println(
                        "proofgate conform: "
                                + (scenarios.size() - report.results().size())
                                + " scenarios have no result");
                return Main.USAGE;
            }
            if (errors > 0) {
                err.println(
                        "proofgate conform: "
                                + errors
                                + " error"
                                + (errors == 1 ? "" : "s")
                                + ": the run could not be judged (see ERROR in the report)"
                                + (report.stoppedAfter() > 0
                                        ? "; it stopped at --max-errors "
                                                + maxErrors
                                                + ", so "
                                                + report.count(Result.Errored.class)
                                                + " scenarios have no verdict"
                                        : ""));
                return Main.USAGE;
            }
            if (failed > 0) {
                return Main.FINDINGS;
            }
            Optional<String> nothingRan = report.nothingRan();
            if (nothingRan.isPresent()) {
                err.println("proofgate conform: " + nothingRan.get());
                return Main.USAGE;
            }
            return Main.OK;
        } catch (ConformException e) {
            err.println("proofgate conform: " + e.getMessage());
            return Main.USAGE;
        } catch (IOException e) {
            err.println(
                    "proofgate conform: "
                            + (junit == null ? "a scenario folder" : junit)
                            + ": "
                            + FileProblems.words(e));
            return Main.USAGE;
        }
    }

    /** The folders, relative to the working directory when they are under it (shorter file names in reports). */
    static List<Path> folders(String scenarios) throws UsageException {
        Path here = Path.of("").toAbsolutePath();
        return named(scenarios).stream()
                .map(f -> f.isAbsolute() && f.startsWith(here) ? here.relativize(f) : f)
                .toList();
    }

    private static List<Path> named(String scenarios) throws UsageException {
        return switch (scenarios) {
            case "generated" -> List.of(ProjectRoot.find().resolve(GENERATED));
            case "hand-written" -> List.of(ProjectRoot.find().resolve(HAND_WRITTEN));
            case "all" -> List.of(ProjectRoot.find().resolve(GENERATED), ProjectRoot.find().resolve(HAND_WRITTEN));
            default -> {
                Path folder = Path.of(scenarios);
                if (!Files.isDirectory(folder)) {
                    throw new UsageException(
                            "--scenarios " + scenarios + " is not a folder (nor generated, hand-written or all)");
                }
                yield List.of(folder);
            }
        };
    }
}
