package io.proofgate.tlc;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One TLC invocation: the spec, its options, and where its files go.
 *
 * @param config the .cfg file; empty means TLC's default, the spec's name with .cfg
 * @param metaDir TLC's {@code -metadir}; without it TLC writes {@code states/} beside the spec
 * @param dumpDot where {@code -dump dot,actionlabels} writes the state graph, if wanted
 * @param maxHeap the child JVM's {@code -Xmx} value, e.g. "2g"; empty leaves JVM's default (a quarter of RAM)
 * @param checkDeadlock TLC checks deadlock by default; false passes {@code -deadlock}, needed when behaviours are meant
 *     to end
 * @param rawOutput the file that receives TLC's stdout and stderr verbatim
 * @param timeout the child is killed after this long; empty waits for ever
 * @param libraries more folders where SANY looks for modules ({@code -DTLA-Library}), e.g. the spec folder for a mutant
 *     module that extends the real one from a subfolder
 * @param stateBound the run stops after this many distinct states (its outcome then unknown); empty runs to the end
 * @param shortRun the run is expected to be short: the child JVM compiles with C1 alone ({@code
 *     -XX:TieredStopAtLevel=1}). On a run of a few thousand states the JVM's start, the parse and C2's compiler threads
 *     are most of the time and most of the CPU (measured in docs/performance.md, "TLC runs: a short run without C2");
 *     on a long run C2's code is what makes TLC fast. It changes how fast TLC runs, never what it finds.
 */
