package io.proofgate.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.check.CheckOptions;
import io.proofgate.check.Model;
import io.proofgate.check.ModelCatalog;
import io.proofgate.generate.Generation;
import io.proofgate.generate.Locality;
import io.proofgate.graph.StateGraph;
import io.proofgate.tlc.WarmTlcPool;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Measured locality of the generated scenarios: reference edits applied to a copy of the spec, each regenerated and
 * compared with the scenarios of the spec as it is (docs/generation.md, "Locality"). The report goes to
 * target/proofgate/locality/report.md and to standard output: {@code mvn -pl cli test -Dtest=GenerationLocalityTest}
 * (after an install) reproduces it.
 */
class GenerationLocalityTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final PrintStream QUIET = new PrintStream(PrintStream.nullOutputStream());

    /** One text change: {@code find} must occur exactly once. */
    record Change(String find, String replace) {}

    /**
     * One edit of spec/Publication.tla. A change of behaviour changes the connector and the rule that states it (the
     * section "The rules"), as a real change of the protocol would: an edit of the connector alone is a violation of
     * the rules, and TLC says so.
     */
    record Edit(String name, String meaning, List<Change> changes) {}

    static final List<Edit> EDITS =
            List.of(
                    new Edit(
                            "refactor",
                            "Ceil written with IF instead of arithmetic (no behaviour change)",
                            List.of(
                                    new Change(
                                            "Ceil(a, b) == (a + b - 1) \\div b",
                                            "Ceil(a, b) == IF a % b = 0 THEN a \\div b ELSE a \\div b + 1"))),
                    new Edit(
                            "fact",
                            "future_boundary reasons no longer state the entry index (one reason fact)",
                            List.of(
                                    new Change(
                                            "ELSE [observed |-> e[3], group |-> e[1], block |-> e[2], entry |-> i - 1]"
                                                    + " @@",
                                            "ELSE [observed |-> e[3], group |-> e[1], block |-> e[2]] @@ (IF c ="
                                                    + " \"future_boundary\" THEN <<>> ELSE [entry |-> i - 1]) @@"),
                                    new Change(
                                            "Judged(c, [observed |-> e[3], group |-> e[1], block |-> e[2], entry |-> i"
                                                    + " - 1] @@",
                                            "Judged(c, [observed |-> e[3], group |-> e[1], block |-> e[2]] @@ (IF c ="
                                                    + " \"future_boundary\" THEN <<>> ELSE [entry |-> i - 1]) @@"))),
                    new Edit(
                            "rule",
                            "a null block below the target is ignored instead of poisoning (one decision rule)",
                            List.of(
                                    new Change(
                                            "ELSE IF e[2] <= 0 THEN \"null_block\"",
                                            "ELSE IF e[2] <= 0 /\\ ~IsIntermediate(e[3], S) THEN \"null_block\""),
                                    new Change(
                                            "[] row = \"null_block\" -> e[2] < 1",
                                            "[] row = \"null_block\" -> e[2] < 1 /\\ e[3] >= S"))));

    @Test
    void referenceEditsChangeOnlyTheScenariosTheyAffect() throws Exception {
        Path work = ROOT.resolve("target/proofgate/locality");
        deleteTree(work);
        Generation.Output all = CurrentGeneration.output();
        Set<String> reached = modelsReaching(all, EDITED_CODES);
        assertTrue(reached.size() >= 2 && reached.contains("ci"), reached::toString);
        Generation.Output base = restrict(all, reached);
        StringBuilder report =
                new StringBuilder(
                        """
                        | edit | scenarios crossing a change | scenarios changed (kept / added / removed) | needless | renamed or moved | lines changed (+/-) | files |
                        |---|---|---|---|---|---|---|
                        """);
        List<String> failures = new ArrayList<>();
        try (WarmTlcPool warm = new WarmTlcPool(work.resolve("warm-tlc"), CheckOptions.DEFAULT_HEAP)) {
            check(base, work, report, failures, warm);
        }
        Files.createDirectories(work);
        Files.writeString(work.resolve("report.md"), report.toString());
        System.out.print(report);
        assertEquals(List.of(), failures, report.toString());
    }

    /** Each edit regenerated and compared with {@code base}: a row of the report, and what misses its goal. */
    private static void check(
            Generation.Output base, Path work, StringBuilder report, List<String> failures, WarmTlcPool warm)
            throws IOException, InterruptedException {
        Set<String> reached = base.graphs().keySet();
        for (Edit edit : EDITS) {
            Path copy = work.resolve(edit.name());
            copySpec(ROOT.resolve("spec"), copy.resolve("spec"));
            Path tla = copy.resolve("spec/Publication.tla");
            String text = Files.readString(tla);
            for (Change change : edit.changes()) {
                int at = text.indexOf(change.find());
                assertTrue(
                        at >= 0 && text.indexOf(change.find(), at + 1) < 0,
                        () ->
                                "edit "
                                        + edit.name()
                                        + " no longer applies to spec/Publication.tla: update GenerationLocalityTest");
                text = text.replace(change.find(), change.replace());
            }
            Files.writeString(tla, text);
            Locality l = Locality.compare(base, generate(copy, copy.resolve("run"), reached, warm));
            report.append(
                    String.format(
                            Locale.ROOT,
                            "| %s: %s | %d | %d / %d / %d | %d | %d | %d (+%d/-%d) | %d |%n",
                            edit.name(),
                            edit.meaning(),
                            l.crossing(),
                            l.keptChanged(),
                            l.added(),
                            l.removed(),
                            l.needless(),
                            l.renamed() + l.moved(),
                            l.linesChanged(),
                            l.linesAdded(),
                            l.linesRemoved(),
                            l.filesChanged()));
            if (l.renamed() + l.moved() > 0) {
                failures.add(edit.name() + ": " + l.renamed() + " scenarios renamed, " + l.moved() + " moved");
            }
            switch (edit.name()) {
                case "refactor" -> {
                    if (l.linesChanged() != 0) {
                        failures.add("refactor: " + l.linesChanged() + " lines changed, expected none");
                    }
                }
                case "fact" -> {
                    if (l.needless() != 0
                            || l.added() + l.removed() != 0
                            || l.linesChanged() > 2 * l.crossing()
                            || l.linesChanged() > 100) {
                        failures.add(
                                "fact: "
                                        + l
                                        + " (goal: only the crossing scenarios, at most two lines each, at most 100)");
                    }
                }
                case "rule" -> {
                    // outcomes change, so the cover below them moves (docs/generation.md); what stays
                    // bounded is the share of changed scenarios that cross nothing
                    int changed = l.keptChanged() + l.added() + l.removed();
                    if (l.crossing() == 0 || l.needless() * 20 > changed) {
                        failures.add(
                                "rule: "
                                        + l
                                        + " (goal: it crosses scenarios, and at most one changed scenario in"
                                        + " twenty crosses nothing)");
                    }
                }
                default -> throw new IllegalStateException("the edit " + edit.name() + " has no goal in this test");
            }
        }
    }

    /**
     * The rejection codes the edits touch. An edit of one code's reason or row changes only transitions that end in
     * that code, and every reachable transition is in some scenario (the cover takes every edge), so a model none of
     * whose scenarios has the code cannot change: the edits are regenerated on the models that have one, not on all
     * (each generation of all models costs about a minute of CI), and the figures are the same. The refactor changes no
     * model, which the staleness check (SpecModelsTest) shows for all of them.
     */
    static final List<String> EDITED_CODES = List.of("future_boundary", "null_block");

    static Set<String> modelsReaching(Generation.Output output, List<String> codes) {
        Set<String> models = new TreeSet<>();
        output.files()
                .forEach(
                        (file, text) -> {
                            if (codes.stream().anyMatch(code -> text.contains("code=" + code))) {
                                models.add(file.substring(0, file.indexOf('/')));
                            }
                        });
        return models;
    }

    private static Generation.Output restrict(Generation.Output output, Set<String> models) {
        Map<String, String> files = new TreeMap<>();
        output.files()
                .forEach(
                        (file, text) -> {
                            if (models.contains(file.substring(0, file.indexOf('/')))) {
                                files.put(file, text);
                            }
                        });
        Map<String, StateGraph> graphs = new TreeMap<>(output.graphs());
        graphs.keySet().retainAll(models);
        return new Generation.Output(files, output.summary(), graphs);
    }

    /** The edited spec's suite of {@code models}, TLC run in {@code warm}, which the edits share. */
    private static Generation.Output generate(Path root, Path runDir, Set<String> models, WarmTlcPool warm)
            throws IOException, InterruptedException {
        ModelCatalog catalog = ModelCatalog.of(root.resolve("spec"));
        List<Model> reached = catalog.generationModels().stream().filter(m -> models.contains(m.name())).toList();
        assertEquals(models.size(), reached.size(), () -> "generation models " + models + ", found " + reached);
        return Generation.build(GenerateCommand.sources(reached, root, runDir, 2), QUIET, warm);
    }

    private static void copySpec(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path path : walk.filter(p -> !from.relativize(p).toString().startsWith("states")).toList()) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target);
                }
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (Files.exists(root)) {
            try (Stream<Path> walk = Files.walk(root)) {
                for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }
}
