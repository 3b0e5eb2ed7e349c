package io.proofgate.cli;

import io.proofgate.check.Model;
import io.proofgate.check.ModelCatalog;
import io.proofgate.mutate.Definition;
import io.proofgate.mutate.Equivalents;
import io.proofgate.mutate.MutantLimits;
import io.proofgate.mutate.MutantResult;
import io.proofgate.mutate.Mutation;
import io.proofgate.mutate.MutationException;
import io.proofgate.mutate.MutationPlan;
import io.proofgate.mutate.MutationReport;
import io.proofgate.mutate.MutationRun;
import io.proofgate.mutate.MutationShard;
import io.proofgate.mutate.Outcome;
import io.proofgate.mutate.RunInputs;
import io.proofgate.parse.ParseException;
import io.proofgate.shard.ShardKey;
import io.proofgate.words.FileProblems;
import io.proofgate.words.Outside;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** {@code proofgate mutate}: mutation testing of the spec: can its properties tell a wrong rule from a right one? */
final class MutateCommand implements Command {

    static final String DEFAULT_MODULE = "spec/Publication.tla";
    static final String DEFAULT_PART = "Connector";
    static final String DEFAULT_EQUIVALENTS = "spec/mutants-equivalent.json";
    static final String DEFAULT_MISTAKES = "spec/mistakes.json";

    /**
     * The models a mutant is checked on unless --models says otherwise, in the order that kills soonest (measured:
     * gen-two-recurrent, 3 s a run, kills most mutants of the Connector part; gen-restore, the only model with lookups,
     * kills the restore half's, which every other model lets live), and last the model of vLLM's proof producer, where
     * the producer's named mistakes are killed (a connector mutant reaches it only when the ten generation models all
     * missed it).
     */
    static final List<String> DEFAULT_MODELS =
            List.of(
                    "gen-two-recurrent",
                    "gen-restore",
                    "gen-shapes",
                    "ci",
                    "gen-bounds",
                    "gen-attention",
                    "gen-untracked",
                    "gen-edges",
                    "gen-batch",
                    "gen-attention-field",
                    "producer");

    private final java.util.function.Function<String, String> environment;

    MutateCommand(java.util.function.Function<String, String> environment) {
        this.environment = environment;
    }

    @Override
    public String name() {
        return "mutate";
    }

    @Override
    public String summary() {
        return "mutation testing of the spec: which one-token mistakes in the connector its properties catch";
    }

