package io.proofgate.audit;

import io.proofgate.check.CheckOptions;
import io.proofgate.check.Model;
import io.proofgate.graph.StateGraph;
import io.proofgate.tlc.TlcRunner;
import io.proofgate.tlc.WarmTlcPool;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SequencedMap;

/**
 * {@code proofgate audit}: what a change between two revisions does to the protocol. Both revisions are materialised
 * into a folder of this run's own under the repository's {@code target/}, their specs run on the base's models, and the
 * report answers four questions: how the spec's behaviour changed (with witnesses), whether the validator followed,
 * whether anything that decides what a published prefix is changed, and how the model sizes moved.
 */
public final class Audit {

    /**
     * What to audit.
     *
     * @param head null for the working tree
     * @param models model names of the base's spec/models.json; empty for every generation model
     * @param maxPairs how many state pairs the behaviour search may visit per model
     */
    public record Request(
            Path repository,
            String base,
            String head,
            List<String> models,
            int workers,
            long maxPairs,
            boolean acceptFromHead) {
        public Request(Path repository, String base, String head, List<String> models, int workers, long maxPairs) {
            this(repository, base, head, models, workers, maxPairs, false);
        }

        public Request {
            models = List.copyOf(models);
        }
    }

    /** Distinct states of a model at both revisions (a tripwire for changed bounds or bookkeeping). */

    /**
     * One namespace name compared over the probes either validator answers: how many differ, with the first that does.
     */
    public record SurfaceChange(String name, int probes, int changed, String firstBase, String firstHead) {
        /** A changed surface's identity, from the surface and its first changed vector. */
        public String fingerprint() {
            return Fingerprints.of("namespace", name, String.valueOf(firstBase), String.valueOf(firstHead));
        }
    }

    public record Report(
            Revision base,
            Revision head,
            List<String> models,
            List<String> modelFilesDiffer,
            List<Safety> safety,
            List<BehaviourDiff.Result> behaviour,
            List<ImplementationCheck.Result> implementation,
            List<SurfaceChange> namespace,
            List<ModelSizes> counts,
            List<ModelSizes.Finding> checked,
            Approvals approvals,
            List<ChangedCode.Location> specChanges,
            List<ChangedCode.Location> validatorChanges) {

        /**
         * Whether the finding of this fingerprint needs no more review (accepted at the base, see {@link Approvals}). A
         * broken invariant never is: see {@link Safety}.
         */
        public boolean accepted(String fingerprint) {
            return !approvals.open(fingerprint)
                    && broken().stream().noneMatch(s -> s.fingerprint().equals(fingerprint));
        }

        /** The models where the head's spec violates an invariant or property the base's passes. */
        public List<Safety> broken() {
            return safety.stream().filter(s -> s.broken().isPresent()).toList();
        }

        /** The reviewers' reason for an accepted finding, or null (also for one only the change itself accepts). */
        public String justification(String fingerprint) {
            if (!accepted(fingerprint)) {
                return null;
            }
            return switch (approvals.of(fingerprint)) {
                case Approvals.ByBase b -> b.justification();
                case Approvals.ByChange c -> c.justification();
                case Approvals.Open o -> null;
            };
        }

        /**
         * Findings only the head's own acceptances name: a change cannot approve itself. A broken invariant is left
         * out, since no review can accept it.
         */
        public List<String> acceptedByChange() {
            java.util.Set<String> neverAccepted = new java.util.HashSet<>();
            broken().forEach(s -> neverAccepted.add(s.fingerprint()));
            return all().stream()
                    .filter(f -> approvals.of(f) instanceof Approvals.ByChange && !neverAccepted.contains(f))
                    .sorted()
                    .toList();
        }

        /** Models whose behaviour search stopped at --max-pairs: the audit did not finish there. */
        public List<String> incomplete() {
            return behaviour.stream().filter(r -> !r.complete()).map(BehaviourDiff.Result::model).toList();
        }

        /**
         * Unaccepted semantic changes: broken invariants (never acceptable), behaviour differences, validator changes
         * the spec does not explain or that do not follow it, and namespace impact. Explained validator changes are the
         * other side of a behaviour difference and do not count twice.
         */
        public List<String> unaccepted() {
            List<String> open = new ArrayList<>();
            broken().forEach(s -> open.add(s.fingerprint()));
            differences().stream().map(Difference::fingerprint).filter(f -> !accepted(f)).forEach(open::add);
            implementationFindings().stream()
                    .filter(f -> f.kind() != ImplementationCheck.Class.EXPLAINED)
                    .map(ImplementationCheck.Finding::fingerprint)
                    .filter(f -> !accepted(f))
                    .forEach(open::add);
            namespace.stream()
                    .filter(s -> s.changed() > 0)
                    .map(SurfaceChange::fingerprint)
                    .filter(f -> !accepted(f))
                    .forEach(open::add);
            modelFindings().stream().map(ModelSizes.Finding::fingerprint).filter(f -> !accepted(f)).forEach(open::add);
            return open;
        }

        /** Accepted entries whose finding did not occur. */
        public List<String> staleAcceptances() {
            return approvals.stale(all());
        }

        private java.util.Set<String> all() {
            java.util.Set<String> all = new java.util.HashSet<>();
            broken().forEach(s -> all.add(s.fingerprint()));
            differences().forEach(d -> all.add(d.fingerprint()));
            implementationFindings().forEach(f -> all.add(f.fingerprint()));
            namespace.stream().filter(s -> s.changed() > 0).forEach(s -> all.add(s.fingerprint()));
            modelFindings().forEach(f -> all.add(f.fingerprint()));
            return all;
        }

        /**
         * The head's own models smaller than the base's, or not what its models.json records; and what they check less
         * of, or anew ({@link CheckedChanges}).
         */
        public List<ModelSizes.Finding> modelFindings() {
            List<ModelSizes.Finding> findings = new ArrayList<>();
            counts.forEach(m -> findings.addAll(m.findings()));
            findings.addAll(checked);
            return findings;
        }

        public List<Difference> differences() {
            return behaviour.stream().flatMap(r -> r.differences().stream()).toList();
        }

        public List<ImplementationCheck.Finding> implementationFindings() {
            return implementation.stream().flatMap(r -> r.findings().stream()).toList();
        }

        public boolean namespaceImpact() {
            return namespace.stream().anyMatch(s -> s.changed() > 0);
        }
    }

