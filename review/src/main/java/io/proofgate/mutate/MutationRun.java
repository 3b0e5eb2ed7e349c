package io.proofgate.mutate;

import io.proofgate.check.CheckOptions;
import io.proofgate.check.FileTree;
import io.proofgate.check.Model;
import io.proofgate.check.ModelCheck;
import io.proofgate.tlc.TlcEnding;
import io.proofgate.tlc.TlcMessage;
import io.proofgate.tlc.TlcResult;
import io.proofgate.tlc.Violation;
import io.proofgate.tlc.WarmTlcPool;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Checks mutants of one module on a list of models, {@code jobs} TLC runs at a time, each mutant in a folder of its own
 * (a copy of the spec folder's modules with the one module mutated), so that runs never share a file. A mutant's models
 * run in the order given and stop at the first that kills it: put the cheapest first. TLC runs in warm JVMs kept for
 * the next run ({@link WarmTlcPool}); close the run to end them.
 *
 * <p>A model whose invariants must each be violated ({@code each-violated}: each a witness that a behaviour is
 * reachable) kills a mutant under which one of them no longer is: the mutant removed a behaviour, which no invariant of
 * the other models can see, since an invariant holds on fewer behaviours as well as on all of them. A model that
 * expects one violation (a named mistake's, refuted) is the witness of that one: a mutant under which the mistake is no
 * longer refuted hid it, and is killed.
 */
public final class MutationRun implements AutoCloseable {

    /** Each TLC run's heap, in a fresh JVM as in a warm one. */
    private static final String HEAP = "1g";

    /**
     * TLC's "Computing initial states..." (2189): before it, a failure is the module's or the config's (SANY's parse
     * and semantic errors), not the model's. ("Starting...", 2185, comes even after a parse error.)
     */
    private static final int TLC_COMPUTING_INIT = 2189;

    private static final java.util.regex.Pattern CONSTANT_INVARIANT =
            java.util.regex.Pattern.compile("The invariant of (\\S+) is equal to FALSE");

    private final Path specDir;
    private final String moduleFile;
    private final List<Model> models;
    private final int jobs;
    private final MutantLimits limits;
    private final Path workDir;
    private final WarmTlcPool tlc;

    /**
     * @param specDir the folder of the module and of the models' modules
     * @param moduleFile the mutated module's file name in {@code specDir}
     * @param workDir a folder of this run's own
     */
    public MutationRun(
            Path specDir, String moduleFile, List<Model> models, int jobs, MutantLimits limits, Path workDir) {
        this.specDir = specDir;
        this.moduleFile = moduleFile;
        this.models = List.copyOf(models);
        this.jobs = jobs;
        this.limits = limits;
        this.workDir = workDir;
        this.tlc = new WarmTlcPool(workDir.resolve("warm-tlc"), HEAP);
    }

    /** How many warm JVMs have run TLC for this run so far, each for many runs. */
    public int tlcJvms() {
        return tlc.childrenStarted();
    }

    /** Ends the warm TLC JVMs. */
    @Override
    public void close() {
        tlc.close();
    }

    /** What checking one text gave, and the most distinct states one of its TLC runs found. */
    private record Checked(Outcome outcome, long states) {}

    /**
     * Checks the unmutated module first: a model that fails without a mutation would kill every mutant and make the
     * score meaningless.
     *
     * @throws MutationException when a model does not pass on the module as it is
     */
    public void checkBaseline(String text, PrintStream progress)
            throws MutationException, IOException, InterruptedException {
        // each model on its own, up to `jobs` at a time, as the mutants are checked: each run has
        // one worker, so one model after the other would leave all but one core idle
        List<Checked> checked =
                inParallel(
                        models,
                        model -> check(text, workDir.resolve("baseline").resolve(folder(model)), List.of(model)));
        for (Checked one : checked) {
            Outcome outcome = one.outcome();
            if (!(outcome instanceof Outcome.Survived)) {
                throw new MutationException(
                        moduleFile
                                + ": the models must pass before mutation, but "
                                + switch (outcome) {
                                    case Outcome.Killed k -> "model " + k.model() + " fails: " + k.by();
                                    case Outcome.TimedOut t ->
                                            "model " + t.model() + " ran past " + limits.timeout().toSeconds() + " s";
                                    case Outcome.OverStateBound o ->
                                            "model "
                                                    + o.model()
                                                    + " found more than "
                                                    + o.maxStates()
                                                    + " distinct states (--max-states)";
                                    case Outcome.NotCompilable n -> "it does not compile: " + n.problem();
                                    case Outcome.Survived s -> throw new IllegalStateException();
                                });
            }
        }
        progress.println("proofgate mutate: the models pass on " + moduleFile + " as it is");
    }

    public List<MutantResult> run(String text, List<Mutation> mutations, PrintStream progress)
            throws IOException, InterruptedException {
        return run(text, mutations, java.util.Map.of(), progress);
    }

    /**
     * As {@link #run(String, List, PrintStream)}, each mutant whose id {@code firstModels} maps to one of the models
     * checked on that model first, then on the others in their order: only the order (and so the time) changes, and
     * which model is named as killing it; a mutant that model does not kill is checked on the rest as any other.
     */
    public List<MutantResult> run(
            String text, List<Mutation> mutations, java.util.Map<String, String> firstModels, PrintStream progress)
            throws IOException, InterruptedException {
        AtomicInteger finished = new AtomicInteger();
        return inParallel(
                mutations,
                m -> {
                    Checked checked = check(m.apply(text), workDir.resolve(m.id()), order(firstModels.get(m.id())));
                    synchronized (progress) {
                        progress.printf(
                                java.util.Locale.ROOT,
                                "  [%d/%d] %s %s %s: %s (%,d states)%n",
                                finished.incrementAndGet(),
                                mutations.size(),
                                m.id(),
                                m.operator(),
                                m.kind().wireName(),
                                describe(checked.outcome()),
                                checked.states());
                    }
                    return new MutantResult(m, checked.outcome());
                });
    }

    /** One check of a text. */
    private interface Task<T, R> {
        R on(T item) throws IOException, InterruptedException;
    }

    /** {@code task} on each item, up to {@code jobs} at a time; the results in the items' order. */
    private <T, R> List<R> inParallel(List<T> items, Task<T, R> task) throws IOException, InterruptedException {
        ExecutorService pool =
                Executors.newFixedThreadPool(
                        jobs,
                        r -> {
                            Thread t = new Thread(r, "proofgate-mutant");
                            t.setDaemon(true);
                            return t;
                        });
        try {
            List<Future<R>> futures = new ArrayList<>();
            for (T item : items) {
                futures.add(pool.submit(() -> task.on(item)));
            }
            List<R> results = new ArrayList<>();
            for (Future<R> f : futures) {
                try {
                    results.add(f.get());
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof IOException io) {
                        throw io;
                    }
                    throw new IllegalStateException(e.getCause());
                }
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    /** The models, {@code firstModel} (if any) first, then the others in their order. */
    private List<Model> order(String firstModel) {
        List<Model> order = new ArrayList<>(models);
        order.sort(java.util.Comparator.comparing(model -> !model.name().equals(firstModel)));
        return order;
    }

    private static String folder(Model model) {
        return "tlc-" + model.name().replaceAll("[^A-Za-z0-9_.-]", "_");
    }

    static String describe(Outcome o) {
        return switch (o) {
            case Outcome.Killed k -> "killed on " + k.model() + " by " + k.by();
            case Outcome.Survived s -> "SURVIVED";
            case Outcome.TimedOut t -> "timed out on " + t.model();
            case Outcome.OverStateBound b ->
                    "over the state bound on " + b.model() + " (more than " + b.maxStates() + " distinct states)";
            case Outcome.NotCompilable n ->
                    "not compilable: " + io.proofgate.words.Outside.bare(n.problem()); // from a shard file, maybe
        };
    }

    /** Checks {@code text} as the module on each model of {@code order} in turn, in {@code dir}. */
    private Checked check(String text, Path dir, List<Model> order) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        try (Stream<Path> modules = Files.list(specDir)) {
            for (Path p : modules.filter(p -> p.getFileName().toString().endsWith(".tla")).toList()) {
                Files.copy(p, dir.resolve(p.getFileName()));
            }
        }
        Files.writeString(dir.resolve(moduleFile), text);
        long states = 0;
        try {
            for (Model model : order) {
                Path module = dir.resolve(model.module().getFileName());
                if (!Files.exists(module)) {
                    Files.copy(model.module(), module); // a model module kept outside the spec folder
                }
                Path out = dir.resolve(folder(model));
                // one worker: the same states in the same order on every machine, so the bound
                // stops a run at the same state everywhere
                long maxStates = limits.maxStates(model);
                CheckOptions options =
                        new CheckOptions(1, HEAP, out, limits.timeout(), java.util.OptionalLong.of(maxStates));
                for (ModelRun run : runs(model, out)) {
                    Model mutant =
                            new Model(
                                    model.name(),
                                    module,
                                    run.config(),
                                    model.expected(),
                                    model.distinctStates(),
                                    model.description(),
                                    dir,
                                    model.shortRun());
                    TlcResult result = tlc.run(ModelCheck.command(mutant, options.in(run.dir())));
                    states = Math.max(states, result.run().statistics().distinctStates().orElse(0));
                    Outcome outcome =
                            run.witness().isEmpty()
                                    ? outcome(model.name(), maxStates, result)
                                    : witnessOutcome(model.name(), run.witness().get(), maxStates, result);
                    if (!(outcome instanceof Outcome.Survived)) {
                        return new Checked(outcome, states);
                    }
                }
            }
            return new Checked(new Outcome.Survived(), states);
        } finally {
            FileTree.delete(dir);
        }
    }

    /** One TLC run of a model: its config and folder, and the witness it must find, if it is one. */
    private record ModelRun(Path config, Path dir, java.util.Optional<String> witness) {}

    /**
     * A model's runs: the model as it is (a model that expects one violation is a witness of it), or one per witness,
     * with that invariant alone.
     */
    private static List<ModelRun> runs(Model model, Path out) throws IOException {
        if (model.expected() instanceof Model.Expected.Violation one) {
            return List.of(new ModelRun(model.config(), out, java.util.Optional.of(one.property())));
        }
        if (!(model.expected() instanceof Model.Expected.EachViolated each)) {
            return List.of(new ModelRun(model.config(), out, java.util.Optional.empty()));
        }
        List<ModelRun> runs = new ArrayList<>();
        ModelCheck.eachConfig(model, each, out)
                .forEach(
                        (witness, only) ->
                                runs.add(new ModelRun(only, only.getParent(), java.util.Optional.of(witness))));
        return runs;
    }

    /**
     * The outcome of a run that must find {@code witness} violated (a behaviour it names reached): found, the mutant
     * survives this run; no violation at all, the mutant removed the behaviour and is killed by the witness; anything
     * else as for any run.
     */
    static Outcome witnessOutcome(String model, String witness, long maxStates, TlcResult result) {
        if (!result.timedOut() && !result.stateBoundReached()) {
            var run = result.run();
            if (run.ending() == TlcEnding.OK) {
                return new Outcome.Killed(model, "witness " + witness);
            }
            if (run.ending() == TlcEnding.VIOLATION
                    && run.violation().orElseThrow().name().filter(witness::equals).isPresent()) {
                return new Outcome.Survived();
            }
        }
        return outcome(model, maxStates, result);
    }

    static Outcome outcome(String model, long maxStates, TlcResult result) {
        if (result.timedOut()) {
            return new Outcome.TimedOut(model);
        }
        if (result.stateBoundReached()) {
            return new Outcome.OverStateBound(model, maxStates);
        }
        var run = result.run();
        if (run.ending() == TlcEnding.OK) {
            return new Outcome.Survived();
        }
        if (run.ending() == TlcEnding.VIOLATION) {
            Violation v = run.violation().orElseThrow();
            return new Outcome.Killed(
                    model,
                    v.name()
                            .orElse(
                                    switch (v.kind()) {
                                        case TEMPORAL_PROPERTY -> "a temporal property";
                                        case DEADLOCK -> "deadlock";
                                        case INVARIANT -> "an invariant";
                                        case PROPERTY -> "a property";
                                        case ACTION_PROPERTY -> "an action property";
                                    }));
        }
        // an invariant that does not depend on the state (TargetRule) is evaluated before the
        // initial states, and TLC reports it false as an error, not as a violation
        for (TlcMessage m : run.errors()) {
            java.util.regex.Matcher constant = CONSTANT_INVARIANT.matcher(m.text());
            if (constant.find()) {
                return new Outcome.Killed(model, constant.group(1));
            }
        }
        boolean started = result.output().messages().stream().anyMatch(m -> m.code() == TLC_COMPUTING_INIT);
        String problem =
                run.parseProblem()
                        .orElse(
                                run.errors().stream()
                                        .map(TlcMessage::text)
                                        .map(Mutation::oneLine)
                                        .findFirst()
                                        .orElse("TLC stopped without a result"));
        if (!started) {
            return new Outcome.NotCompilable(problem.length() > 300 ? problem.substring(0, 300) + "…" : problem);
        }
        return new Outcome.Killed(model, "evaluation error");
    }
}