    @Override
    public String help() {
        return """
        Usage: proofgate mutate [--module FILE] [--part NAME | --operators A,B,...] [--models M,...]
                                [--jobs N] [--max-states N] [--timeout SECONDS] [--equivalent FILE]
                                [--only ID,...]
                                [--shard K/N [--out FILE]] [--mistakes FILE]
                                [--format text|json|markdown] [--check] [--list]

        Writes one mutant at a time of the definitions in a part of a TLA+ module and checks each on
        the models with TLC, to measure what the spec's invariants and properties can refute. Kinds:
        relational (< and <=, > and >=, = and #), boundary (an integer +1 or -1), constant (TRUE and
        FALSE; a string replaced by another of the definition), arithmetic (+ and -), logical (infix
        /\\ and \\/), set (\\cup and \\cap, \\in and \\notin), drop-conjunct and drop-disjunct (one
        bulleted item), swap-if (an IF's condition negated), skip-if (an IF's condition FALSE),
        drop-negation. Each mutant is killed (by the invariant or property TLC names), survives every
        model, is unfinished (a run went over the state bound or the timeout), or is not compilable
        (outside the score). Score: killed / (killed + survived + unfinished), over the mutants not
        judged equivalent. Survivors are printed with
        their diff; a reviewer who finds one equivalent records its id and the reason in the
        equivalents file.

          --module FILE    the module to mutate (default spec/Publication.tla)
          --part NAME      the definitions between the comments "mutate-begin: NAME" and
                           "mutate-end: NAME" (default Connector)
          --operators L    these definitions instead of a part
          --models L       models of spec/models.json, checked in this order, stopping at the first
                           that kills (default: the ten generation models, ci among them, in
                           the order that kills soonest: gen-two-recurrent, gen-restore,
                           gen-shapes, ci, gen-bounds, gen-attention, gen-untracked,
                           gen-edges, gen-batch, gen-attention-field; then producer, vLLM's
                           proof producer); a model that expects a violation
                           (each-violated: each of its invariants, in a run of its own)
                           checks it as a witness: a mutant under which it is no longer
                           violated (a behaviour removed, a named mistake no longer refuted)
                           is killed by it
          --jobs N         TLC runs at a time, one worker each (default: all cores)
          --max-states N   distinct states one TLC run may find before the mutant counts as unfinished
                           (default: 20 times the states spec/models.json records for the model, at
                           least 100,000); each run has one worker, so the bound decides the same way
                           on every machine, however loaded
          --timeout S      seconds a TLC run may take before the mutant counts as unfinished: a guard
                           against a hung TLC, far above any run within the bound (default 1800)
          --equivalent F   mutants judged equivalent (default spec/mutants-equivalent.json, if present)
          --mistakes F     named mistakes, edits of the module that must each be killed (default
                           spec/mistakes.json when the module is the default one)
          --only L         only the mutants with these ids
          --shard K/N      only the generated mutants whose id, read as a number, is K modulo N
                           (0 <= K < N), and every named mistake: N runs with K = 0..N-1 check
                           every mutant once, on as many machines (docs/scale.md)
          --out FILE       also write the results to FILE (schema proofgate-mutate-shard/v3: the
                           SHA-256 of every input read, the selection, the outcomes; signed
                           with an HMAC when PROOFGATE_SHARD_KEY is set), for `proofgate
                           merge`: the shards' files merge into this run's report
          --format F       text (default), json or markdown (a PR comment)
          --check          exit 1 when a mutant survives or times out without a judgement, or a
                           judgement no longer holds (its mutant is killed or gone)
          --list           print the mutants (id, operator, line, kind, change) and run nothing

        Progress goes to stderr, the report to stdout. Working files: target/proofgate/mutate/run-*/.
        Exit codes: 0 done (with --check: nothing left to judge), 1 --check found survivors or stale
        judgements, 2 usage error, the models fail on the module as it is, or a mutant is unfinished
        (its outcome is unknown: the report is printed, then exit 2).
        """;
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        var parsed =
                Options.parse(
                        args,
                        Set.of("--check", "--list"),
                        Set.of(
                                "--module",
                                "--part",
                                "--operators",
                                "--models",
                                "--jobs",
                                "--timeout",
                                "--equivalent",
                                "--only",
                                "--format",
                                "--shard",
                                "--mistakes",
                                "--out",
                                "--max-states"));
        if (parsed.containsKey("--part") && parsed.containsKey("--operators")) {
            throw new UsageException("--part and --operators name the definitions two ways; give one");
        }
        String format = parsed.getOrDefault("--format", "text");
        if (!Set.of("text", "json", "markdown").contains(format)) {
            throw new UsageException("--format must be text, json or markdown, not \"" + format + "\"");
        }
        int jobs = (int) Options.integer(parsed, "--jobs", 1, 256, Runtime.getRuntime().availableProcessors());
        long timeout = Options.integer(parsed, "--timeout", 1, 24 * 3600, MutantLimits.DEFAULT_TIMEOUT.toSeconds());
        MutantLimits limits =
                new MutantLimits(
                        Duration.ofSeconds(timeout),
                        parsed.containsKey("--max-states")
                                ? java.util.OptionalLong.of(
                                        Options.integer(parsed, "--max-states", 1, Long.MAX_VALUE / 2, 1))
                                : java.util.OptionalLong.empty());
        Path root = ProjectRoot.find();
        Path moduleFile = root.resolve(parsed.getOrDefault("--module", DEFAULT_MODULE));
        Optional<ShardKey> key;
        try {
            // refused before the run, not after it: a key that cannot sign must not cost a long run its file
            key = parsed.containsKey("--out") ? ShardKey.from(environment) : Optional.empty();
        } catch (ShardKey.Refused e) {
            err.println("proofgate mutate: " + e.getMessage());
            return Main.USAGE;
        }
        if (parsed.containsKey("--out")) {
            Optional<String> refused =
                    AtomicFile.refusal(
                            Path.of(parsed.get("--out")),
                            () ->
                                    readBy(
                                            moduleFile,
                                            root.resolve(parsed.getOrDefault("--mistakes", DEFAULT_MISTAKES)),
                                            equivalentsFile(parsed, root)),
                            input ->
                                    "it is a file the run reads ("
                                            + Outside.quoted(
                                                    root.relativize(input.toAbsolutePath().normalize()).toString())
                                            + "), which its result file would replace");
            if (refused.isPresent()) {
                err.println("proofgate mutate: --out " + Outside.bare(parsed.get("--out")) + ": " + refused.get());
                return Main.USAGE;
            }
        }
        try {
            String text = RunInputs.read(moduleFile);
            String source = root.relativize(moduleFile.toAbsolutePath()).toString();
            Path mistakesFile = root.resolve(parsed.getOrDefault("--mistakes", DEFAULT_MISTAKES));
            boolean withMistakes =
                    parsed.containsKey("--mistakes") || (!parsed.containsKey("--module") && Files.exists(mistakesFile));
            MutationPlan.Selection selection =
                    new MutationPlan.Selection(
                            parsed.getOrDefault("--part", DEFAULT_PART),
                            parsed.get("--operators"),
                            withMistakes ? Path.of(RunInputs.name(root, mistakesFile)) : null,
                            parsed.containsKey("--only") ? List.of(parsed.get("--only").split(",")) : null,
                            parsed.containsKey("--shard") ? shard(parsed.get("--shard")) : null);
            MutationPlan plan = MutationPlan.of(text, source, withRoot(selection, root));
            List<Mutation> mutations = plan.mutations();
            List<Definition> definitions = plan.definitions();
            String part = plan.part();
            if (parsed.containsKey("--list")) {
                for (Mutation m : mutations) {
                    out.println(
                            m.id()
                                    + "  "
                                    + m.operator()
                                    + "  line "
                                    + m.line()
                                    + "  "
                                    + m.kind().wireName()
                                    + "  "
                                    + m.change());
                }
                err.println(
                        "proofgate mutate: "
                                + count(mutations.size(), "mutant")
                                + " of "
                                + count(definitions.size(), "definition")
                                + " in "
                                + part
                                + " of "
                                + source);
                return Main.OK;
            }
            Equivalents equivalents = equivalents(parsed, root);
            ModelCatalog catalog = ModelCatalog.of(moduleFile.toAbsolutePath().getParent());
            List<Model> models = new ArrayList<>();
            List<String> names =
                    parsed.containsKey("--models") ? Arrays.asList(parsed.get("--models").split(",")) : DEFAULT_MODELS;
            for (String name : names) {
                models.add(catalog.resolve(name));
            }
            // the inputs as they are when the run starts: what its outcomes are of
            RunInputs inputs =
                    inputs(
                            root,
                            moduleFile,
                            models,
                            withMistakes ? mistakesFile : null,
                            equivalentsFile(parsed, root),
                            limits);
            Path base = root.resolve("target/proofgate/mutate");
            Files.createDirectories(base);
            Path work = Files.createTempDirectory(base, "run-");
            err.println(
                    "proofgate mutate: "
                            + count(mutations.size(), "mutant")
                            + " of "
                            + count(definitions.size(), "definition")
                            + " in "
                            + part
                            + " of "
                            + source
                            + ", on "
                            + String.join(", ", names)
                            + ", "
                            + jobs
                            + " at a time");
            long start = System.nanoTime();
            List<MutantResult> results;
            int jvms;
            try (MutationRun run =
                    new MutationRun(
                            moduleFile.toAbsolutePath().getParent(),
                            moduleFile.getFileName().toString(),
                            models,
                            jobs,
                            limits,
                            work)) {
                run.checkBaseline(text, err);
                results = run.run(text, mutations, plan.firstModels(), err);
                jvms = run.tlcJvms();
            }
            MutationReport report = new MutationReport(source, part, names, text, results, equivalents, plan.allIds());
            io.proofgate.check.FileTree.delete(work);
            err.printf(
                    "proofgate mutate: %s checked in %d s, TLC in %s%n",
                    count(results.size(), "mutant"),
                    Duration.ofNanos(System.nanoTime() - start).toSeconds(),
                    count(jvms, "warm JVM"));
            // the report first: a result file that cannot be written must not cost a long run its report
            out.print(report.render(format));
            out.flush();
            if (out.checkError()) {
                err.println("proofgate mutate: cannot write to standard output; the report is incomplete");
                return Main.USAGE;
            }
            if (parsed.containsKey("--out")) {
                Path file = Path.of(parsed.get("--out"));
                MutationShard shard = MutationShard.of(plan, selection, inputs, results);
                String json = (key.isPresent() ? shard.signed(key.get()) : shard).toJson();
                try {
                    AtomicFile.write(file, stream -> stream.write(json.getBytes(StandardCharsets.UTF_8)));
                } catch (IOException e) {
                    err.println("proofgate mutate: " + file + ": " + FileProblems.words(e));
                    return Main.USAGE;
                }
                err.println(
                        "proofgate mutate: results of "
                                + (selection.shard() == null
                                        ? "the whole run"
                                        : "shard " + selection.shard().index() + "/" + selection.shard().count())
                                + " in "
                                + file
                                + " (proofgate merge-mutate combines shards)");
            }
            if (unfinished(report, inputs, "mutate", err)) {
                return Main.USAGE;
            }
            if (parsed.containsKey("--check") && !report.passesCheck()) {
                err.println(
                        "proofgate mutate --check: "
                                + report.unjudged().size()
                                + " mutants survive without a"
                                + " judgement, "
                                + report.staleJudgements().size()
                                + " judgements no longer hold, "
                                + report.namedNotKilled().size()
                                + " named mistakes not killed");
                return Main.FINDINGS;
            }
            return Main.OK;
        } catch (MutationException e) {
            err.println("proofgate mutate: " + e.getMessage());
            return Main.USAGE;
        } catch (IOException | ParseException e) {
            err.println("proofgate mutate: " + e.getMessage());
            return Main.USAGE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("proofgate mutate: interrupted");
            return Main.USAGE;
        }
    }

