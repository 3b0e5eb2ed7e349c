package io.proofgate.audit;

import io.proofgate.format.ScenarioBlock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * One side of an audit, materialised: the spec and the validator's sources of a commit or of
 * the working tree, copied into a folder of the audit run's own.
 *
 * @param name how the report names it: a commit hash, or {@code worktree}
 * @param commit the commit, or for the working tree the commit it is based on (HEAD)
 * @param uncommitted for the working tree, its files under the audited paths that differ from HEAD
 * @param dir the folder holding {@code spec/} and {@code validator/src/main/java/}
 */
public record Revision(String name, String commit, List<String> uncommitted, Path dir) {

    /** What the audit reads of a revision. */
    static final String SCENARIOS = "generated-tests/scenarios";
    static final List<String> PATHS = List.of("spec", "validator/src/main/java", Accepted.FILE, SCENARIOS);
    static final String WORKTREE = "worktree";

    public Revision {
        uncommitted = List.copyOf(uncommitted);
    }

    /** {@code revision} of {@code repository} (null: the working tree), written into {@code dir}. */
    static Revision materialise(GitRepository repository, String revision, Path dir) throws IOException, InterruptedException {
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

    public Path validatorSources() {
        return dir.resolve("validator/src/main/java");
    }

    /** The short form reports print: seven hex digits, or {@code worktree}. */
    public String shortName() {
        return name.equals(WORKTREE) ? WORKTREE : name.substring(0, Math.min(7, name.length()));
    }

    private void requireSpec(String asked) {
        if (!Files.isRegularFile(spec().resolve("models.json")) || !Files.isRegularFile(spec().resolve("Publication.tla"))) {
            throw new AuditException("revision " + asked + (name.equals(asked) ? "" : " (" + shortName() + ")")
                    + " has no spec: spec/Publication.tla and spec/models.json are what the audit compares");
        }
    }
}
