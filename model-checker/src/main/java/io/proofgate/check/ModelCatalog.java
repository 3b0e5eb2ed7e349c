package io.proofgate.check;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * Finds the models of {@code spec/}: {@code ci} and {@code deep} by name, any other config by
 * path. A config's module is the {@code .tla} of the same name beside it, else
 * {@code MCPublication.tla} in its folder, else the only {@code MC*.tla} there (the mutants share
 * one). Expectations come from
 * {@code spec/models.json} where it lists the config; otherwise the model must pass.
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
        return new ModelCatalog(specDir, ModelsFile.read(specDir.resolve("models.json")));
    }

    /** {@code ci}, {@code deep}, or the path of a .cfg file. */
    public Model resolve(String nameOrPath) throws IOException {
        Path config = switch (nameOrPath) {
            case CI -> specDir.resolve("MCPublication.cfg");
            case DEEP -> specDir.resolve("MCPublicationDeep.cfg");
            default -> Path.of(nameOrPath);
        };
        if (!Files.isRegularFile(config)) {
            throw new IOException(nameOrPath.equals(CI) || nameOrPath.equals(DEEP)
                    ? "model " + nameOrPath + ": " + config + " is missing"
                    : "model " + nameOrPath + ": no such config file (expected ci, deep or the path of a .cfg)");
        }
        if (!config.getFileName().toString().endsWith(".cfg")) {
            throw new IOException("model " + nameOrPath + ": not a .cfg file");
        }
        Path module = moduleOf(config);
        String name = nameOrPath.equals(CI) || nameOrPath.equals(DEEP) ? nameOrPath
                : config.getFileName().toString().replaceFirst("\\.cfg$", "");
        Optional<ModelsFile.Entry> entry = models.entryFor(specDir, config);
        Model.Expected expected = entry.map(ModelsFile.Entry::expected).orElse(new Model.Expected.Ok());
        OptionalLong distinct = entry.map(ModelsFile.Entry::distinctStates).orElse(OptionalLong.empty());
        return new Model(name, module, config, expected, distinct, entry.map(ModelsFile.Entry::description).orElse(""),
                specDir);
    }

    /** Every config that spec/models.json lists, in its order. */
    public List<Model> listed() throws IOException {
        List<Model> all = new java.util.ArrayList<>();
        for (ModelsFile.Entry entry : models.entries()) {
            all.add(resolve(specDir.resolve(entry.config()).toString()));
        }
        return all;
    }

    /** The models whose edges {@code proofgate generate} covers, in models.json's order. */
    public List<Model> generationModels() throws IOException {
        List<Model> all = new java.util.ArrayList<>();
        for (ModelsFile.Entry entry : models.entries()) {
            if (entry.generate()) {
                Path config = specDir.resolve(entry.config());
                all.add(config.getFileName().toString().equals("MCPublication.cfg") ? resolve(CI) : resolve(config.toString()));
            }
        }
        if (all.isEmpty()) {
            all.add(resolve(CI));
        }
        return all;
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
            List<Path> candidates = files.filter(p -> p.getFileName().toString().matches("MC.*\\.tla")).sorted().toList();
            if (candidates.size() == 1) {
                return candidates.getFirst();
            }
            throw new IOException("config " + config + ": no " + sibling.getFileName() + " beside it and "
                    + candidates.size() + " MC*.tla modules in " + folder + " to choose from");
        }
    }
}
