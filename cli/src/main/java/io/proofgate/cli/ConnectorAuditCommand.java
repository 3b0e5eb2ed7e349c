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
import java.util.Map;
import java.util.Set;

/** {@code proofgate audit --exec}: a change to a connector in any language (docs/audit.md). */
final class ConnectorAuditCommand {

    private ConnectorAuditCommand() {}

    static int run(Map<String, String> options, PrintStream out, PrintStream err) throws UsageException {
        for (String option : List.of("--model", "--workers", "--max-pairs")) {
            if (options.containsKey(option)) {
                throw new UsageException(option + " is an option of the spec audit, not of --exec");
            }
        }
        String both = options.get("--exec");
        String baseCommand = options.getOrDefault("--exec-base", both);
        String headCommand = options.getOrDefault("--exec-head", both);
        if (both != null && options.containsKey("--exec-base") && options.containsKey("--exec-head")) {
            throw new UsageException("--exec gives both revisions' command; with --exec-base and --exec-head it says nothing");
        }
        if (baseCommand == null || headCommand == null) {
            throw new UsageException("give the adapter with --exec CMD, or each revision's with --exec-base CMD --exec-head CMD");
        }
        if (baseCommand.isBlank() || headCommand.isBlank()) {
            throw new UsageException("an adapter command is empty");
        }
        String base = options.get("--base");
        if (base == null && both != null) {
            throw new UsageException("--base REV is required with --exec (without it, give --exec-base and --exec-head)");
        }
        if (base == null && (options.containsKey("--head") || options.containsKey("--repo")
                || options.containsKey("--accept-from-head"))) {
            throw new UsageException("--head, --repo and --accept-from-head need --base REV");
        }
        String format = options.getOrDefault("--format", "text");
        if (!Set.of("text", "json", "markdown", "sarif").contains(format)) {
            throw new UsageException("--format must be text, json, markdown or sarif, not \"" + format + "\"");
        }
        // a job is a pair of adapters kept busy by sending each scenario ahead: a pair per two cores (at most 2) is as fast
        // on two cores as a pair per core, with less CPU (docs/performance.md, "The connector audit against conform")
        int jobs = (int) Options.integer(options, "--jobs", 1, 256, Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()) / 2));
        long timeout = Options.integer(options, "--timeout", 1, 3600, io.proofgate.conform.Conform.DEFAULT_PATIENCE.toSeconds());
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
        java.util.concurrent.FutureTask<List<Scenario>> reading = new java.util.concurrent.FutureTask<>(() -> {
            List<Scenario> read = new ArrayList<>();
            for (Path folder : folders) {
                read.addAll(ScenarioReader.read(folder));
            }
            return read;
        });
        Thread.ofPlatform().daemon(true).name("proofgate-audit-scenarios").start(reading);
        ConnectorChange.Scenarios scenarios = () -> {
            List<Scenario> read;
            try {
                read = reading.get();
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof OutOfMemoryError oom) {
                    throw oom; // the command's words for it (Main)
                }
                throw e.getCause() instanceof ConformException c ? c : new ConformException("the scenarios could not be read: " + e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ConformException("interrupted");
            }
            err.println("proofgate audit: " + String.format("%,d", read.size()) + " scenarios from "
                    + String.join(", ", folders.stream().map(Path::toString).toList()));
            return read;
        };
        try {
            ConnectorAuditReport report = ConnectorChange.run(new ConnectorChange.Request(repo, base, options.get("--head"),
                    baseCommand, headCommand, scenarios, new ConnectorAudit.Settings(jobs, Duration.ofSeconds(timeout), maxErrors),
                    options.containsKey("--accept-from-head")), line -> err.println("proofgate audit: " + line));
            out.print(switch (format) {
                case "json" -> ConnectorAuditJson.write(report);
                case "markdown" -> ConnectorAuditMarkdown.write(report);
                case "sarif" -> ConnectorAuditSarif.write(report);
                default -> ConnectorAuditText.write(report);
            });
            out.flush();
            if (out.checkError()) {
                err.println("proofgate audit: cannot write to standard output; the report is incomplete");
                return Main.USAGE;
            }
            err.println("proofgate audit: " + report.verdict());
            return report.exitCode();
        } catch (ConformException | AuditException e) {
            err.println("proofgate audit: " + e.getMessage());
            return Main.USAGE;
        } catch (IOException e) {
            err.println("proofgate audit: " + FileProblems.words(e));
            return Main.USAGE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("proofgate audit: interrupted");
            return Main.USAGE;
        }
    }
}
