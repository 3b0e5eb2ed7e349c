package io.proofgate.audit;

import io.proofgate.format.ScenarioBlock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * One side of an audit, materialised: the spec and the validator's sources of a commit or of the working tree, copied
 * into a folder of the audit run's own.
 *
 * @param name how the report names it: a commit hash, or {@code worktree}
 * @param commit the commit, or for the working tree the commit it is based on (HEAD)
 * @param uncommitted for the working tree, its files under the audited paths that differ from HEAD
 * @param dir the folder holding {@code spec/} and the validator's sources ({@link #VALIDATOR})
 */
public record Revision(String name, String commit, List<String> uncommitted, Path dir) {

    /** What the audit reads of a revision. */
    static final String SCENARIOS = "generated-tests/scenarios";

    /**
     * The sources the audit compiles as a revision's validator: its module and the modules below it, those of them the
     * revision has (a revision before the protocol's words had their own module has the validator's alone).
     */
    static final List<String> VALIDATOR =
            List.of("validator/src/main/java", "words/src/main/java", "json-text/src/main/java");

    static final List<String> PATHS =
            Stream.concat(Stream.of("spec", Accepted.FILE, SCENARIOS), VALIDATOR.stream()).toList();
    static final String WORKTREE = "worktree";

    public Revision {
        uncommitted = List.copyOf(uncommitted);
    }

    /** {@code revision} of {@code repository} (null: the working tree), written into {@code dir}. */
    static Revision materialise(GitRepository repository, String revision, Path dir)
            throws IOException, InterruptedException {
        Files.createDirectories(dir);
        if (revision == null) {
            String head = repository.commit("HEAD");
            repository.exportWorkingTree(PATHS, dir);
            Revision worktree = new Revision(WORKTREE, head, repository.uncommitted(PATHS), dir);
            worktree.requireSpec(WORKTREE);
            return worktree;
        }
        String commit = repository.commit(revision);
        repository.export(commit, PATHS, dir);
        Revision side = new Revision(commit, commit, List.of(), dir);
        side.requireSpec(revision);
        return side;
    }

    public Path spec() {
        return dir.resolve("spec");
    }

    /** How many generated scenarios this revision commits for the model. */
    public int scenarios(String model) throws IOException {
        Path folder = dir.resolve(SCENARIOS).resolve(model);
        if (!Files.isDirectory(folder)) {
            return 0;
        }
        int count = 0;
        try (var files = Files.list(folder)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".scenarios")).sorted().toList()) {
                count += ScenarioBlock.split(file.toString(), Files.readAllLines(file)).size();
            }
        }
        return count;
    }

    /** The folders of {@link #VALIDATOR} that this revision has, the validator's first. */
    public List<Path> validatorSources() {
        return VALIDATOR.stream().map(dir::resolve).filter(Files::isDirectory).toList();
    }

    /** The short form reports print: seven hex digits, or {@code worktree}. */
    public String shortName() {
        return name.equals(WORKTREE) ? WORKTREE : name.substring(0, Math.min(7, name.length()));
    }

    private void requireSpec(String asked) {
        if (!Files.isRegularFile(spec().resolve("models.json"))
                || !Files.isRegularFile(spec().resolve("Publication.tla"))) {
            throw new AuditException(
                    "revision "
                            + asked
                            + (name.equals(asked) ? "" : " (" + shortName() + ")")
                            + " has no spec: spec/Publication.tla and spec/models.json are what the audit compares");
        }
    }
}
