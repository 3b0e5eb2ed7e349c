package io.proofgate.audit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The revisions of a git repository, read with the {@code git} executable's plumbing (no shell,
 * no checkout): nothing here writes to the repository, its index or its working tree.
 */
public final class GitRepository {

    /** A guard against a hung git only: a loaded machine must not turn a slow git into a failed audit. */
    private static final long TIMEOUT_SECONDS = 600;
    private final Path root;

    private GitRepository(Path root) {
        this.root = root;
    }

    /** The repository whose working tree holds {@code dir}. */
    public static GitRepository at(Path dir) throws IOException, InterruptedException {
        Result top = git(dir, null, "rev-parse", "--show-toplevel");
        if (top.exit() != 0) {
            throw new AuditException(dir + " is not inside a git repository (" + top.firstErrorLine() + ")");
        }
        return new GitRepository(Path.of(top.text().strip()));
    }

    public Path root() {
        return root;
    }

    /** The commit a revision names (a branch, tag, hash, {@code HEAD~2}...). */
    public String commit(String revision) throws IOException, InterruptedException {
        if (revision.isEmpty() || revision.startsWith("-")) {
            throw new AuditException("\"" + revision + "\" is not a revision");
        }
        Result result = git(root, null, "rev-parse", "--verify", "--quiet", "--end-of-options", revision + "^{commit}");
        if (result.exit() != 0) {
            throw new AuditException("unknown revision \"" + revision + "\" (no commit of that name in " + root + ")");
        }
        return result.text().strip();
    }

    /**
     * Writes the files under {@code paths} at {@code commit} into {@code into}; each file name
     * written with its blob id, sorted by name (two files with one blob id have the same bytes).
     */
    public java.util.SortedMap<String, String> export(String commit, List<String> paths, Path into)
            throws IOException, InterruptedException {
        java.util.SortedMap<String, String> written = new java.util.TreeMap<>();
        List<String> names = new ArrayList<>();
        java.util.Set<String> executable = new java.util.HashSet<>();
        java.util.Set<String> links = new java.util.HashSet<>();
        StringBuilder batch = new StringBuilder();
        for (String entry : listing("cannot list " + commit, paths, "ls-tree", "-r", "-z", "--full-tree", commit, "--")) {
            if (entry.isEmpty()) {
                continue;
            }
            int tab = entry.indexOf('\t');
            String[] meta = entry.substring(0, tab).split(" ");
            if (!meta[1].equals("blob")) {
                continue; // submodules are not part of a spec or a validator
            }
            String name = entry.substring(tab + 1);
            names.add(name); // in git's order, which is the batch's: the blobs come back in it
            written.put(name, meta[2]);
            if (meta[0].equals("100755")) {
                executable.add(name);
            } else if (meta[0].equals("120000")) {
                links.add(name); // its blob is the link's target
            }
            batch.append(meta[2]).append('\n');
        }
        if (names.isEmpty()) {
            return written;
        }
        byte[] blobs = git(root, batch.toString().getBytes(StandardCharsets.UTF_8), "cat-file", "--batch").bytes();
        // links are made after every file is written, so that no file is written through one
        java.util.SortedMap<Path, String> linkTargets = new java.util.TreeMap<>();
        int at = 0;
        for (String name : names) {
            int newline = indexOf(blobs, (byte) '\n', at);
            String header = new String(blobs, at, newline - at, StandardCharsets.UTF_8);
            String[] parts = header.split(" ");
            if (parts.length != 3 || !parts[1].equals("blob")) {
                throw new AuditException("git cat-file gave \"" + header + "\" for " + name);
            }
            int size = Integer.parseInt(parts[2]);
            Path file = into.resolve(name).normalize();
            if (!file.startsWith(into)) {
                throw new AuditException("the revision names a file outside its tree: " + name);
            }
            int start = newline + 1;
            at = start + size + 1;
            if (links.contains(name)) {
                linkTargets.put(file, new String(blobs, start, size, StandardCharsets.UTF_8));
                continue;
            }
            Files.createDirectories(file.getParent());
            try (OutputStream out = Files.newOutputStream(file)) {
                out.write(blobs, start, size);
            }
            if (executable.contains(name)) {
                file.toFile().setExecutable(true); // an adapter may be a script run as it is
            }
        }
        for (var link : linkTargets.entrySet()) {
            // as git checks it out: a symbolic link, never a file holding its target's path
            Files.createDirectories(link.getKey().getParent());
            try {
                Files.createSymbolicLink(link.getKey(), Path.of(link.getValue()));
            } catch (UnsupportedOperationException | IOException | java.nio.file.InvalidPathException e) {
                throw new AuditException(into.relativize(link.getKey()) + ": the revision's symbolic link to "
                        + link.getValue() + " cannot be made here (" + e.getMessage() + ")");
            }
        }
        return written;
    }

