package io.proofgate.check;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A folder of a run's own, removed when the run ends however it ends: closed as usual, or when the JVM shuts down on
 * SIGTERM or SIGINT (Ctrl-C), whose hooks run where a {@code finally} never does. Only SIGKILL leaves it, as it leaves
 * everything.
 */
public final class TemporaryFolder implements AutoCloseable {

    private final Path path;
    private final Runnable first;
    private final Thread hook;

    private TemporaryFolder(Path path, Runnable first) {
        this.path = path;
        this.first = first;
        this.hook =
                Thread.ofPlatform().name("proofgate-remove-" + path.getFileName()).unstarted(this::removeAtShutdown);
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * A new folder named {@code prefix} and a random part, in {@code parent} (null: the system's temporary folder).
     * {@code first} runs before it is removed at shutdown: it stops what may still write into it (the processes started
     * there), so that nothing is left half removed.
     */
    public static TemporaryFolder create(Path parent, String prefix, Runnable first) throws IOException {
        Path path = parent == null ? Files.createTempDirectory(prefix) : Files.createTempDirectory(parent, prefix);
        return new TemporaryFolder(path, first);
    }

    public Path path() {
        return path;
    }

    /** Removes the folder now; the shutdown hook is no longer needed. */
    @Override
    public void close() throws IOException {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            return; // the hook removes it
        }
        FileTree.delete(path);
    }

    private void removeAtShutdown() {
        first.run();
        // a process that was ending may still have written a file while the tree was walked
        for (int attempt = 1; ; attempt++) {
            try {
                FileTree.delete(path);
                return;
            } catch (IOException | UncheckedIOException e) {
                if (attempt == 3) {
                    System.err.println("proofgate: could not remove " + path + " at shutdown (" + e.getMessage() + ")");
                    return;
                }
            }
        }
    }
}
