package io.proofgate.check;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The models of {@code spec/}: each one {@code spec/models.json} lists, by its name, and any other config by path. A
 * listed model's module is the one its entry names; an unlisted config's is the {@code .tla} of the same name beside
 * it, else {@code MCPublication.tla} in its folder, else the only {@code MC*.tla} there, and it must pass.
 */
public final class ModelCatalog {

    public static final String CI = "ci";
    public static final String DEEP = "deep";

    private final Path specDir;
    private final ModelsFile models;

    private ModelCatalog(Path specDir, ModelsFile models) {
        this.specDir = specDir;
        this.models = models;
    }

    public static ModelCatalog of(Path specDir) throws IOException {
        if (!Files.isRegularFile(specDir.resolve("Publication.tla"))) {
            throw new IOException(specDir + " holds no Publication.tla (is this a proofgate checkout?)");
        }
        ModelCatalog catalog = new ModelCatalog(specDir, ModelsFile.read(specDir.resolve("models.json")));
        for (ModelsFile.Entry entry : catalog.models.entries()) {
            catalog.model(entry); // every listed file exists
        }
        return catalog;
    }

    /** A listed model's name, or the path of a .cfg file. */
    public Model resolve(String nameOrPath) throws IOException {
        for (ModelsFile.Entry entry : models.entries()) {
            if (entry.name().equals(nameOrPath)) {
                return model(entry);
            }
        }
        Path config = Path.of(nameOrPath);
        if (!Files.isRegularFile(config)) {
            throw new IOException(
                    "model "
                            + nameOrPath
                            + ": no such model in spec/models.json and no such config file"
                            + " (names: "
                            + String.join(", ", models.entries().stream().map(ModelsFile.Entry::name).toList())
                            + ")");
        }
        if (!config.getFileName().toString().endsWith(".cfg")) {
            throw new IOException("model " + nameOrPath + ": not a .cfg file");
        }
        Path wanted = config.toAbsolutePath().normalize();
        for (ModelsFile.Entry entry : models.entries()) {
            if (specDir.resolve(entry.cfg()).toAbsolutePath().normalize().equals(wanted)) {
                return model(entry);
            }
        }
        Path module = moduleOf(config);
        // A config in this checkout's spec/ extends its modules; one outside it extends the modules
        // beside it only: with spec/ as its library, a folder without its own Publication.tla was
        // checked against this checkout's and "passed", a verdict on a spec that is neither. Real
        // paths, since a checkout under a symbolic link is spelt one way in its root, another in a path given.
        Path library =
                config.toRealPath().startsWith(specDir.toRealPath()) ? specDir : module.toAbsolutePath().getParent();
        return new Model(
                config.getFileName().toString().replaceFirst("\\.cfg$", ""),
                module,
                config,
                new Model.Expected.Ok(),
                OptionalLong.empty(),
                "",
                library);
    }

    /** Every model spec/models.json lists, in its order. */
    public List<Model> listed() throws IOException {
        return select(entry -> true);
    }

    /** The listed models CI checks: all but those marked {@code "inCi": false}. */
    public List<Model> checkedInCi() throws IOException {
        return select(ModelsFile.Entry::inCi);
    }

    /** The models whose edges {@code proofgate generate} covers, in models.json's order. */
    public List<Model> generationModels() throws IOException {
        List<Model> all = select(ModelsFile.Entry::generate);
        if (all.isEmpty()) {
            throw new IOException(specDir.resolve("models.json") + ": no model is marked \"generate\": true");
        }
        return all;
    }

    /**
     * The models {@code proofgate audit} checks for safety besides the generation models (marked {@code "audit":
     * true}): environments the generation models do not have, such as vLLM's proof producer, where a change shows as a
     * broken invariant rather than as a verdict.
     */
    public List<Model> safetyAuditModels() throws IOException {
        return select(ModelsFile.Entry::audit);
    }

    private List<Model> select(Predicate<ModelsFile.Entry> wanted) throws IOException {
        List<Model> all = new ArrayList<>();
        for (ModelsFile.Entry entry : models.entries()) {
            if (wanted.test(entry)) {
                all.add(model(entry));
            }
        }
        return all;
    }

    private Model model(ModelsFile.Entry entry) throws IOException {
        Path config = specDir.resolve(entry.cfg());
        Path module = specDir.resolve(entry.module());
        for (Path file : List.of(config, module)) {
            if (!Files.isRegularFile(file)) {
                throw new IOException(
                        specDir.resolve("models.json") + ": model \"" + entry.name() + "\": " + file + " is missing");
            }
        }
        return new Model(
                entry.name(),
                module,
                config,
                entry.expected(),
                entry.distinctStates(),
                entry.description(),
                specDir,
                entry.shortRun());
    }

    private static Path moduleOf(Path config) throws IOException {
        Path sibling = config.resolveSibling(config.getFileName().toString().replaceFirst("\\.cfg$", ".tla"));
        if (Files.isRegularFile(sibling)) {
            return sibling;
        }
        Path folder = config.toAbsolutePath().getParent();
        Path shared = folder.resolve("MCPublication.tla");
        if (Files.isRegularFile(shared)) {
            return shared;
        }
        try (Stream<Path> files = Files.list(folder)) {
            List<Path> candidates =
                    files.filter(p -> p.getFileName().toString().matches("MC.*\\.tla")).sorted().toList();
            if (candidates.size() == 1) {
                return candidates.getFirst();
            }
            throw new IOException(
                    "config "
                            + config
                            + ": no "
                            + sibling.getFileName()
                            + " beside it and "
                            + candidates.size()
                            + " MC*.tla modules in "
                            + folder
                            + " to choose from");
        }
    }
}
