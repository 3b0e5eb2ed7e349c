package io.proofgate.audit;

import io.proofgate.check.CheckOptions;
import io.proofgate.check.Model;
import io.proofgate.check.ModelCatalog;
import io.proofgate.generate.Generation;
import io.proofgate.graph.StateGraph;
import io.proofgate.tlc.TlcRunner;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.TreeSet;

/**
 * The state graphs of one revision's spec on the audited models, by TLC. Both revisions run on the base's models: the
 * head's spec gets the base's model modules, configs and models.json, so that a difference is one of the spec and not
 * of the bounds; where the head's own model files differ, the report says so.
 */
final class SpecGraphs {

    private SpecGraphs() {}

    /**
     * The models to audit from the base's catalog: those named, or every generation model and every model marked {@code
     * "audit": true} (an environment of its own, such as vLLM's proof producer, where a change can break an invariant
     * without changing a verdict the generation models reach).
     */
    static List<Model> models(Revision base, List<String> names) throws IOException {
        ModelCatalog catalog = catalog(base, "base");
        if (names.isEmpty()) {
            List<Model> models = new ArrayList<>(catalog.generationModels());
            for (Model model : catalog.safetyAuditModels()) {
                if (models.stream().noneMatch(m -> m.name().equals(model.name()))) {
                    models.add(model);
                }
            }
            return models;
        }
        List<Model> models = new ArrayList<>();
        for (String name : names) {
            try {
                models.add(catalog.resolve(name));
            } catch (IOException e) {
                throw new AuditException("the base has no model \"" + name + "\" in spec/models.json");
            }
        }
        return models;
    }

    /**
     * A copy of the head's spec with the base's model files over it, in {@code dir}; returns the model files (relative
     * to spec/) whose head version differs from the base's or is missing.
     */
    static List<String> headOnBaseModels(Revision base, Revision head, List<Model> models, Path dir)
            throws IOException {
        Path spec = dir.resolve("spec");
        copyTree(head.spec(), spec);
        TreeSet<String> files = new TreeSet<>(List.of("models.json"));
        for (Model model : models) {
            files.add(base.spec().relativize(model.module()).toString());
            files.add(base.spec().relativize(model.config()).toString());
        }
        List<String> differ = new ArrayList<>();
        for (String file : files) {
            Path theirs = head.spec().resolve(file);
            Path ours = base.spec().resolve(file);
            if (!Files.isRegularFile(theirs) || !Arrays.equals(Files.readAllBytes(theirs), Files.readAllBytes(ours))) {
                differ.add(file);
            }
            Files.createDirectories(spec.resolve(file).getParent());
            Files.copy(ours, spec.resolve(file), StandardCopyOption.REPLACE_EXISTING);
        }
        return differ;
    }

    /**
     * One revision's TLC runs: the state graph of each model its spec passes, and each model's safety, in the models'
     * order (a broken one has no graph).
     */
    record Side(SequencedMap<String, StateGraph> graphs, List<Safety> safety) {}

    /**
     * TLC with the state graph dumped by {@code tlc} (the cache's runner), one model after the other, or the graph
     * {@code cache} kept from a run on the same spec. A model whose run stops at a violation with a counterexample is a
     * broken {@link Safety} when {@code violationIsFinding} (the head: the base passes there), else an {@link
     * AuditException}; any other failure (a spec that does not parse, a run that does not finish) is always an {@link
     * AuditException}.
     */
    static Side run(
            Path specDir,
            SequencedMap<String, String> keys,
            String side,
            Path tlcDir,
            int workers,
            boolean violationIsFinding,
            GraphCache cache,
            TlcRunner tlc,
            PrintStream progress)
            throws IOException, InterruptedException {
        ModelCatalog catalog = catalogAt(specDir, side);
        SequencedMap<String, StateGraph> graphs = new LinkedHashMap<>();
        List<Safety> safety = new ArrayList<>();
        for (var entry : keys.entrySet()) {
            String name = entry.getKey();
            Model model = catalog.resolve(name);
            String key = entry.getValue();
            Optional<StateGraph> kept = cache.find(key);
            if (kept.isPresent()) {
                progress.println(
                        "proofgate: the state graph of "
                                + name
                                + " ("
                                + side
                                + ") from an earlier run on the same spec"
                                + " (key "
                                + key.substring(0, 16)
                                + ")");
                graphs.put(name, kept.get());
                safety.add(Safety.holds(name));
                continue;
            }
            Path out = tlcDir.resolve(name);
            Files.createDirectories(out);
            switch (Generation.tryDumpGraph(
                    model, name + " (" + side + ")", CheckOptions.defaults(workers, out), progress, tlc)) {
                case Generation.GraphRun.Passed passed -> {
                    cache.keep(key, out.resolve("states.dot"));
                    graphs.put(name, passed.graph());
                    safety.add(Safety.holds(name));
                }
                case Generation.GraphRun.Failed failed ->
                        safety.add(
                                (violationIsFinding ? Safety.violated(name, failed.result()) : Optional.<Safety>empty())
                                        .orElseThrow(
                                                () ->
                                                        new AuditException(
                                                                "the "
                                                                        + side
                                                                        + " spec does not pass TLC on model "
                                                                        + name
                                                                        + ": "
                                                                        + failed.why()
                                                                        + " (the audit compares specs that pass their"
                                                                        + " own checks)")));
            }
        }
        return new Side(graphs, safety);
    }

    /** Each of {@code models}' key in {@code cache} for the spec under {@code specDir}, in their order. */
    static SequencedMap<String, String> keys(Path specDir, List<String> models, String side, GraphCache cache)
            throws IOException {
        ModelCatalog catalog = catalogAt(specDir, side);
        SequencedMap<String, String> keys = new LinkedHashMap<>();
        for (String name : models) {
            keys.put(name, cache.key(specDir, catalog.resolve(name)));
        }
        return keys;
    }

    /** Whether {@code cache} keeps the graph under every one of {@code keys}. */
    static boolean allKept(SequencedMap<String, String> keys, GraphCache cache) {
        return keys.values().stream().allMatch(cache::keeps);
    }

    private static ModelCatalog catalogAt(Path specDir, String side) {
        try {
            return ModelCatalog.of(specDir);
        } catch (IOException | RuntimeException e) {
            throw new AuditException("the " + side + " spec's models cannot be read: " + e.getMessage());
        }
    }

    /** A revision's models by name (its spec/models.json), for its own sizes and recorded counts. */
    static java.util.Map<String, Model> catalogOf(Revision revision, String side, List<String> names) {
        ModelCatalog catalog = catalog(revision, side);
        java.util.Map<String, Model> models = new LinkedHashMap<>();
        for (String name : names) {
            try {
                models.put(name, catalog.resolve(name));
            } catch (IOException | RuntimeException e) {
                // not a model of this revision: its absence is the finding
            }
        }
        return models;
    }

    static ModelCatalog catalog(Revision revision, String side) {
        try {
            return ModelCatalog.of(revision.spec());
        } catch (IOException | RuntimeException e) {
            // the revision's folder is this run's and is gone after it: the file is named from the revision's root
            String problem =
                    String.valueOf(e.getMessage())
                            .replace(revision.dir().toAbsolutePath() + java.io.File.separator, "");
            throw new AuditException("the " + side + "'s spec/models.json cannot be read: " + problem);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (var walk = Files.walk(from)) {
            for (Path source : walk.sorted().toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
