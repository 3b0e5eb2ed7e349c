package io.proofgate.audit;

import io.proofgate.check.Model;
import io.proofgate.graph.StateGraph;
import io.proofgate.graph.StateGraphReader;
import io.proofgate.tlc.TlcRunner;
import io.proofgate.words.Sha256;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The state graphs of TLC runs that passed, kept by a hash of everything such a run reads: the code TLC runs and how
 * ({@link TlcRunner#identity()}), the model's name, module and config, and every file of the spec folder by path and
 * bytes. An audit's base rarely changes between two audits of one change (a pull request pushed again, a validator-only
 * change whose head spec is the base's), and its TLC runs are most of an audit's time; a kept graph is read instead.
 *
 * <p>Only the dump of a run that passed is kept; a kept file is written beside its final name and moved in whole, so
 * concurrent audits never read half of one, and one that does not read as a state graph is run again, never trusted.
 */
final class GraphCache {

    private static final String FORMAT = "proofgate-graph-cache/2";

    private final Path dir;
    private final TlcRunner tlc;

    /** Graphs kept under {@code dir}, of runs by {@code tlc}. */
    GraphCache(Path dir, TlcRunner tlc) {
        this.dir = dir;
        this.tlc = tlc;
    }

    /** The key of {@code model}'s run on the spec under {@code specDir}. */
    String key(Path specDir, Model model) throws IOException {
        Sha256.Fields key = Sha256.fields();
        for (String part :
                List.of(
                        FORMAT,
                        tlc.identity(),
                        model.name(),
                        relative(specDir, model.module()),
                        relative(specDir, model.config()))) {
            key.add(part);
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(specDir)) {
            files =
                    walk.filter(Files::isRegularFile)
                            .map(specDir::relativize)
                            .sorted(java.util.Comparator.comparing(p -> p.toString().replace('\\', '/')))
                            .toList();
        }
        for (Path file : files) {
            key.add(file.toString().replace('\\', '/'));
            key.add(Files.readAllBytes(specDir.resolve(file)));
        }
        return key.hex();
    }

    /** Whether a graph is kept under {@code key} (it may still fail to read: {@link #find}). */
    boolean keeps(String key) {
        return Files.isRegularFile(dir.resolve(key + ".dot"));
    }

    /**
     * The graph kept under {@code key}, if one is kept and reads as a state graph. Its file's time becomes now, as a
     * new one's is, so that the graphs no recent audit used can be told by their time and dropped (docs/audit.md, "In
     * CI").
     */
    Optional<StateGraph> find(String key) {
        Path file = dir.resolve(key + ".dot");
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        StateGraph graph;
        try {
            graph = StateGraphReader.read(file);
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // run TLC again; its dump replaces this file
        }
        try {
            Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.from(java.time.Instant.now()));
        } catch (IOException e) {
            // a folder this audit may read but not write: the graph is still good
        }
        return Optional.of(graph);
    }

    /** Keeps the dump {@code dot} of a run that passed under {@code key}. */
    void keep(String key, Path dot) throws IOException {
        Files.createDirectories(dir);
        Path partial = Files.createTempFile(dir, key, ".partial");
        try {
            Files.copy(dot, partial, StandardCopyOption.REPLACE_EXISTING);
            try {
                Files.move(
                        partial,
                        dir.resolve(key + ".dot"),
                        StandardCopyOption.ATOMIC_MOVE,
                        StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(partial, dir.resolve(key + ".dot"), StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    private static String relative(Path specDir, Path file) {
        Path path = file.toAbsolutePath().normalize();
        Path root = specDir.toAbsolutePath().normalize();
        return path.startsWith(root) ? root.relativize(path).toString().replace('\\', '/') : path.toString();
    }
}
