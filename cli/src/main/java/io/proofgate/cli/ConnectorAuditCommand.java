package io.proofgate.cli;

import io.proofgate.audit.AuditException;
import io.proofgate.conform.ConformException;
import io.proofgate.conform.Scenario;
import io.proofgate.conform.ScenarioReader;
import io.proofgate.review.ConnectorAudit;
import io.proofgate.review.ConnectorAuditJson;
import io.proofgate.review.ConnectorAuditMarkdown;
import io.proofgate.review.ConnectorAuditReport;
import io.proofgate.review.ConnectorAuditSarif;
import io.proofgate.review.ConnectorAuditText;
import io.proofgate.review.ConnectorChange;
import io.proofgate.words.FileProblems;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** {@code proofgate audit-connector}: the audit of a change to a connector in any language (docs/audit.md). */
final class ConnectorAuditCommand implements Command {

    @Override
    public String name() {
        return "audit-connector";
    }

    @Override
    public String summary() {
        return "what a change between two revisions of a connector does, through its adapter, against the model";
    }

    @Override
    public String help() {
        return """
        Usage: proofgate audit-connector --exec CMD --base REV [--head REV] [--repo DIR] [--scenarios DIR]
                                         [--format text|json|markdown|sarif] [--jobs N] [--timeout S]
                                         [--max-errors N] [--accept-from-head]
               proofgate audit-connector --exec-base CMD --exec-head CMD [--base REV [--head REV]] [...]

        The audit of a change to a connector in any language: each revision is written whole into a
        folder of the run's own, CMD (a proofgate-adapter/v1 adapter, docs/conformance.md) runs
        there, and every scenario (generated, hand-written, and those under --scenarios DIR) goes
        to both revisions. Each difference is classified by kind (verdict, reason only, order
        only, state only) and against the model (fix, regression, both differ, model silent),
        grouped into classes with a shortest witness. Findings have stable fingerprints;
        acceptances are read from the base's audit-accepted.json: what the head's adds is listed
        as "accepted by this change, needs a reviewer" and counts as unaccepted unless
        --accept-from-head. docs/audit.md, "Auditing a connector change". A change to the spec
        and validator of a repository with proofgate's layout is proofgate audit's.

          --exec CMD          both revisions' adapter, run in each revision's folder
          --exec-base CMD     the base's own adapter; with --exec-head, and without --base, two
          --exec-head CMD     commands are compared as they are, in the current folder
          --base REV          the revision the change is measured from (a branch, tag or commit)
          --head REV          the revision to audit (default: the working tree)
          --repo DIR          the repository (default: the current directory's)
          --scenarios DIR     scenarios of your own, run besides the generated and hand-written ones
          --format F          text (default), json, markdown (a PR comment) or sarif
          --jobs N            pairs of adapters run side by side (default: one per two cores, at most 2)
          --timeout S         seconds an adapter may take to answer one message (default %d)
          --max-errors N      adapter errors after which the run stops, unjudged (default 10)
          --accept-from-head  take the head's own acceptances as reviewed

        Exit codes: 0 no unaccepted difference; 1 unaccepted differences; 2 the audit could not
        run or could not judge (an unknown revision, an adapter error, answers that do not repeat,
        bad options or files). Progress goes to stderr.
        """
                .formatted(io.proofgate.conform.Conform.DEFAULT_PATIENCE.toSeconds());
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        var options =
                Options.parse(
                        args,
                        Set.of("--accept-from-head"),
                        Set.of(
                                "--base",
                                "--head",
                                "--format",
                                "--repo",
                                "--exec",
                                "--exec-base",
                                "--exec-head",
                                "--scenarios",
                                "--jobs",
                                "--timeout",
                                "--max-errors",
                                "--model",
                                "--workers",
                                "--max-pairs"));
        // the spec audit's options, named so that a command line written for it says where it goes
        for (String option : List.of("--model", "--workers", "--max-pairs")) {
            if (options.containsKey(option)) {
                throw new UsageException(option + " is an option of the audit of a spec change: proofgate audit");
            }
        }
        String both = options.get("--exec");
        String baseCommand = options.getOrDefault("--exec-base", both);
        String headCommand = options.getOrDefault("--exec-head", both);
        if (both != null && options.containsKey("--exec-base") && options.containsKey("--exec-head")) {
            throw new UsageException(
                    "--exec gives both revisions' command; with --exec-base and --exec-head it says nothing");
        }
        if (baseCommand == null || headCommand == null) {
            throw new UsageException(
                    "give the adapter with --exec CMD, or each revision's with --exec-base CMD --exec-head CMD");
        }
        if (baseCommand.isBlank() || headCommand.isBlank()) {
            throw new UsageException("an adapter command is empty");
        }
        String base = options.get("--base");
        if (base == null && both != null) {
            throw new UsageException(
                    "--base REV is required with --exec (without it, give --exec-base and --exec-head)");
        }
        if (base == null
                && (options.containsKey("--head")
                        || options.containsKey("--repo")
                        || options.containsKey("--accept-from-head"))) {
            throw new UsageException("--head, --repo and --accept-from-head need --base REV");
        }
        String format = options.getOrDefault("--format", "text");
        if (!Set.of("text", "json", "markdown", "sarif").contains(format)) {
            throw new UsageException("--format must be text, json, markdown or sarif, not \"" + format + "\"");
        }
        // a job is a pair of adapters kept busy by sending each scenario ahead: a pair per two cores (at most 2) is as
        // fast
        // on two cores as a pair per core, with less CPU (docs/performance.md, "The connector audit against conform")
        int jobs =
                (int)
                        Options.integer(
                                options,
                                "--jobs",
                                1,
                                256,
                                Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()) / 2));
        long timeout =
                Options.integer(
                        options, "--timeout", 1, 3600, io.proofgate.conform.Conform.DEFAULT_PATIENCE.toSeconds());
        int maxErrors = (int) Options.integer(options, "--max-errors", 1, 1_000_000, 10);
        Path repo = null;
        if (base != null) {
            repo = Path.of(options.getOrDefault("--repo", "")).toAbsolutePath();
            if (!Files.isDirectory(repo)) {
                throw new UsageException("--repo " + repo + " is not a folder");
            }
        }
        List<Path> folders = new ArrayList<>(ConformCommand.folders("all"));
        if (options.containsKey("--scenarios")) {
            folders.addAll(ConformCommand.folders(options.get("--scenarios")));
        }
        // the scenarios are read while both revisions are written
        java.util.concurrent.FutureTask<List<Scenario>> reading =
                new java.util.concurrent.FutureTask<>(
                        () -> {
                            List<Scenario> read = new ArrayList<>();
                            for (Path folder : folders) {
                                read.addAll(ScenarioReader.read(folder));
                            }
                            return read;
                        });
        Thread.ofPlatform().daemon(true).name("proofgate-audit-scenarios").start(reading);
        ConnectorChange.Scenarios scenarios =
                () -> {
                    List<Scenario> read;
                    try {
                        read = reading.get();
                    } catch (java.util.concurrent.ExecutionException e) {
                        if (e.getCause() instanceof OutOfMemoryError oom) {
                            throw oom; // the command's words for it (Main)
                        }
                        throw e.getCause() instanceof ConformException c
                                ? c
                                : new ConformException("the scenarios could not be read: " + e.getCause());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new ConformException("interrupted");
                    }
                    err.println(
                            "proofgate audit-connector: "
                                    + String.format("%,d", read.size())
                                    + " scenarios from "
                                    + String.join(", ", folders.stream().map(Path::toString).toList()));
                    return read;
                };
        try {
            ConnectorAuditReport report =
                    ConnectorChange.run(
                            new ConnectorChange.Request(
                                    repo,
                                    base,
                                    options.get("--head"),
                                    baseCommand,
                                    headCommand,
                                    scenarios,
                                    new ConnectorAudit.Settings(jobs, Duration.ofSeconds(timeout), maxErrors),
                                    options.containsKey("--accept-from-head")),
                            line -> err.println("proofgate audit-connector: " + line));
            out.print(
                    switch (format) {
                        case "json" -> ConnectorAuditJson.write(report);
                        case "markdown" -> ConnectorAuditMarkdown.write(report);
                        case "sarif" -> ConnectorAuditSarif.write(report);
                        default -> ConnectorAuditText.write(report);
                    });
            out.flush();
            if (out.checkError()) {
                err.println("proofgate audit-connector: cannot write to standard output; the report is incomplete");
                return Main.USAGE;
            }
            err.println("proofgate audit-connector: " + report.verdict());
            return report.exitCode();
        } catch (ConformException | AuditException e) {
            err.println("proofgate audit-connector: " + e.getMessage());
            return Main.USAGE;
        } catch (IOException e) {
            err.println("proofgate audit-connector: " + FileProblems.words(e));
            return Main.USAGE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("proofgate audit-connector: interrupted");
            return Main.USAGE;
        }
    }
}
