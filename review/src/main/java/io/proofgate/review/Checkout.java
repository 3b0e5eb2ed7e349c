package io.proofgate.review;

import io.proofgate.audit.GitRepository;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * One revision of a connector's repository, written whole into a folder of the audit's own, so
 * that its adapter runs on exactly that revision's code. The files are read with git's plumbing:
 * the user's working tree, index and refs are never written.
 *
 * @param name how reports name it: the commit, or {@code worktree}
 * @param commit the commit, or for the working tree the commit it is based on
 * @param uncommitted for the working tree, the files that differ from that commit
 */
public record Checkout(String name, String commit, List<String> uncommitted, Path dir) {

    public static final String WORKTREE = "worktree";

    public Checkout {
        uncommitted = List.copyOf(uncommitted);
    }

    /** {@code revision} of {@code repository} (null: the working tree, uncommitted changes included), into {@code dir}. */
    public static Checkout of(GitRepository repository, String revision, Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        if (revision == null) {
            String head = repository.commit("HEAD");
            repository.exportWorkingTree(List.of(), dir);
            return new Checkout(WORKTREE, head, repository.uncommitted(List.of()), dir);
        }
        String commit = repository.commit(revision);
        repository.export(commit, List.of(), dir);
        return new Checkout(commit, commit, List.of(), dir);
    }

    /** Seven hex digits, or {@code worktree}. */
    public String shortName() {
        return name.equals(WORKTREE) ? WORKTREE : name.substring(0, Math.min(7, name.length()));
    }

    /** Removes a folder this audit made, and everything the adapters wrote into it. */
    public static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