    /**
     * The fewest models an audit runs TLC in warm JVMs for. One warm JVM's first run costs about a fresh run more than
     * the fresh run (its start and warm-up); each run after it about half a fresh one's (docs/performance.md, "The spec
     * audit end to end").
     */
    static final int WARM_FROM_MODELS = 3;

    private Audit() {}

    public static Report run(Request request, PrintStream stderr) throws IOException, InterruptedException {
        Progress progress = new Progress(stderr);
        GitRepository repository = GitRepository.at(request.repository());
        String baseCommit = repository.commit(request.base());
        if (request.head() != null) {
            repository.commit(request.head());
        }
        Path runs = repository.root().resolve("target/proofgate/audit");
        Files.createDirectories(runs);
        // removed however the run ends, SIGTERM and Ctrl-C included (TLC's processes end with the JVM)
        io.proofgate.check.TemporaryFolder folder = io.proofgate.check.TemporaryFolder.create(runs, "run-", () -> {});
        Path run = folder.path();
        WarmTlcPool warm = null;
        try {
            progress.say(
                    "reading "
                            + request.base()
                            + " and "
                            + (request.head() == null ? "the working tree" : request.head())
                            + " into "
                            + repository.root().relativize(run));
            Revision base = Revision.materialise(repository, baseCommit, run.resolve("base"));
            Revision head = Revision.materialise(repository, request.head(), run.resolve("head"));
            List<Model> models = SpecGraphs.models(base, request.models());
            List<String> names = models.stream().map(Model::name).toList();
            List<String> differ = SpecGraphs.headOnBaseModels(base, head, models, run.resolve("head-on-base"));
            // warm JVMs from a few models on: most of the models are small, and a fresh JVM spends
            // most of such a run before its compiler has caught up; but a warm JVM's first run also
            // pays its warm-up, so an audit of one or two models runs fresh (docs/performance.md,
            // "The spec audit end to end")
            if (models.size() >= WARM_FROM_MODELS) {
                warm = new WarmTlcPool(run.resolve("warm-tlc"), CheckOptions.DEFAULT_HEAP);
            }
            TlcRunner tlc = warm != null ? warm : TlcRunner.FRESH;
            GraphCache kept = new GraphCache(runs.resolve("graphs"), tlc);
            Path headSpec = run.resolve("head-on-base/spec");
            SequencedMap<String, String> baseKeys = SpecGraphs.keys(base.spec(), names, "base", kept);
            SequencedMap<String, String> headKeys = SpecGraphs.keys(headSpec, names, "head", kept);
            boolean baseKept = SpecGraphs.allKept(baseKeys, kept);
            boolean headKept = SpecGraphs.allKept(headKeys, kept);
            int half = Math.max(1, request.workers() / 2);
            int baseWorkers = headKept ? request.workers() : half;
            int headWorkers = baseKept ? request.workers() : half;
            SpecGraphs.Side baseSide;
            SpecGraphs.Side headSide;
            String how = "state graphs dumped" + (warm != null ? ", in warm JVMs" : "");
            if (baseKeys.equals(headKeys)) {
                // every spec file the same at both revisions (a change of the validator alone): one run per model
                // serves both sides, where two side by side would compute the same graphs twice
                progress.say("TLC once for both specs (the head's is the base's, file for file), " + how);
                baseSide =
                        SpecGraphs.run(
                                base.spec(),
                                baseKeys,
                                "base and head " + base.shortName() + ", " + head.shortName(),
                                run.resolve("tlc/base"),
                                request.workers(),
                                false,
                                kept,
                                tlc,
                                stderr);
                headSide = baseSide;
            } else {
                // the two TLC runs are independent: side by side, each with half the workers, or all of
                // them for one side when the other's graphs are all kept from an earlier audit
                progress.say("TLC on both specs (the head's on the base's models), " + how);
                var pool = java.util.concurrent.Executors.newFixedThreadPool(2);
                try {
                    var baseRun =
                            pool.submit(
                                    () ->
                                            SpecGraphs.run(
                                                    base.spec(),
                                                    baseKeys,
                                                    "base " + base.shortName(),
                                                    run.resolve("tlc/base"),
                                                    baseWorkers,
                                                    false,
                                                    kept,
                                                    tlc,
                                                    stderr));
                    var headRun =
                            pool.submit(
                                    () ->
                                            SpecGraphs.run(
                                                    headSpec,
                                                    headKeys,
                                                    "head " + head.shortName(),
                                                    run.resolve("tlc/head"),
                                                    headWorkers,
                                                    true,
                                                    kept,
                                                    tlc,
                                                    stderr));
                    baseSide = TaskResult.of(baseRun);
                    headSide = TaskResult.of(headRun);
                } finally {
                    pool.shutdownNow();
                }
            }
            SequencedMap<String, StateGraph> baseGraphs = baseSide.graphs();
            SequencedMap<String, StateGraph> headGraphs = headSide.graphs();
            // a model where the head breaks an invariant has no head graph: its finding is the counterexample
            List<Safety> safety = headSide.safety();
            List<String> compared = names.stream().filter(headGraphs::containsKey).toList();

            // the head's own models: the same graphs unless its model files differ from the base's
            SequencedMap<String, StateGraph> headOwn = headGraphs;
            java.util.Map<String, Model> headCatalog = SpecGraphs.catalogOf(head, "head", compared);
            if (!differ.isEmpty() && !compared.isEmpty()) {
                progress.say("TLC on the head's own models (its model files differ from the base's)");
                headOwn =
                        SpecGraphs.run(
                                        head.spec(),
                                        SpecGraphs.keys(
                                                head.spec(),
                                                compared.stream().filter(headCatalog::containsKey).toList(),
                                                "head",
                                                kept),
                                        "head's own " + head.shortName(),
                                        run.resolve("tlc/head-own"),
                                        request.workers(),
                                        false,
                                        kept,
                                        tlc,
                                        stderr)
                                .graphs();
            }

            if (warm != null) {
                warm.close(); // its JVMs' memory is the validators' now
            }

            List<BehaviourDiff.Result> behaviour = new ArrayList<>();
            List<ModelSizes> counts = new ArrayList<>();
            List<ModelSizes.Finding> ownFindings = new ArrayList<>();
            // one machine per graph, so that each state's successors by event are computed once for both uses
            List<Machine> baseMachines = new ArrayList<>();
            List<Machine> headMachines = new ArrayList<>();
            for (String name : compared) {
                progress.say("comparing the behaviour of both specs on " + name);
                Machine baseMachine = new Machine(baseGraphs.get(name), "base");
                Machine headMachine = new Machine(headGraphs.get(name), "head");
                baseMachines.add(baseMachine);
                headMachines.add(headMachine);
                behaviour.add(
                        readable(
                                name, () -> BehaviourDiff.compare(name, baseMachine, headMachine, request.maxPairs())));
                StateGraph own = headOwn.get(name);
                if (own != null && own != headGraphs.get(name)) {
                    // the head's model files against the base's, both with the head's spec: what they change
                    // alone (another environment, other bounds, a rule replaced in a config) is what the next
                    // audit takes as its base, so it is a finding even where the counts do not drop
                    BehaviourDiff.Result ownDiff =
                            readable(
                                    name,
                                    () ->
                                            BehaviourDiff.compare(
                                                    name, headMachine, new Machine(own, "head"), request.maxPairs()));
                    ownFindings.addAll(ownModelFindings(name, ownDiff));
                }
                Model recorded = headCatalog.get(name);
                counts.add(
                        new ModelSizes(
                                name,
                                baseGraphs.get(name).states().size(),
                                headGraphs.get(name).states().size(),
                                own == null ? -1 : own.states().size(),
                                baseGraphs.get(name).edges().size(),
                                own == null ? -1 : own.edges().size(),
                                recorded == null ? -1 : recorded.distinctStates().orElse(-1),
                                base.scenarios(name),
                                head.scenarios(name)));
            }

            Path cache = runs.resolve("validators");
            List<ImplementationCheck.Result> implementation = new ArrayList<>();
            List<SurfaceChange> namespace = new ArrayList<>();
            progress.say("compiling both validators");
            try (RevisionValidator baseValidator = RevisionValidator.load(base.dir(), cache, "base");
                    RevisionValidator headValidator = RevisionValidator.load(head.dir(), cache, "head")) {
                for (int i = 0; i < compared.size(); i++) {
                    String name = compared.get(i);
                    progress.say("both validators on the scenarios and witnesses of " + name);
                    int at = i;
                    implementation.add(
                            readable(
                                    name,
                                    () ->
                                            ImplementationCheck.run(
                                                    name,
                                                    baseMachines.get(at),
                                                    headMachines.get(at),
                                                    behaviour.get(at).differences(),
                                                    baseValidator,
                                                    headValidator)));
                }
                progress.say("namespace probes through both validators");
                namespace.addAll(
                        NamespaceVectors.compare(
                                NamespaceVectors.of(baseValidator), NamespaceVectors.of(headValidator)));
            }
            progress.say("done");
            return new Report(
                    base,
                    head,
                    names,
                    differ,
                    safety,
                    behaviour,
                    implementation,
                    namespace,
                    counts,
                    java.util.stream.Stream.concat(
                                    ownFindings.stream(),
                                    CheckedChanges.of(base, head, models, headCatalog, request.models().isEmpty())
                                            .stream())
                            .toList(),
                    new Approvals(
                            Accepted.ofRevision(base.dir(), "base"),
                            Accepted.ofRevision(head.dir(), "head"),
                            request.acceptFromHead()),
                    ChangedCode.specDefinitions(base, head),
                    ChangedCode.validatorSources(base, head));
        } finally {
            if (warm != null) {
                warm.close();
            }
            folder.close();
        }
    }

