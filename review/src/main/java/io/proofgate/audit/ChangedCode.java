package io.proofgate.audit;

import com.github.difflib.DiffUtils;
import com.github.difflib.patch.AbstractDelta;

import io.proofgate.mutate.Definition;
import io.proofgate.mutate.MutationException;
import io.proofgate.mutate.TlaModule;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where the two revisions' code differs, for locating findings: the TLA+ definitions of the spec whose text changed
 * (layout and comments aside), and the first changed line of each validator source file. Locations are in the head's
 * files, as a pull request shows them.
 */
final class ChangedCode {

    /** One place: a path relative to the repository, a 1-based line and column, and what is there. */
    public record Location(String path, int line, int column, String what) {}

    private ChangedCode() {}

    /** Definitions of the spec's modules that are new or changed at the head (removed ones have no head location). */
    static List<Location> specDefinitions(Revision base, Revision head) throws IOException {
        List<Location> changed = new ArrayList<>();
        for (Path file : files(head.spec(), ".tla")) {
            String relative = head.spec().relativize(file).toString();
            Path before = base.spec().resolve(relative);
            Map<String, String> old = new HashMap<>();
            if (Files.isRegularFile(before)) {
                definitions(before).forEach(d -> old.put(d.name(), d.normalized()));
            }
            for (Definition d : definitions(file)) {
                if (!d.normalized().equals(old.get(d.name()))) {
                    var first = d.tokens().getFirst();
                    changed.add(
                            new Location("spec/" + relative, first.line(), first.column(), "definition " + d.name()));
                }
            }
        }
        return changed;
    }

    /**
     * The first changed line of each validator source that differs (or is new) at the head, the modules below the
     * validator included: a source is compared with the file of the same path in whichever of the base's source folders
     * has it.
     */
    static List<Location> validatorSources(Revision base, Revision head) throws IOException {
        List<Location> changed = new ArrayList<>();
        for (Path root : head.validatorSources()) {
            for (Path file : files(root, ".java")) {
                String relative = root.relativize(file).toString();
                List<String> now = Files.readAllLines(file);
                List<String> was = before(base, relative);
                List<AbstractDelta<String>> deltas = DiffUtils.diff(was, now).getDeltas();
                if (!deltas.isEmpty()) {
                    int line = Math.min(now.size(), deltas.getFirst().getTarget().getPosition() + 1);
                    changed.add(
                            new Location(
                                    head.dir().relativize(file).toString().replace('\\', '/'),
                                    Math.max(1, line),
                                    1,
                                    was.isEmpty()
                                            ? "new file"
                                            : enclosing(now, line)
                                                    + ", "
                                                    + deltas.size()
                                                    + (deltas.size() == 1 ? " changed hunk" : " changed hunks")
                                                    + " in the file"));
                }
            }
        }
        return changed;
    }

    /**
     * The lines of the class at {@code relative} in whichever of the base's source folders has it; none when it is new.
     */
    private static List<String> before(Revision base, String relative) throws IOException {
        for (Path root : base.validatorSources()) {
            if (Files.isRegularFile(root.resolve(relative))) {
                return Files.readAllLines(root.resolve(relative));
            }
        }
        return List.of();
    }

    private static final java.util.regex.Pattern METHOD =
            java.util.regex.Pattern.compile(
                    "^\\s+(?:(?:public|protected|private|static|final|synchronized|abstract|default)\\s+)*"
                            + "(?:<[^>]+>\\s+)?[\\w.<>\\[\\], ?]+\\s+(\\w+)\\s*\\([^;]*$");

    /** The method whose declaration is the nearest above the 1-based line (a scan, not a parse), or the file. */
    private static String enclosing(List<String> lines, int line) {
        for (int i = Math.min(line, lines.size()) - 1; i >= 0; i--) {
            java.util.regex.Matcher m = METHOD.matcher(lines.get(i));
            if (m.find() && !List.of("if", "for", "while", "switch", "catch", "return", "new").contains(m.group(1))) {
                return "method " + m.group(1);
            }
        }
        return "the file's declarations";
    }

    /**
     * Every top-level definition of the spec's modules, by name, its text with the layout and comments left out (a name
     * defined in several modules: their texts one after the other, in the files' order).
     */
    static Map<String, String> definitionTexts(Path spec) throws IOException {
        Map<String, String> texts = new java.util.TreeMap<>();
        for (Path file : files(spec, ".tla")) {
            for (Definition d : definitions(file)) {
                texts.merge(d.name(), d.normalized(), (a, b) -> a + " " + b);
            }
        }
        return texts;
    }

    private static List<Definition> definitions(Path file) throws IOException {
        try {
            return TlaModule.parse(Files.readString(file), file.getFileName().toString()).definitions();
        } catch (MutationException e) {
            return List.of(); // a module the lexer cannot read has no locatable definitions; TLC has judged it already
        }
    }

    private static List<Path> files(Path root, String suffix) throws IOException {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> p.toString().endsWith(suffix) && Files.isRegularFile(p)).sorted().toList();
        }
    }
}