    /**
     * Whether a limit stopped some of the answer: a mutant whose check went over the state bound or ran past --timeout
     * is neither killed nor survived, so the run is not finished, whatever the score says (exit 2, after the report and
     * the result file, which state it).
     */
    static boolean unfinished(MutationReport report, RunInputs inputs, String command, PrintStream err) {
        long over = report.count(Outcome.OverStateBound.class);
        long timedOut = report.count(Outcome.TimedOut.class);
        if (over > 0) {
            err.println(
                    "proofgate "
                            + command
                            + ": "
                            + count(over, "mutant")
                            + " went over the state bound: a TLC run found more"
                            + " distinct states than --max-states allows ("
                            + bounds(inputs)
                            + "), so "
                            + (over == 1 ? "its" : "their")
                            + " outcome is unknown and the run is unfinished; raise --max-states");
        }
        if (timedOut > 0) {
            err.println(
                    "proofgate "
                            + command
                            + ": "
                            + count(timedOut, "mutant")
                            + " timed out: a TLC run went past --timeout "
                            + inputs.timeoutSeconds()
                            + " s, so "
                            + (timedOut == 1 ? "its" : "their")
                            + " outcome is unknown and the run is unfinished; raise --timeout");
        }
        return over + timedOut > 0;
    }

    private static String bounds(RunInputs inputs) {
        return String.join(
                ", ",
                inputs.models().stream()
                        .map(m -> String.format(java.util.Locale.ROOT, "%,d on %s", m.maxStates(), m.name()))
                        .toList());
    }