public record TlcCommand(
        Path spec,
        Optional<Path> config,
        int workers,
        Path metaDir,
        Optional<Path> dumpDot,
        Optional<String> maxHeap,
        boolean checkDeadlock,
        Path rawOutput,
        Optional<Duration> timeout,
        List<Path> libraries,
        Optional<StateBound> stateBound,
        boolean shortRun) {

    public TlcCommand {
        Objects.requireNonNull(spec);
        Objects.requireNonNull(metaDir);
        Objects.requireNonNull(rawOutput);
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, not " + workers);
        }
        libraries = List.copyOf(libraries);
        Objects.requireNonNull(stateBound);
    }

    /**
     * Defaults for a spec: its own .cfg, one worker (distinct-state counts are exact either way, and one worker keeps
     * traces reproducible), files under {@code targetDir}.
     */
    public static TlcCommand of(Path spec, Path targetDir) {
        String name = spec.getFileName().toString().replaceFirst("\\.tla$", "");
        return new TlcCommand(
                spec,
                Optional.empty(),
                1,
                targetDir.resolve("states"),
                Optional.empty(),
                Optional.empty(),
                true,
                targetDir.resolve(name + ".out"),
                Optional.empty(),
                List.of(),
                Optional.empty(),
                false);
    }

    public TlcCommand withConfig(Path cfg) {
        return with(f -> f.config = Optional.of(cfg));
    }

    public TlcCommand withWorkers(int n) {
        return with(f -> f.workers = n);
    }

    public TlcCommand withDumpDot(Path dot) {
        return with(f -> f.dumpDot = Optional.of(dot));
    }

    public TlcCommand withMaxHeap(String xmx) {
        return with(f -> f.maxHeap = Optional.of(xmx));
    }

    public TlcCommand withoutDeadlockCheck() {
        return with(f -> f.checkDeadlock = false);
    }

    public TlcCommand withTimeout(Duration limit) {
        return with(f -> f.timeout = Optional.of(limit));
    }

    public TlcCommand withLibraries(List<Path> folders) {
        return with(f -> f.libraries = folders);
    }

    /** As this command, with TLC's metadir (and the child's java.io.tmpdir inside it) at {@code dir}. */
    TlcCommand withMetaDir(Path dir) {
        return with(f -> f.metaDir = dir);
    }

    public TlcCommand withStateBound(StateBound bound) {
        return with(f -> f.stateBound = Optional.of(bound));
    }

    /** As this command, as a short run or not ({@code shortRun}). */
    public TlcCommand asShortRun(boolean isShort) {
        return with(f -> f.shortRun = isShort);
    }

    /** A copy of this command with {@code change} made to its fields (the constructor checks the copy). */
    TlcCommand with(Consumer<Fields> change) {
        Fields fields = new Fields(this);
        change.accept(fields);
        return new TlcCommand(
                fields.spec,
                fields.config,
                fields.workers,
                fields.metaDir,
                fields.dumpDot,
                fields.maxHeap,
                fields.checkDeadlock,
                fields.rawOutput,
                fields.timeout,
                fields.libraries,
                fields.stateBound,
                fields.shortRun);
    }

    /** A command's fields, to be changed in a copy ({@link #with}). */
    static final class Fields {
        Path spec;
        Optional<Path> config;
        int workers;
        Path metaDir;
        Optional<Path> dumpDot;
        Optional<String> maxHeap;
        boolean checkDeadlock;
        Path rawOutput;
        Optional<Duration> timeout;
        List<Path> libraries;
        Optional<StateBound> stateBound;
        boolean shortRun;

        private Fields(TlcCommand command) {
            spec = command.spec;
            config = command.config;
            workers = command.workers;
            metaDir = command.metaDir;
            dumpDot = command.dumpDot;
            maxHeap = command.maxHeap;
            checkDeadlock = command.checkDeadlock;
            rawOutput = command.rawOutput;
            timeout = command.timeout;
            libraries = command.libraries;
            stateBound = command.stateBound;
            shortRun = command.shortRun;
        }
    }

    /** The child's java.io.tmpdir: a folder of this run's own (TlcProcess creates it). */
    public Path javaTmpDir() {
        return metaDir.resolve("java-tmp");
    }

    /**
     * The child's command line: {@code mainClass} (TLC's {@code tlc2.TLC}, or a class that runs it) on {@code
     * classPath}. Paths are absolute, since the child runs in the spec's folder.
     */
    public List<String> commandLine(Path java, List<Path> classPath, String mainClass) {
        List<String> options = new ArrayList<>();
        maxHeap.ifPresent(xmx -> options.add("-Xmx" + xmx));
        if (shortRun) {
            options.add("-XX:TieredStopAtLevel=1");
        }
        if (!libraries.isEmpty()) {
            options.add("-DTLA-Library=" + libraryPath());
        }
        List<String> args = childJvm(java, options, javaTmpDir(), classPath, mainClass);
        args.addAll(tlcArguments(spec.getFileName().toString()));
        return args;
    }

    /**
     * The command of a JVM that runs TLC, up to its main class and with {@code options} among its own: a run's child
     * here, or a warm child ({@link WarmTlcPool}) that runs many.
     */
    static List<String> childJvm(Path java, List<String> options, Path tmpDir, List<Path> classPath, String mainClass) {
        List<String> args = new ArrayList<>();
        args.add(java.toString());
        // TLC asks for the parallel collector (message 2401) and runs slower without it.
        args.add("-XX:+UseParallelGC");
        args.addAll(options);
        // TLC writes the standard modules (Naturals.tla, ...) into java.io.tmpdir before parsing
        // them: with a shared /tmp, one run read another's half-written Naturals.tla ("Lexical
        // error ... Encountered: <EOF>"). Each child gets its own.
        args.add("-Djava.io.tmpdir=" + tmpDir.toAbsolutePath());
        args.addAll(
                List.of(
                        "-cp",
                        String.join(
                                File.pathSeparator,
                                classPath.stream().map(p -> p.toAbsolutePath().toString()).toList()),
                        mainClass));
        return args;
    }

    /**
     * TLC's own arguments for a child that runs in the spec's folder: the spec by its file name, the config by its
     * absolute path.
     */
    List<String> tlcArguments(String specName) {
        return tlcArguments(specName, config.map(cfg -> cfg.toAbsolutePath().toString()));
    }

    /**
     * TLC's own arguments for a {@link WarmTlc}, which runs many specs from a folder of its own: the spec by its
     * absolute path, and the config, where there is one, by its path from the spec's folder; empty where a config is
     * given but cannot be named so (it is missing, or a folder cannot be read). Named by its absolute path, the spec's
     * folder becomes TLC 2.18's user dir, and TLC then looks for each file it is given by name, the config too, first
     * under that folder and then in the TLA-Library folders: an absolute config path elsewhere would be "not found",
     * where a fresh JVM started in the folder reads it. The config is named from the folder's real path, since the
     * system resolves {@code ..} after links.
     */
    Optional<List<String>> warmTlcArguments() {
        Path specPath = spec.toAbsolutePath();
        Optional<String> configName = Optional.empty();
        if (config.isPresent()) {
            try {
                configName =
                        Optional.of(specPath.getParent().toRealPath().relativize(config.get().toRealPath()).toString());
            } catch (IOException | IllegalArgumentException e) { // the latter: no path between two roots
                return Optional.empty();
            }
        }
        return Optional.of(tlcArguments(specPath.toString(), configName));
    }

    private List<String> tlcArguments(String specName, Optional<String> configName) {
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "-tool",
                                "-workers",
                                Integer.toString(workers),
                                "-metadir",
                                metaDir.toAbsolutePath().toString()));
        configName.ifPresent(cfg -> args.addAll(List.of("-config", cfg)));
        if (!checkDeadlock) {
            args.add("-deadlock");
        }
        dumpDot.ifPresent(dot -> args.addAll(List.of("-dump", "dot,actionlabels", dot.toAbsolutePath().toString())));
        args.add(specName);
        return args;
    }

    /** The {@code -DTLA-Library} value: the library folders, or empty for none. */
    String libraryPath() {
        return String.join(File.pathSeparator, libraries.stream().map(p -> p.toAbsolutePath().toString()).toList());
    }
}
