package io.proofgate.cli;

import io.proofgate.audit.Audit;
import io.proofgate.audit.AuditException;
import io.proofgate.audit.AuditJson;
import io.proofgate.audit.AuditMarkdown;
import io.proofgate.audit.AuditSarif;
import io.proofgate.audit.AuditText;
import io.proofgate.parse.ParseException;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/** {@code proofgate audit}: what a change between two revisions does to the protocol. */
final class AuditCommand implements Command {

    private static final long DEFAULT_MAX_PAIRS = 2_000_000;

    @Override
    public String name() {
        return "audit";
    }

    @Override
    public String summary() {
        return "what a change between two revisions does to the protocol: behaviour witnesses, implementation,"
                + " namespace";
    }

    @Override
    public String help() {
        return """
        Usage: proofgate audit --base REV [--head REV] [--model M[,M...]] [--format text|json|markdown|sarif]
                               [--repo DIR] [--workers N] [--max-pairs N] [--accept-from-head]

        The audit of a change to the spec and validator of a repository with proofgate's layout. A
        change to a connector, in any language, is proofgate audit-connector's.

        Compares two revisions of a repository with proofgate's layout (spec/, validator/): the base
        and the head (default: the working tree, uncommitted changes included). Each revision's spec
        and validator are read with git into a folder of the run's own under target/ (the working
        tree and the index are never written). It reports:

          safety          each model's invariants and properties: a model where the head's spec
                          violates one the base's passes is broken, with TLC's counterexample
                          (never acceptable; that model's behaviour is not compared)
          behaviour       each spec revision as a machine from replay events to verdicts; both run on
                          the base's models, and their product is searched breadth first, so each
                          class of difference (the event's topic, base's verdicts -> head's) comes with
                          a shortest witness log; verdict changes apart from reason-only changes
          implementation  both revisions' generated scenarios and every witness through both
                          validators: explained (the validator follows a spec change), not_followed
                          (the spec changed, the head validator does not say what it says),
                          unexplained (the validator changed where the spec did not)
          namespace       golden vectors of the target rule and of plan block selection per policy,
                          computed by both validators; "none" only when every vector is identical
          model bounds    distinct states per model at both revisions

        Findings have stable fingerprints (from their class and witness, never line numbers);
        audit-accepted.json at the base accepts them with a justification (docs/audit.md); what
        the head's file adds is listed as "accepted by this change, needs a reviewer" and still
        counts, unless --accept-from-head.

          --base REV       the revision the change is measured from (a branch, tag or commit)
          --head REV       the revision to audit (default: the working tree)
          --model M,...    the base's models to compare on (default: every generation model,
                           and every model marked "audit": true, such as producer)
          --format F       text (default), json, markdown (a PR comment) or sarif
          --repo DIR       the repository (default: the current directory's)
          --workers N      TLC worker threads (default: all cores)
          --max-pairs N    state pairs the behaviour search may visit per model (default 2000000);
                           a search stopped by it is not judged (exit 2)
          --accept-from-head  take the head's own acceptances as reviewed

        Exit codes: 0 no unaccepted semantic change; 1 unaccepted semantic changes; 2 the audit
        could not run or did not finish (unknown revision, no spec, a base spec that fails TLC,
        a head spec that does not parse, a search stopped at --max-pairs, bad options or files).
        Progress goes to stderr.
        """;
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
                                "--model",
                                "--format",
                                "--repo",
                                "--workers",
                                "--max-pairs",
                                "--exec",
                                "--exec-base",
                                "--exec-head",
                                "--scenarios",
                                "--jobs",
                                "--timeout",
                                "--max-errors"));
        // the connector audit's options, named so that a command line written for it says where it goes
        for (String option :
                List.of("--exec", "--exec-base", "--exec-head", "--scenarios", "--jobs", "--timeout", "--max-errors")) {
            if (options.containsKey(option)) {
                throw new UsageException(
                        option + " is an option of the audit of a connector change: proofgate audit-connector");
            }
        }
        String base = options.get("--base");
        if (base == null) {
            throw new UsageException("--base REV is required");
        }
        String format = options.getOrDefault("--format", "text");
        if (!Set.of("text", "json", "markdown", "sarif").contains(format)) {
            throw new UsageException("--format must be text, json, markdown or sarif, not \"" + format + "\"");
        }
        List<String> models =
                options.containsKey("--model")
                        ? Arrays.stream(options.get("--model").split(","))
                                .map(String::strip)
                                .filter(s -> !s.isEmpty())
                                .toList()
                        : List.of();
        int workers = (int) Options.integer(options, "--workers", 1, 1024, Runtime.getRuntime().availableProcessors());
        long maxPairs = Options.integer(options, "--max-pairs", 1, Long.MAX_VALUE / 2, DEFAULT_MAX_PAIRS);
        Path repo = Path.of(options.getOrDefault("--repo", "")).toAbsolutePath();
        if (!Files.isDirectory(repo)) {
            throw new UsageException("--repo " + repo + " is not a folder");
        }
        try {
            Audit.Report report =
                    Audit.run(
                            new Audit.Request(
                                    repo,
                                    base,
                                    options.get("--head"),
                                    models,
                                    workers,
                                    maxPairs,
                                    options.containsKey("--accept-from-head")),
                            err);
            out.print(
                    switch (format) {
                        case "json" -> AuditJson.write(report);
                        case "markdown" -> AuditMarkdown.write(report);
                        case "sarif" -> AuditSarif.write(report);
                        default -> AuditText.write(report);
                    });
            out.flush();
            if (out.checkError()) {
                err.println("proofgate audit: cannot write to standard output; the report is incomplete");
                return Main.USAGE;
            }
            if (!report.incomplete().isEmpty()) {
                // a search stopped by a limit has not answered the question: never a clean exit
                err.println(
                        "proofgate audit: not judged: the behaviour search stopped at --max-pairs "
                                + maxPairs
                                + " on "
                                + String.join(", ", report.incomplete()));
                return Main.USAGE;
            }
            int open = report.unaccepted().size();
            err.println(
                    "proofgate audit: "
                            + (open == 0
                                    ? "no unaccepted semantic change"
                                    : open + " unaccepted semantic change" + (open == 1 ? "" : "s")));
            return open == 0 ? Main.OK : Main.FINDINGS;
        } catch (AuditException | ParseException | IOException e) {
            err.println("proofgate audit: " + e.getMessage());
            return Main.USAGE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("proofgate audit: interrupted");
            return Main.USAGE;
        }
    }
}
