package io.proofgate.generate;

import io.proofgate.check.FileTree;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The generated files as committed in the generated-tests module: the scenario folder and the coverage summary. A
 * generation's {@link Generation.Output} replaces them as one ({@link #write}), or is compared with them ({@link
 * #staleness}, for {@code generate --check}).
 */
public final class CommittedScenarios {

    public static final String SUMMARY_FILE = "COVERAGE.md";

    /** The scenario folder under the generated-tests module. */
    public static final String SCENARIO_DIR = "scenarios";

    private static final String STAGING_PREFIX = ".generate-";

    private CommittedScenarios() {}

    /**
     * Replaces the scenario folder and the summary in {@code moduleDir}. Files are written to a staging folder beside
     * it and swapped in only when all are written, so a failure leaves the previous scenarios in place; staging folders
     * of an interrupted run are removed.
     */
    public static void write(Generation.Output output, Path moduleDir) throws IOException {
        // One writer at a time: under the lock, a staging folder that exists is an interrupted run's.
        try (FileChannel lock =
                        FileChannel.open(
                                moduleDir.resolve(STAGING_PREFIX + "lock"),
                                StandardOpenOption.CREATE,
                                StandardOpenOption.WRITE);
                FileLock held = lock.tryLock()) {
            if (held == null) {
                throw new GenerationException(
                        "another proofgate generate is writing " + moduleDir + " now; run again when it is done");
            }
            writeLocked(output, moduleDir);
        }
    }

    private static void writeLocked(Generation.Output output, Path moduleDir) throws IOException {
        Path target = moduleDir.resolve(SCENARIO_DIR);
        removeStaleStaging(moduleDir);
        Path staging = Files.createTempDirectory(moduleDir, STAGING_PREFIX);
        Path old = staging.resolveSibling(staging.getFileName() + "-old");
        try {
            for (var file : output.files().entrySet()) {
                Path path = staging.resolve(file.getKey());
                Files.createDirectories(path.getParent());
                Files.writeString(path, file.getValue());
            }
            if (Files.exists(target)) {
                Files.move(target, old);
            }
            Files.move(staging, target);
            Files.writeString(moduleDir.resolve(SUMMARY_FILE), output.summary().text());
        } finally {
            FileTree.delete(staging);
            FileTree.delete(old);
        }
    }

    /**
     * Cleans up after a run that was killed: if it died between moving the old scenarios aside and moving the new ones
     * in, the old ones go back; every staging folder is removed.
     */
    private static void removeStaleStaging(Path moduleDir) throws IOException {
        Path target = moduleDir.resolve(SCENARIO_DIR);
        if (!Files.exists(target)) {
            try (Stream<Path> entries = Files.list(moduleDir)) {
                Optional<Path> aside =
                        entries.filter(
                                        p ->
                                                p.getFileName().toString().startsWith(STAGING_PREFIX)
                                                        && p.getFileName().toString().endsWith("-old")
                                                        && Files.isDirectory(p))
                                .findFirst();
                if (aside.isPresent()) {
                    Files.move(aside.get(), target);
                }
            }
        }
        try (Stream<Path> entries = Files.list(moduleDir)) {
            for (Path entry :
                    entries.filter(p -> p.getFileName().toString().startsWith(STAGING_PREFIX) && Files.isDirectory(p))
                            .toList()) {
                FileTree.delete(entry);
            }
        }
    }

    /** Differences between the output and what is committed, one line per file; empty when current. */
    public static List<String> staleness(Generation.Output output, Path moduleDir) throws IOException {
        List<String> differences = filesStaleness(output, read(moduleDir.resolve(SCENARIO_DIR)));
        Path summary = moduleDir.resolve(SUMMARY_FILE);
        if (!Files.exists(summary) || !Files.readString(summary).equals(output.summary().text())) {
            differences.add("changed  " + SUMMARY_FILE);
        }
        return differences;
    }

    /**
     * Differences between one model's output and its committed folder ({@code model/}), one line per file; the other
     * models' folders and the summary, which sums every model, are not read.
     */
    public static List<String> staleness(Generation.Output output, Path moduleDir, String model) throws IOException {
        Map<String, String> committed = read(moduleDir.resolve(SCENARIO_DIR));
        committed.keySet().removeIf(file -> !file.startsWith(model + "/"));
        return filesStaleness(output, committed);
    }

    private static List<String> filesStaleness(Generation.Output output, Map<String, String> committed) {
        List<String> differences = new ArrayList<>();
        for (var file : new TreeMap<>(output.files()).entrySet()) {
            String old = committed.remove(file.getKey());
            if (old == null) {
                differences.add("added    " + file.getKey());
            } else if (!old.equals(file.getValue())) {
                differences.add(
                        "changed  "
                                + file.getKey()
                                + scenarioChanges(file.getKey(), old, file.getValue())
                                + firstDifference(old, file.getValue()));
            }
        }
        committed.keySet().forEach(name -> differences.add("removed  " + name));
        return differences;
    }

    /** The files under a scenario folder, by path relative to it ('/'-separated); empty when there is none. */
    public static Map<String, String> read(Path scenarioDir) throws IOException {
        Map<String, String> files = new TreeMap<>();
        if (Files.isDirectory(scenarioDir)) {
            try (Stream<Path> walk = Files.walk(scenarioDir)) {
                for (Path file : walk.filter(Files::isRegularFile).sorted().toList()) {
                    files.put(scenarioDir.relativize(file).toString().replace('\\', '/'), Files.readString(file));
                }
            }
        }
        return files;
    }

    /**
     * What changed in a scenario file, by scenario: how many kept their events but changed expectations, and how many
     * are new or gone, so that a reviewer sees the size of a change in scenarios rather than in lines.
     */
    private static String scenarioChanges(String file, String old, String fresh) {
        Map<String, String> before = new TreeMap<>();
        WrittenScenarios.read(Map.of(file, old)).forEach(s -> before.put(s.name(), s.text()));
        int changed = 0;
        int added = 0;
        for (WrittenScenarios.Written s : WrittenScenarios.read(Map.of(file, fresh))) {
            String was = before.remove(s.name());
            if (was == null) {
                added++;
            } else if (!was.equals(s.text())) {
                changed++;
            }
        }
        return ": scenarios " + changed + " changed, " + added + " added, " + before.size() + " removed";
    }

    private static String firstDifference(String old, String fresh) {
        // split at '\n' alone, so that a line end of "\r\n" or a last line without one is a difference shown
        List<String> a = List.of(old.split("\n", -1));
        List<String> b = List.of(fresh.split("\n", -1));
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            String left = i < a.size() ? abbreviate(a.get(i)) : "<end>";
            String right = i < b.size() ? abbreviate(b.get(i)) : "<end>";
            if (!left.equals(right)) {
                return " (line " + (i + 1) + ": committed " + left + ", generated " + right + ")";
            }
        }
        return "";
    }

    /** A line quoted with what a terminal would not show escaped (a "\r", a tab), its spaces kept. */
    private static String abbreviate(String line) {
        return io.proofgate.words.Outside.quoted(line.length() > 100 ? line.substring(0, 97) + "..." : line);
    }
}
