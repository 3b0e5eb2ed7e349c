package io.proofgate.cli;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A result file that appears whole or not at all: a reader of a half-written JUnit file would see fewer tests, and a
 * merge of a half-written shard would miss logs or mutants. The content goes to a temporary file of its own beside the
 * target (so concurrent runs share none), which is then moved over the target, and deleted if anything failed.
 */
final class AtomicFile {

    /** Writes the content to the stream it is given. */
    @FunctionalInterface
    interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /** A target that is not a path a result file can be moved to. */
    static final class NotAFile extends IOException {
        NotAFile(String message) {
            super(message);
        }
    }

    private AtomicFile() {}

    /**
     * Refuses a target that is not absent or a regular file, before a run starts: the move would replace a named pipe
     * or a device (its reader would never see the result) or a symbolic link (not the file it points to) with a new
     * file, and say the result was written.
     */
    static void check(Path file) throws NotAFile {
        if (file.toString().isEmpty() || file.getFileName() == null) {
            throw new NotAFile("not the path of a file");
        }
        Path parent = file.toAbsolutePath().getParent();
        for (Path up = parent; up != null; up = up.getParent()) {
            if (Files.exists(up)) {
                if (!Files.isDirectory(up)) {
                    throw new NotAFile(
                            io.proofgate.words.Outside.bare(up.toString()) + " is a file, not a folder to write into");
                }
                break;
            }
        }
        if (Files.isSymbolicLink(file)) {
            throw new NotAFile(
                    "a symbolic link: the result would replace the link, not the file it points to (give that file's"
                            + " path)");
        }
        if (Files.isDirectory(file)) {
            throw new NotAFile("a folder, not a file");
        }
        if (Files.exists(file) && !Files.isRegularFile(file)) {
            throw new NotAFile(
                    "not a regular file (a named pipe, a device or a socket): a result file is written whole"
                            + " beside it and moved into its place, so give the path of a file");
        }
    }

    /** The files a run reads, listed when a target is checked against them. */
    @FunctionalInterface
    interface Inputs {
        java.util.Collection<Path> list() throws IOException;
    }

    /**
     * Why {@code file} cannot take a run's result, before the run: {@link #check}'s reason, or, where it is one of the
     * run's {@code inputs}, {@code asInput}'s words for that input (the result file would replace it). Empty when the
     * file can take it.
     */
    static java.util.Optional<String> refusal(
            Path file, Inputs inputs, java.util.function.Function<Path, String> asInput) {
        try {
            check(file);
            return replaces(file, inputs.list()).map(asInput);
        } catch (NotAFile e) {
            return java.util.Optional.of(e.getMessage());
        } catch (IOException e) {
            return java.util.Optional.of(io.proofgate.words.FileProblems.words(e));
        }
    }

    /**
     * The input of the run, of {@code inputs}, that the target {@code file} is, if any: the result file would replace
     * it.
     */
    private static java.util.Optional<Path> replaces(Path file, java.util.Collection<Path> inputs) throws IOException {
        if (!Files.exists(file)) {
            return java.util.Optional.empty();
        }
        for (Path input : inputs) {
            if (input != null && Files.exists(input) && Files.isSameFile(file, input)) {
                return java.util.Optional.of(input);
            }
        }
        return java.util.Optional.empty();
    }

    static void write(Path file, Content content) throws IOException {
        check(file);
        Path parent = file.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path temporary = Files.createTempFile(parent, file.getFileName().toString(), ".part");
        try {
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(temporary), 1 << 16)) {
                content.writeTo(out);
            }
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temporary);
        }
    }
}
