package io.proofgate.mutate;

import io.proofgate.check.ConfigChecks;
import io.proofgate.check.Model;
import io.proofgate.words.FileProblems;
import io.proofgate.words.Outside;
import io.proofgate.words.Sha256;

import java.io.File;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Everything a mutation run read that decides its outcomes, by hash: the module, every module of its folder (each
 * mutant's folder is a copy of them, so any may be extended), every model's config and module, {@code models.json}, the
 * mistakes and equivalents files; the models with what each config checks and the state bound of its runs; and {@code
 * --timeout}, the guard against a hung check, which also turns a check into another outcome. A shard records it, so
 * that {@code merge} can refuse shards of other inputs and {@code merge-mutate --check} shards of inputs other than the
 * checkout's.
 *
 * @param files each file's path relative to the project root ('/'-separated) and its SHA-256, sorted by path
 */
public record RunInputs(SortedMap<String, String> files, List<CheckedModel> models, long timeoutSeconds) {

    /**
     * A model as the run checked it: its config's and module's paths (keys of {@code files}) and what the config
     * checks.
     */
    public record CheckedModel(String name, String config, String module, ConfigChecks checks, long maxStates) {}

    public RunInputs {
        files = Collections.unmodifiableSortedMap(new TreeMap<>(files));
        models = List.copyOf(models);
    }

    /**
     * The inputs of a run of {@code moduleFile} on {@code models}, read now; {@code modelsFile}, {@code mistakes} and
     * {@code equivalents} are null when the run reads none.
     */
    public static RunInputs of(
            Path root,
            Path moduleFile,
            List<Model> models,
            Path modelsFile,
            Path mistakes,
            Path equivalents,
            MutantLimits limits)
            throws MutationException {
        TreeMap<String, String> files = new TreeMap<>();
        add(root, moduleFile, files);
        // MutationRun copies every module of the folder beside each mutant, so each is an input
        try (Stream<Path> modules = Files.list(moduleFile.toAbsolutePath().getParent())) {
            for (Path module : modules.filter(p -> p.getFileName().toString().endsWith(".tla")).sorted().toList()) {
                add(root, module, files);
            }
        } catch (IOException e) {
            throw new MutationException(
                    moduleFile.toAbsolutePath().getParent() + ": cannot list its modules: " + e.getMessage());
        }
        List<CheckedModel> checked = new ArrayList<>();
        for (Model model : models) {
            String config = add(root, model.config(), files);
            String module = add(root, model.module(), files);
            checked.add(
                    new CheckedModel(
                            model.name(),
                            config,
                            module,
                            ConfigChecks.parse(read(model.config())),
                            limits.maxStates(model)));
        }
        for (Path file : new Path[] {modelsFile, mistakes, equivalents}) {
            if (file != null) {
                add(root, file, files);
            }
        }
        return new RunInputs(files, checked, limits.timeout().toSeconds());
    }

    /**
     * These inputs with the options of {@code run}: its timeout, and its state bound for each model of the same name.
     * The options are the run's to choose; the files are what a merge checks against a checkout.
     */
    public RunInputs withLimitsOf(RunInputs run) {
        List<CheckedModel> bounded =
                models.stream()
                        .map(
                                m ->
                                        new CheckedModel(
                                                m.name(),
                                                m.config(),
                                                m.module(),
                                                m.checks(),
                                                run.model(m.name()).map(CheckedModel::maxStates).orElse(m.maxStates())))
                        .toList();
        return new RunInputs(files, bounded, run.timeoutSeconds);
    }

    /** The path of {@code file} as the inputs name it: relative to the root, '/'-separated. */
    public static String name(Path root, Path file) {
        return root.toAbsolutePath()
                .normalize()
                .relativize(file.toAbsolutePath().normalize())
                .toString()
                .replace(File.separatorChar, '/');
    }

    /**
     * Why {@code file}, as it is now, is not one of these inputs: a file the run did not read, or one whose bytes
     * differ from those it read; empty where it is one.
     */
    public Optional<String> without(Path root, Path file) throws MutationException {
        String name = name(root, file);
        String read = files.get(name);
        if (read == null) {
            return Optional.of(Outside.quoted(name) + " is not a file they read");
        }
        return read.equals(hash(file))
                ? Optional.empty()
                : Optional.of(Outside.quoted(name) + " holds other bytes than those they read");
    }

    public List<String> modelNames() {
        return models.stream().map(CheckedModel::name).toList();
    }

    public Optional<CheckedModel> model(String name) {
        return models.stream().filter(m -> m.name().equals(name)).findFirst();
    }

    /**
     * The first way {@code other} differs from these inputs, in words, or empty when it does not; {@code these} and
     * {@code those} say whose each side is ("shard 0/3", "this checkout").
     */
    public Optional<String> difference(RunInputs other, String these, String those) {
        for (String path : union(files.keySet(), other.files.keySet())) {
            String mine = files.get(path);
            String theirs = other.files.get(path);
            if (mine == null || theirs == null) {
                return Optional.of(path + " is an input of " + (mine == null ? those : these) + " only");
            }
            if (!mine.equals(theirs)) {
                return Optional.of(
                        path
                                + " differs (sha256 "
                                + mine.substring(0, 12)
                                + "… in "
                                + these
                                + ", "
                                + theirs.substring(0, 12)
                                + "… in "
                                + those
                                + ")");
            }
        }
        if (!modelNames().equals(other.modelNames())) {
            return Optional.of(
                    "the models differ ("
                            + modelNames()
                            + " in "
                            + these
                            + ", "
                            + other.modelNames()
                            + " in "
                            + those
                            + ")");
        }
        for (int i = 0; i < models.size(); i++) {
            if (!models.get(i).equals(other.models.get(i))) {
                return Optional.of(
                        "model " + models.get(i).name() + " differs (its files, what it checks or its state bound)");
            }
        }
        if (timeoutSeconds != other.timeoutSeconds) {
            return Optional.of(
                    "--timeout differs ("
                            + timeoutSeconds
                            + " s in "
                            + these
                            + ", "
                            + other.timeoutSeconds
                            + " s in "
                            + those
                            + ")");
        }
        return Optional.empty();
    }

    private static List<String> union(java.util.Set<String> a, java.util.Set<String> b) {
        java.util.TreeSet<String> all = new java.util.TreeSet<>(a);
        all.addAll(b);
        return List.copyOf(all);
    }

    private static String add(Path root, Path file, Map<String, String> files) throws MutationException {
        String name = name(root, file);
        String hash = hash(file);
        String previous = files.putIfAbsent(name, hash);
        if (previous != null && !previous.equals(hash)) {
            throw new MutationException(file + ": its bytes changed while the run's inputs were read");
        }
        return name;
    }

    private static String hash(Path file) throws MutationException {
        try {
            return Sha256.of(file);
        } catch (IOException e) {
            throw new MutationException(file + ": cannot read it: " + FileProblems.words(e));
        }
    }

    /** A file of the run's inputs as text, or why it cannot be read, in words. */
    public static String read(Path file) throws MutationException {
        try {
            return Files.readString(file);
        } catch (CharacterCodingException e) {
            throw new MutationException(file + ": not UTF-8 text");
        } catch (IOException e) {
            throw new MutationException(file + ": cannot read it: " + FileProblems.words(e));
        }
    }
}
