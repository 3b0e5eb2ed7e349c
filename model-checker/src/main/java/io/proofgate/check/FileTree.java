package io.proofgate.check;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removing a folder of a run's own files (TLC's metadir, a generation's staging and run folders). */
public final class FileTree {

    private FileTree() {}

    /** Deletes {@code root} and everything below it; nothing when it does not exist. */
    public static void delete(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
