package io.proofgate.review;

import io.proofgate.audit.Accepted;
import io.proofgate.audit.Approvals;
import io.proofgate.audit.GitRepository;
import io.proofgate.audit.TaskResult;
import io.proofgate.conform.Conform;
import io.proofgate.conform.ConformException;
import io.proofgate.conform.ProcessAdapter;
import io.proofgate.conform.Scenario;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.FutureTask;

/**
 * {@code proofgate audit-connector --exec}: a change to a connector in any language, as the scenarios see it. Each
 * revision is written into a folder of the run's own and its adapter command runs there; or two adapter commands are
 * compared as they are, in the current directory.
 */
public final class ConnectorChange {

    /**
     * @param repo the repository (git mode), or null to compare the two commands as they are
     * @param base the base revision (git mode)
     * @param head the head revision, or null for the working tree
     */
    public record Request(
            Path repo,
            String base,
            String head,
            String baseCommand,
            String headCommand,
            Scenarios scenarios,
            ConnectorAudit.Settings settings,
            boolean acceptFromHead) {
        public Request(
                Path repo,
                String base,
                String head,
                String baseCommand,
                String headCommand,
                List<Scenario> scenarios,
                ConnectorAudit.Settings settings,
                boolean acceptFromHead) {
            this(repo, base, head, baseCommand, headCommand, () -> scenarios, settings, acceptFromHead);
        }
    }

    /**
     * The scenarios, asked for once both revisions are written: a caller may read them meanwhile (the command line
     * does, on a thread of its own).
     */
    @FunctionalInterface
    public interface Scenarios {
        List<Scenario> get() throws ConformException;
    }

    private ConnectorChange() {}

    public static ConnectorAuditReport run(Request request, Conform.Progress progress)
            throws ConformException, IOException, InterruptedException {
        if (request.repo() == null) {
            Path here = Path.of("").toAbsolutePath();
            return audit(
                    request,
                    new ConnectorAuditReport.Side("base", null, request.baseCommand(), List.of()),
                    new ConnectorAuditReport.Side("head", null, request.headCommand(), List.of()),
                    here,
                    here,
                    null,
                    Approvals.NONE,
                    List.of(),
                    progress);
        }
        GitRepository repository = GitRepository.at(request.repo());
        // removed however the run ends, SIGTERM and Ctrl-C included, after the adapters running in it
        try (io.proofgate.check.TemporaryFolder folder =
                io.proofgate.check.TemporaryFolder.create(null, "proofgate-audit-", ProcessAdapter::endAll)) {
            Path work = folder.path();
            long start = System.nanoTime();
            // the two revisions are written side by side: each is mostly waiting on git and the disk
            FutureTask<Checkout> headWritten =
                    new FutureTask<>(() -> Checkout.of(repository, request.head(), work.resolve("head")));
            Thread.ofPlatform().name("proofgate-audit-head").start(headWritten);
            Checkout base;
            try {
                base = Checkout.of(repository, request.base(), work.resolve("base"));
            } finally {
                TaskResult.await(
                        headWritten); // the folder is deleted below: the head's writer must be done with it first
            }
            Checkout head = TaskResult.of(headWritten);
            progress.line(
                    String.format(
                            "revisions written: base %s, head %s (%.1f s)",
                            base.shortName(), head.shortName(), (System.nanoTime() - start) / 1e9));
            Approvals approvals =
                    new Approvals(
                            Accepted.ofRevision(base.dir(), "base"),
                            Accepted.ofRevision(head.dir(), "head"),
                            request.acceptFromHead());
            return audit(
                    request,
                    new ConnectorAuditReport.Side(base.name(), base.commit(), request.baseCommand(), List.of()),
                    new ConnectorAuditReport.Side(
                            head.name(), head.commit(), request.headCommand(), head.uncommitted()),
                    base.dir(),
                    head.dir(),
                    repository.root(),
                    approvals,
                    Checkout.changed(base, head),
                    progress);
        }
    }

    private static ConnectorAuditReport audit(
            Request request,
            ConnectorAuditReport.Side base,
            ConnectorAuditReport.Side head,
            Path baseDir,
            Path headDir,
            Path repository,
            Approvals approvals,
            List<String> changed,
            Conform.Progress progress)
            throws ConformException {
        // written revisions are folders of the run's own (repository is where they come from); two
        // commands compared as they are run here have none
        Conform.Adapters baseAdapters =
                () ->
                        repository != null
                                ? ProcessAdapter.ofRevision(request.baseCommand(), baseDir, repository)
                                : new ProcessAdapter(request.baseCommand(), baseDir);
        Conform.Adapters headAdapters =
                () ->
                        repository != null
                                ? ProcessAdapter.ofRevision(request.headCommand(), headDir, repository)
                                : new ProcessAdapter(request.headCommand(), headDir);
        // the probes are independent of the scenarios: their adapters run beside the scenarios'
        NamespaceRun.Beside probes = new NamespaceRun.Beside(baseAdapters, headAdapters, request.settings(), progress);
        ConnectorAudit.Run run =
                ConnectorAudit.run(
                        request.scenarios(), baseAdapters, headAdapters, request.settings(), progress, probes);
        progress.line(
                String.format("%,d scenarios through both revisions in %.1f s", run.outcomes().size(), run.seconds()));
        Rerun.Result rerun =
                run.stoppedAfter() > 0
                        ? Rerun.Result.NONE
                        : Rerun.of(run, baseAdapters, headAdapters, request.settings(), progress);
        List<DifferenceClass> classes =
                run.stoppedAfter() > 0 || !rerun.repeated()
                        ? List.of()
                        : Classes.of(run, baseAdapters, headAdapters, request.settings());
        NamespaceRun.Result namespace = probes.result();
        return new ConnectorAuditReport(base, head, run, rerun, classes, namespace, approvals, changed);
    }
}