    /**
     * What a model's own files at the head change, the head's spec run on the base's files and on its own: one finding
     * per class of difference, or one that says the comparison did not finish.
     */
    private static List<ModelSizes.Finding> ownModelFindings(String name, BehaviourDiff.Result diff) {
        List<ModelSizes.Finding> findings = new ArrayList<>();
        for (Difference d : diff.differences()) {
            findings.add(
                    new ModelSizes.Finding(
                            name,
                            "the head's own model files change what "
                                    + name
                                    + " does (its spec on the base's files, then on its own): "
                                    + d.className()
                                    + " (witness "
                                    + d.fingerprint()
                                    + ")"));
        }
        if (!diff.complete()) {
            findings.add(
                    new ModelSizes.Finding(
                            name,
                            "the head's own model files of "
                                    + name
                                    + " were not compared with the base's to the end (--max-pairs)"));
        }
        return findings;
    }

    /**
     * A step that reads the specs' states as proofgate's spec writes them ({@code lastEvent}, {@code lastVerdicts}, the
     * connector's variables): a state it cannot read is a spec the audit does not understand, said in one line, not a
     * stack trace.
     */
    private static <T> T readable(String model, java.util.function.Supplier<T> step) {
        try {
            return step.get();
        } catch (IllegalArgumentException | io.proofgate.generate.GenerationException e) {
            throw new AuditException(
                    "the state graphs of model " + model + " are not ones the audit reads: " + ownMessage(e));
        }
    }

    /**
     * The message of the exception a step threw. A parallel stream rethrows one that a pool thread threw as a new
     * exception of its class with it as the cause, whose message is the cause's class name and message; the cause's own
     * message is the one to say.
     */
    static String ownMessage(RuntimeException e) {
        Throwable said = e;
        while (said.getCause() != null
                && said.getCause().getClass() == said.getClass()
                && String.valueOf(said.getMessage()).equals(said.getCause().toString())) {
            said = said.getCause();
        }
        return said.getMessage();
    }

    /**
     * Progress lines on stderr, each with the seconds since the audit started, so that a run shows where its time goes.
     */
    private static final class Progress {
        private final PrintStream out;
        private final long start = System.nanoTime();

        Progress(PrintStream out) {
            this.out = out;
        }

        void say(String what) {
            out.printf(
                    java.util.Locale.ROOT, "proofgate audit: [%5.1f s] %s%n", (System.nanoTime() - start) / 1e9, what);
        }
    }
}