    static MutationPlan.Shard shard(String value) throws UsageException {
        ShardOption shard = ShardOption.parse(value);
        return new MutationPlan.Shard(shard.index(), shard.count());
    }

    /** The judgements of --equivalent, or of the default file when there is one. */
    static Equivalents equivalents(java.util.Map<String, String> options, Path root) throws MutationException {
        Path file = equivalentsFile(options, root);
        return file != null ? Equivalents.read(file) : Equivalents.none();
    }

    /**
     * The files a run reads that a result file could be written over: the module, the mistakes and equivalents files
     * (either may be null), and the modules, configs and models.json in the module's folder or one below it.
     */
    private static List<Path> readBy(Path moduleFile, Path mistakesFile, Path equivalentsFile) throws IOException {
        List<Path> inputs = new ArrayList<>(java.util.Arrays.asList(moduleFile, mistakesFile, equivalentsFile));
        try (var files = Files.walk(moduleFile.toAbsolutePath().getParent(), 2)) {
            files.filter(
                            f ->
                                    f.toString().matches(".*\\.(tla|cfg)$")
                                            || f.getFileName().toString().equals("models.json"))
                    .forEach(inputs::add);
        }
        return inputs;
    }

    /** The equivalents file a run reads: --equivalent's, else the default one when it exists, else none (null). */
    static Path equivalentsFile(java.util.Map<String, String> options, Path root) {
        Path file = root.resolve(options.getOrDefault("--equivalent", DEFAULT_EQUIVALENTS));
        return options.containsKey("--equivalent") || Files.exists(file) ? file : null;
    }

    /**
     * What a run of {@code moduleFile} on {@code models} reads, hashed (RunInputs): the module's folder's modules and
     * its models.json (ModelCatalog reads it), the models' files, the mistakes and equivalents files when there are
     * any.
     */
    static RunInputs inputs(
            Path root, Path moduleFile, List<Model> models, Path mistakes, Path equivalents, MutantLimits limits)
            throws MutationException {
        Path specDir = moduleFile.toAbsolutePath().getParent();
        return RunInputs.of(root, moduleFile, models, specDir.resolve("models.json"), mistakes, equivalents, limits);
    }

    /** The selection with its mistakes file resolved against the root, for reading. */
    static MutationPlan.Selection withRoot(MutationPlan.Selection selection, Path root) {
        return new MutationPlan.Selection(
                selection.part(),
                selection.operators(),
                selection.mistakes() == null ? null : root.resolve(selection.mistakes()),
                selection.only(),
                selection.shard());
    }

    /** {@code n} and the noun, plural but for one. */
    private static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