    /** The working tree's files under {@code paths} that git would commit (tracked or not ignored), copied into {@code into}. */
    public List<String> exportWorkingTree(List<String> paths, Path into) throws IOException, InterruptedException {
        Result unmerged = git(root, null, "ls-files", "-u");
        if (unmerged.exit() != 0 || !unmerged.text().isBlank()) {
            throw new AuditException("the working tree has unmerged files (a merge, rebase or cherry-pick is under way);"
                    + " resolve them, or audit a commit with --head REV");
        }
        List<String> names = new ArrayList<>();
        for (String name : listing("cannot list the working tree", paths,
                "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--")) {
            Path source = root.resolve(name);
            if (name.isEmpty() || !Files.isRegularFile(source)) {
                continue; // deleted in the working tree
            }
            Path file = into.resolve(name).normalize();
            Files.createDirectories(file.getParent());
            Files.copy(source, file, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
            names.add(name);
        }
        return names.stream().distinct().sorted().toList();
    }

    /** Files under {@code paths} that differ between HEAD and the working tree (uncommitted changes), sorted. */
    public List<String> uncommitted(List<String> paths) throws IOException, InterruptedException {
        List<String> names = new ArrayList<>();
        for (String entry : listing("git status failed", paths, "status", "--porcelain=v1", "-z", "--untracked-files=all",
                "--")) {
            if (entry.length() > 3) {
                names.add(entry.substring(3));
            }
        }
        return names.stream().sorted().toList();
    }

    /** The NUL-separated entries git prints for {@code command} followed by {@code paths}; failing is {@code problem}. */
    private String[] listing(String problem, List<String> paths, String... command) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of(command));
        args.addAll(paths);
        Result result = git(root, null, args.toArray(String[]::new));
        if (result.exit() != 0) {
            throw new AuditException(problem + ": " + result.firstErrorLine());
        }
        return result.text().split("\0");
    }

    private static int indexOf(byte[] bytes, byte b, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        throw new AuditException("git cat-file output ended early");
    }

    private record Result(int exit, byte[] bytes, String errors) {
        String text() {
            return new String(bytes, StandardCharsets.UTF_8);
        }

        String firstErrorLine() {
            return errors.lines().findFirst().orElse("exit " + exit);
        }
    }

    private static Result git(Path dir, byte[] input, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-C", dir.toString()));
        command.addAll(List.of(args));
        Process process;
        try {
            process = new ProcessBuilder(command).start();
        } catch (IOException e) {
            throw new AuditException("cannot run git (" + e.getMessage() + "); the audit reads revisions with it");
        }
        Path errors = Files.createTempFile("proofgate-git-", ".err");
        try {
            // stderr to a thread of its own so that neither pipe can fill and stall git
            Thread drain = Thread.ofVirtual().start(() -> {
                try (InputStream err = process.getErrorStream()) {
                    Files.write(errors, err.readAllBytes());
                } catch (IOException ignored) {
                    // the exit code still says whether git failed
                }
            });
            if (input != null) {
                Thread.ofVirtual().start(() -> {
                    try (OutputStream in = process.getOutputStream()) {
                        in.write(input);
                    } catch (IOException ignored) {
                        // git exited early; its exit code says why
                    }
                });
            } else {
                process.getOutputStream().close();
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (InputStream stdout = process.getInputStream()) {
                stdout.transferTo(out);
            }
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AuditException("git " + args[0] + " did not finish in " + TIMEOUT_SECONDS + " s");
            }
            drain.join();
            return new Result(process.exitValue(), out.toByteArray(), Files.readString(errors));
        } finally {
            Files.deleteIfExists(errors);
        }
    }
}
