package io.proofgate.audit;

import io.proofgate.words.Outside;

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
 * The revisions of a git repository, read with the {@code git} executable's plumbing (no shell, no checkout): nothing
 * here writes to the repository, its index or its working tree.
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
     * The largest file a revision may hold: both revisions are written to disk whole, so that their adapters run on
     * exactly their files, and a larger one is refused before anything is written (docs/audit.md, "Limits").
     */
    public static final long MAX_FILE_BYTES = 512L << 20;

    /**
     * Writes the files under {@code paths} at {@code commit} into {@code into}; each file name written with its blob
     * id, sorted by name (two files with one blob id have the same bytes). Files are streamed from git one at a time,
     * never held whole in memory; symbolic links are written as links, kept to {@code into} ({@link WrittenLinks}).
     */
    public java.util.SortedMap<String, String> export(String commit, List<String> paths, Path into)
            throws IOException, InterruptedException {
        java.util.SortedMap<String, String> written = new java.util.TreeMap<>();
        List<String> names = new ArrayList<>();
        java.util.Set<String> executable = new java.util.HashSet<>();
        java.util.Set<String> links = new java.util.HashSet<>();
        StringBuilder batch = new StringBuilder();
        for (String entry :
                listing("cannot list " + commit, paths, "ls-tree", "-r", "-l", "-z", "--full-tree", commit, "--")) {
            if (entry.isEmpty()) {
                continue;
            }
            int tab = entry.indexOf('\t');
            String[] meta = entry.substring(0, tab).trim().split(" +");
            if (!meta[1].equals("blob")) {
                continue; // submodules are not part of a spec or a validator
            }
            String name = entry.substring(tab + 1);
            long size = Long.parseLong(meta[3]);
            refuseIfTooLarge(commit.substring(0, Math.min(7, commit.length())) + ":" + name, size);
            Path file = into.resolve(name).normalize();
            if (!file.startsWith(into)) {
                throw new AuditException("the revision names a file outside its tree: " + Outside.quoted(name));
            }
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
        // links are made after every file is written, so that no file is written through one
        java.util.SortedMap<Path, String> linkTargets = new java.util.TreeMap<>();
        git(
                root,
                batch.toString().getBytes(StandardCharsets.UTF_8),
                out -> {
                    InputStream blobs = new java.io.BufferedInputStream(out, 1 << 16);
                    for (String name : names) {
                        String header = headerLine(blobs, name);
                        String[] parts = header.split(" ");
                        if (parts.length != 3 || !parts[1].equals("blob")) {
                            throw new AuditException(
                                    "git cat-file gave " + Outside.quoted(header) + " for " + Outside.quoted(name));
                        }
                        long size = Long.parseLong(parts[2]);
                        Path file = into.resolve(name).normalize();
                        if (links.contains(name)) {
                            if (size > 4096) {
                                throw new AuditException(
                                        Outside.quoted(name)
                                                + ": a symbolic link whose target is "
                                                + size
                                                + " bytes long, which no file system resolves");
                            }
                            byte[] target = blobs.readNBytes((int) size);
                            if (target.length != size) {
                                throw new AuditException(
                                        "git cat-file output ended early, in the link " + Outside.quoted(name));
                            }
                            linkTargets.put(file, new String(target, StandardCharsets.UTF_8));
                        } else {
                            Files.createDirectories(file.getParent());
                            try (OutputStream copy = Files.newOutputStream(file)) {
                                copy(blobs, copy, size, name);
                            }
                            if (executable.contains(name)) {
                                file.toFile().setExecutable(true); // an adapter may be a script run as it is
                            }
                        }
                        if (blobs.read() != '\n') {
                            throw new AuditException(
                                    "git cat-file output is not as expected after " + Outside.quoted(name));
                        }
                    }
                },
                "cat-file",
                "--batch");
        makeLinks(into, linkTargets);
        return written;
    }

    /**
     * The links, each as git checks it out (a symbolic link, never a file holding its target's path), then kept to
     * {@code into}.
     */
    private static void makeLinks(Path into, java.util.SortedMap<Path, String> links) throws IOException {
        for (var link : links.entrySet()) {
            Files.createDirectories(link.getKey().getParent());
            try {
                Files.createSymbolicLink(link.getKey(), Path.of(link.getValue()));
            } catch (UnsupportedOperationException | IOException | java.nio.file.InvalidPathException e) {
                throw new AuditException(
                        Outside.bare(into.relativize(link.getKey()).toString())
                                + ": the revision's symbolic link to "
                                + Outside.quoted(link.getValue())
                                + " cannot be made here ("
                                + e.getMessage()
                                + ")");
            }
        }
        WrittenLinks.confine(into, List.copyOf(links.keySet()));
    }

    /**
     * A file of {@code size} bytes at {@code where} (REVISION:PATH) refused before anything is written when over the
     * limit.
     */
    private static void refuseIfTooLarge(String where, long size) {
        if (size > MAX_FILE_BYTES) {
            throw new AuditException(
                    Outside.bare(where)
                            + ": "
                            + String.format("%,d", size)
                            + " bytes, over the audit's limit of "
                            + (MAX_FILE_BYTES >> 20)
                            + " MiB for a file of a revision (each revision is written to disk whole)");
        }
    }

    /** One header line of {@code git cat-file --batch}, for the blob of {@code name}. */
    private static String headerLine(InputStream in, String name) throws IOException {
        java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream(64);
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0 || line.size() > 4096) {
                throw new AuditException("git cat-file output ended early, at " + Outside.quoted(name));
            }
            line.write(b);
        }
        return line.toString(StandardCharsets.UTF_8);
    }

    private static void copy(InputStream in, OutputStream out, long size, String name) throws IOException {
        byte[] buffer = new byte[1 << 16];
        for (long left = size; left > 0; ) {
            int read = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (read < 0) {
                throw new AuditException("git cat-file output ended early, in " + Outside.quoted(name));
            }
            out.write(buffer, 0, read);
            left -= read;
        }
    }

    /**
     * The working tree's files under {@code paths} that git would commit (tracked or not ignored), copied into {@code
     * into}: symbolic links as links (never the file or folder they lead to), kept to {@code into} as a commit's are.
     */
    public List<String> exportWorkingTree(List<String> paths, Path into) throws IOException, InterruptedException {
        Result unmerged = git(root, null, "ls-files", "-u");
        if (unmerged.exit() != 0 || !unmerged.text().isBlank()) {
            throw new AuditException(
                    "the working tree has unmerged files (a merge, rebase or cherry-pick is under way);"
                            + " resolve them, or audit a commit with --head REV");
        }
        List<String> names = new ArrayList<>();
        java.util.SortedMap<Path, String> links = new java.util.TreeMap<>();
        for (String name :
                listing(
                        "cannot list the working tree",
                        paths,
                        "ls-files",
                        "-z",
                        "--cached",
                        "--others",
                        "--exclude-standard",
                        "--")) {
            if (name.isEmpty()) {
                continue;
            }
            Path source = root.resolve(name);
            Path file = into.resolve(name).normalize();
            if (!file.startsWith(into)) {
                throw new AuditException("the working tree names a file outside its tree: " + Outside.quoted(name));
            }
            if (Files.isSymbolicLink(source)) {
                links.put(file, Files.readSymbolicLink(source).toString());
            } else if (Files.isRegularFile(source, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                refuseIfTooLarge("worktree:" + name, Files.size(source));
                Files.createDirectories(file.getParent());
                Files.copy(
                        source,
                        file,
                        java.nio.file.StandardCopyOption.COPY_ATTRIBUTES,
                        java.nio.file.LinkOption.NOFOLLOW_LINKS);
            } else {
                continue; // deleted in the working tree
            }
            names.add(name);
        }
        makeLinks(into, links);
        return names.stream().distinct().sorted().toList();
    }

    /** Files under {@code paths} that differ between HEAD and the working tree (uncommitted changes), sorted. */
    public List<String> uncommitted(List<String> paths) throws IOException, InterruptedException {
        List<String> names = new ArrayList<>();
        for (String entry :
                listing("git status failed", paths, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--")) {
            if (entry.length() > 3) {
                names.add(entry.substring(3));
            }
        }
        return names.stream().sorted().toList();
    }

    /**
     * The NUL-separated entries git prints for {@code command} followed by {@code paths}; failing is {@code problem}.
     */
    private String[] listing(String problem, List<String> paths, String... command)
            throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of(command));
        args.addAll(paths);
        Result result = git(root, null, args.toArray(String[]::new));
        if (result.exit() != 0) {
            throw new AuditException(problem + ": " + result.firstErrorLine());
        }
        return result.text().split("\0");
    }

    private record Result(int exit, byte[] bytes, String errors) {
        Result withOutput(byte[] output) {
            return new Result(exit, output, errors);
        }

        String text() {
            return new String(bytes, StandardCharsets.UTF_8);
        }

        String firstErrorLine() {
            return Outside.bare(errors.lines().findFirst().orElse("exit " + exit));
        }
    }

    /** What reads a git command's standard output as it comes. */
    @FunctionalInterface
    private interface Reader {
        void read(InputStream out) throws IOException;
    }

    private static Result git(Path dir, byte[] input, String... args) throws IOException, InterruptedException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        return git(dir, input, stdout -> stdout.transferTo(out), args).withOutput(out.toByteArray());
    }

    /**
     * Runs git on {@code dir} with {@code input} on its standard input, its output given to {@code reader} as it comes;
     * a reader that fails ends git. Optional locks are off ({@code --no-optional-locks}): a read such as {@code git
     * status} would otherwise refresh the user's index, and the audit writes nothing of the user's.
     */
    private static Result git(Path dir, byte[] input, Reader reader, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "--no-optional-locks", "-C", dir.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("GIT_OPTIONAL_LOCKS", "0");
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new AuditException("cannot run git (" + e.getMessage() + "); the audit reads revisions with it");
        }
        try {
            // stderr to a thread of its own so that neither pipe can fill and stall git; only its
            // start is kept, for a message
            java.io.ByteArrayOutputStream errors = new java.io.ByteArrayOutputStream();
            Thread drain =
                    Thread.ofVirtual()
                            .start(
                                    () -> {
                                        try (InputStream err = process.getErrorStream()) {
                                            byte[] buffer = new byte[8192];
                                            for (int read = err.read(buffer); read >= 0; read = err.read(buffer)) {
                                                errors.write(
                                                        buffer,
                                                        0,
                                                        Math.max(0, Math.min(read, MAX_ERRORS - errors.size())));
                                            }
                                        } catch (IOException ignored) {
                                            // the exit code still says whether git failed
                                        }
                                    });
            if (input != null) {
                Thread.ofVirtual()
                        .start(
                                () -> {
                                    try (OutputStream in = process.getOutputStream()) {
                                        in.write(input);
                                    } catch (IOException ignored) {
                                        // git exited early; its exit code says why
                                    }
                                });
            } else {
                process.getOutputStream().close();
            }
            try (InputStream stdout = process.getInputStream()) {
                reader.read(stdout);
            }
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new AuditException("git " + args[0] + " did not finish in " + TIMEOUT_SECONDS + " s");
            }
            drain.join();
            return new Result(process.exitValue(), new byte[0], errors.toString(StandardCharsets.UTF_8));
        } finally {
            process.destroyForcibly();
        }
    }

    /** The most of git's stderr kept for a message. */
    private static final int MAX_ERRORS = 1 << 16;
}
