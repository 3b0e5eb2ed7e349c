package io.proofgate.review;

import io.proofgate.audit.GitRepository;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * One revision of a connector's repository, written whole into a folder of the audit's own, so that its adapter runs on
 * exactly that revision's code. The files are read with git's plumbing: the user's working tree, index and refs are
 * never written.
 *
 * @param name how reports name it: the commit, or {@code worktree}
 * @param commit the commit, or for the working tree the commit it is based on
 * @param uncommitted for the working tree, the files that differ from that commit
 * @param blobs for a commit, each file written with its blob id; null for the working tree, whose files have none until
 *     they are committed
 */
public record Checkout(
        String name, String commit, List<String> uncommitted, Path dir, SortedMap<String, String> blobs) {

    public static final String WORKTREE = "worktree";

    public Checkout {
        uncommitted = List.copyOf(uncommitted);
        blobs = blobs == null ? null : Collections.unmodifiableSortedMap(new TreeMap<>(blobs));
    }

    /**
     * {@code revision} of {@code repository} (null: the working tree, uncommitted changes included), into {@code dir}.
     */
    public static Checkout of(GitRepository repository, String revision, Path dir)
            throws IOException, InterruptedException {
        Files.createDirectories(dir);
        if (revision == null) {
            String head = repository.commit("HEAD");
            repository.exportWorkingTree(List.of(), dir);
            return new Checkout(WORKTREE, head, repository.uncommitted(List.of()), dir, null);
        }
        String commit = repository.commit(revision);
        return new Checkout(commit, commit, List.of(), dir, repository.export(commit, List.of(), dir));
    }

    /** Seven hex digits, or {@code worktree}. */
    public String shortName() {
        return name.equals(WORKTREE) ? WORKTREE : name.substring(0, Math.min(7, name.length()));
    }

    /** Changed files a report locates findings at; a change touching more is located at its first ones. */
    public static final int MAX_CHANGED = 20;

    /**
     * The files that differ between two written revisions (added, removed or changed), sorted, at most {@link
     * #MAX_CHANGED}. Two commits are compared by their blob ids, with no file read again; where one side is the working
     * tree, by the bytes of the files written.
     */
    public static List<String> changed(Checkout base, Checkout head) throws IOException {
        if (base.blobs() != null && head.blobs() != null) {
            TreeSet<String> names = new TreeSet<>(base.blobs().keySet());
            names.addAll(head.blobs().keySet());
            return names.stream()
                    .filter(name -> !Objects.equals(base.blobs().get(name), head.blobs().get(name)))
                    .limit(MAX_CHANGED)
                    .toList();
        }
        return changed(base.dir(), head.dir());
    }

    /** {@link #changed(Checkout, Checkout)} by the bytes of the files in two folders. */
    static List<String> changed(Path base, Path head) throws IOException {
        TreeSet<String> names = new TreeSet<>();
        names.addAll(files(base));
        names.addAll(files(head));
        List<String> changed = new java.util.ArrayList<>();
        for (String name : names) {
            if (!same(base.resolve(name), head.resolve(name))) {
                changed.add(name);
                if (changed.size() == MAX_CHANGED) {
                    break;
                }
            }
        }
        return changed;
    }

    /** Two written files alike: links by their targets (never followed), files by their bytes. */
    private static boolean same(Path a, Path b) throws IOException {
        if (Files.isSymbolicLink(a) || Files.isSymbolicLink(b)) {
            return Files.isSymbolicLink(a)
                    && Files.isSymbolicLink(b)
                    && Files.readSymbolicLink(a).equals(Files.readSymbolicLink(b));
        }
        return Files.isRegularFile(a) && Files.isRegularFile(b) && Files.mismatch(a, b) == -1;
    }

    /** The files and links under {@code dir} (a link to a folder is one entry, as git keeps it). */
    private static List<String> files(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            return paths.filter(
                            p ->
                                    Files.isSymbolicLink(p)
                                            || Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                    .map(p -> dir.relativize(p).toString().replace('\\', '/'))
                    .toList();
        }
    }
}
