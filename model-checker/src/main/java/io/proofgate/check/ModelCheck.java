package io.proofgate.check;

import io.proofgate.tlc.StateBound;
import io.proofgate.tlc.TlcCommand;
import io.proofgate.tlc.TlcProcess;
import io.proofgate.tlc.TlcResult;
import io.proofgate.tlc.TlcStatistics;
import io.proofgate.tlc.WarmTlcPool;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Runs TLC on a model in a child JVM, reporting progress as TLC prints it. */
public final class ModelCheck {

    /**
     * From this many invariants on, {@link #runEach} runs them in one warm TLC JVM ({@link WarmTlcPool}): each run of
     * the reachability model is about a second of TLC after as long again starting a JVM and loading TLC
     * (docs/performance.md, "TLC runs").
     */
    static final int WARM_FROM_RUNS = 3;

    private ModelCheck() {}

    public static CheckReport run(Model model, CheckOptions options, PrintStream progress)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        return run(
                model,
                options,
                command ->
                        TlcProcess.run(
                                command,
                                message ->
                                        TlcStatistics.counts(message)
                                                .filter(p -> message.code() == TlcStatistics.PROGRESS)
                                                .ifPresent(
                                                        p ->
                                                                progress.println(
                                                                        progressLine(
                                                                                p,
                                                                                Duration.ofNanos(
                                                                                        System.nanoTime() - start))))));
    }

    /**
     * Runs TLC on a model in one of {@code warm}'s JVMs, printing no progress: for a series of short runs, each of
     * which would spend as long starting a JVM and loading TLC as checking.
     */
    public static CheckReport run(Model model, CheckOptions options, WarmTlcPool warm)
            throws IOException, InterruptedException {
        return run(model, options, warm::run);
    }

    /** How one run is made: in a fresh JVM that prints its progress, or in a warm JVM ({@link WarmTlcPool}). */
    @FunctionalInterface
    private interface Runs {
        TlcResult run(TlcCommand command) throws IOException, InterruptedException;
    }

    private static CheckReport run(Model model, CheckOptions options, Runs runs)
            throws IOException, InterruptedException {
        TlcCommand command = command(model, options);
        long start = System.nanoTime();
        TlcResult result = runs.run(command);
        FileTree.delete(command.metaDir()); // TLC's fingerprints and queue; the raw output stays
        return new CheckReport(model, options, result, Duration.ofNanos(System.nanoTime() - start));
    }

    /**
     * Checks a model whose invariants must each be violated: one TLC run per invariant, on a copy of the config that
     * keeps only that invariant (TLC stops at the first violation, so one run of all of them would confirm one). Each
     * report expects a violation of its invariant. From {@value #WARM_FROM_RUNS} invariants on, the runs share one warm
     * TLC JVM, whose folder is kept under the options' folder, and print no progress while they run.
     */
    public static List<CheckReport> runEach(Model model, CheckOptions options, PrintStream progress)
            throws IOException, InterruptedException {
        Model.Expected.EachViolated each = eachViolated(model);
        if (each.invariants().size() < WARM_FROM_RUNS) {
            return runEach(model, each, options, progress, null);
        }
        // the child's folder stays with the runs' raw output: its stderr.txt says why a child failed, if one did
        try (WarmTlcPool warm = new WarmTlcPool(options.outputDir().resolve("warm-tlc"), options.maxHeap())) {
            return runEach(model, each, options, progress, warm);
        }
    }

    /** {@link #runEach(Model, CheckOptions, PrintStream)} in {@code warm}'s JVMs, whatever the number of invariants. */
    public static List<CheckReport> runEach(Model model, CheckOptions options, WarmTlcPool warm)
            throws IOException, InterruptedException {
        return runEach(model, eachViolated(model), options, new PrintStream(PrintStream.nullOutputStream()), warm);
    }

    private static Model.Expected.EachViolated eachViolated(Model model) {
        if (model.expected() instanceof Model.Expected.EachViolated each) {
            return each;
        }
        throw new IllegalArgumentException(model.name() + " does not expect each of a list of invariants violated");
    }

    /**
     * One run per invariant, each in a folder of its own with its config: in {@code warm}, or, where it is null, in a
     * fresh JVM that prints its progress.
     */
    private static List<CheckReport> runEach(
            Model model, Model.Expected.EachViolated each, CheckOptions options, PrintStream progress, WarmTlcPool warm)
            throws IOException, InterruptedException {
        List<CheckReport> reports = new ArrayList<>();
        for (var only : eachConfig(model, each, options.outputDir()).entrySet()) {
            String invariant = only.getKey();
            Path dir = only.getValue().getParent();
            Model one =
                    new Model(
                            model.name() + "/" + invariant,
                            model.module(),
                            only.getValue(),
                            new Model.Expected.Violation(invariant),
                            model.distinctStates(),
                            model.description(),
                            model.specDir(),
                            model.shortRun());
            progress.println("  " + invariant + ":");
            reports.add(warm == null ? run(one, options.in(dir), progress) : run(one, options.in(dir), warm::run));
        }
        return reports;
    }

    /**
     * For each invariant a model must find violated, a copy of its config that checks that invariant alone (TLC stops
     * at the first violation, so one run of all of them would confirm one), in a folder of its own under {@code dir}
     * named by the invariant; in the list's order. A listed invariant the config does not name is an error in the
     * input, before any file is written.
     */
    public static java.util.SequencedMap<String, Path> eachConfig(
            Model model, Model.Expected.EachViolated each, Path dir) throws IOException {
        String config = Files.readString(model.config());
        for (String invariant : each.invariants()) {
            if (!config.contains(invariant)) {
                // a list that the config cannot check is an error in the input, not a finding
                throw new io.proofgate.parse.ParseException(
                        model.config().toString(),
                        1,
                        0,
                        "names no invariant "
                                + invariant
                                + ", which spec/models.json lists for model "
                                + model.name()
                                + " (each-violated checks each listed invariant of the config in a run of its own)");
            }
        }
        // and the converse: an invariant of the config the list leaves out would be checked by no run
        List<String> unlisted =
                ConfigChecks.parse(config).invariants().stream()
                        .filter(invariant -> !each.invariants().contains(invariant))
                        .toList();
        if (!unlisted.isEmpty()) {
            throw new io.proofgate.parse.ParseException(
                    model.config().toString(),
                    1,
                    0,
                    "names "
                            + String.join(", ", unlisted)
                            + ", which spec/models.json does not list for model "
                            + model.name()
                            + ": each-violated checks each invariant of the config in a run of its own, so an invariant"
                            + " left out of the list would be checked by none");
        }
        java.util.SequencedMap<String, Path> configs = new java.util.LinkedHashMap<>();
        for (String invariant : each.invariants()) {
            Path folder = dir.resolve(invariant);
            Files.createDirectories(folder);
            Path only = folder.resolve(model.config().getFileName());
            Files.writeString(only, withOnlyInvariant(config, invariant));
            configs.put(invariant, only);
        }
        return configs;
    }

    /** The config with its INVARIANT(S) sections replaced by one naming {@code invariant}. */
    static String withOnlyInvariant(String config, String invariant) {
        StringBuilder kept = new StringBuilder();
        boolean inInvariants = false;
        for (String line : config.lines().toList()) {
            String word = line.strip().split("\\s+", 2)[0];
            if (ConfigChecks.KEYWORDS.contains(word)) {
                inInvariants = word.equals("INVARIANT") || word.equals("INVARIANTS");
                if (inInvariants) {
                    continue;
                }
            }
            if (!inInvariants) {
                kept.append(line).append('\n');
            }
        }
        if (!config.contains(invariant)) {
            throw new IllegalArgumentException("the config names no invariant " + invariant);
        }
        return kept.append("INVARIANT\n    ").append(invariant).append('\n').toString();
    }

    /**
     * The TLC run of a model under the options: its module and config, the spec folder as module library (mutants
     * extend the real module from a subfolder), files under the options' folder, which is created. Whether deadlock is
     * checked is the config's to say ({@code CHECK_DEADLOCK FALSE} where behaviours end).
     */
    public static TlcCommand command(Model model, CheckOptions options) throws IOException {
        Files.createDirectories(options.outputDir());
        TlcCommand command =
                TlcCommand.of(model.module(), options.outputDir())
                        .withConfig(model.config())
                        .withLibraries(List.of(model.specDir()))
                        .withWorkers(options.workers())
                        .withMaxHeap(options.maxHeap())
                        .withTimeout(options.timeout())
                        .asShortRun(model.shortRun());
        return options.maxStates().isPresent()
                ? command.withStateBound(new StateBound(options.maxStates().getAsLong()))
                : command;
    }

    static String progressLine(TlcStatistics.Progress p, Duration elapsed) {
        double seconds = Math.max(1e-3, elapsed.toMillis() / 1000.0);
        return String.format(
                Locale.ROOT,
                "  %6.0f s  %,d distinct states, %,d generated, queue %,d, %,.0f states/s",
                seconds,
                p.distinctStates(),
                p.generatedStates(),
                p.queueSize(),
                p.generatedStates() / seconds);
    }
}
