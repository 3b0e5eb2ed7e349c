package io.proofgate.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A small git repository built by the tests: the project's own spec and validator sources as the first commit, and one
 * commit per reference change on top of it, each made of exact text edits that must apply once. The changes are the
 * kinds a reviewer meets (docs/audit.md), kept here as edits rather than as branches, so that they follow the spec as
 * it evolves or fail loudly.
 */
final class AuditFixtures {

    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** One text change of one file: {@code find} must occur {@code times} times. */
    record Change(String file, String find, String replace, int times) {
        Change(String file, String find, String replace) {
            this(file, find, replace, 1);
        }
    }

    static final String SPEC = "spec/Publication.tla";
    static final String RULES = "validator/src/main/java/io/proofgate/protocol/EvidenceRules.java";
    static final String TOPOLOGY = "validator/src/main/java/io/proofgate/protocol/Topology.java";

    /** No behaviour change: a definition written another way. */
    static final List<Change> REFACTOR =
            List.of(new Change(SPEC, "IsFuture(bd, S) == bd > S", "IsFuture(bd, S) == ~(bd <= S)"));

    /**
     * The connector before the seed's first change: a well-formed entry below the target is rejected as future_boundary
     * (the seed made it intermediate evidence, ignored). The rule that states the row changes with it.
     */
    static final List<Change> BELOW_TARGET_REJECTED =
            List.of(
                    new Change(
                            SPEC,
                            "ELSE IF IsFuture(e[3], S) THEN \"future_boundary\"",
                            "ELSE IF IsFuture(e[3], S) \\/ IsIntermediate(e[3], S) THEN \"future_boundary\""),
                    new Change(
                            SPEC,
                            "[] row = \"future_boundary\" -> e[3] > S",
                            "[] row = \"future_boundary\" -> e[3] # S"));

    /** Before the seed's reason change: a future_boundary rejection does not name the group and the block. */
    static final List<Change> FUTURE_REASON_WITHOUT_GROUP =
            List.of(
                    new Change(
                            SPEC,
                            "[observed |-> e[3], group |-> e[1], block |-> e[2], entry |-> i - 1] @@",
                            "(IF c = \"future_boundary\" THEN [observed |-> e[3], entry |-> i - 1]"
                                    + " ELSE [observed |-> e[3], group |-> e[1], block |-> e[2], entry |-> i - 1]) @@",
                            2));

    /** A validator change with no spec change: two exact entries naming the same block are accepted. */
    static final List<Change> SAME_BLOCK_DUPLICATE_ACCEPTED =
            List.of(new Change(RULES, "if (exact[group] != 0) {", "if (exact[group] != 0 && exact[group] != block) {"));

    /** The span rule changed in the spec and in the validator: the largest multiple at or below the prompt's end. */
    static final List<Change> SPAN_AT_OR_BELOW =
            List.of(
                    new Change(
                            SPEC,
                            "TargetOf == [r \\in Req |-> ((PromptOf[r] - 1) \\div HashBlock) * HashBlock]",
                            "TargetOf == [r \\in Req |-> (PromptOf[r] \\div HashBlock) * HashBlock]"),
                    new Change(
                            SPEC,
                            "Target(x) < PromptOf[x] /\\ PromptOf[x] <= Target(x) + HashBlock",
                            "Target(x) <= PromptOf[x] /\\ PromptOf[x] < Target(x) + HashBlock"),
                    new Change(
                            TOPOLOGY,
                            "return Math.floorDiv(promptTokens - 1, hashBlockSize) * hashBlockSize;",
                            "return Math.floorDiv(promptTokens, hashBlockSize) * hashBlockSize;"));

    /**
     * vLLM's producer before it went back to the exact-stop rule: a cache_blocks call that crosses a boundary is taken
     * to produce the boundary block (docs/spec.md, "vLLM's proof producer").
     */
    static final List<Change> CROSSING_PRODUCER =
            List.of(
                    new Change(
                            SPEC,
                            "ProducesBoundary(d0, d1, bd) == d1 = bd",
                            "ProducesBoundary(d0, d1, bd) == d0 < bd /\\ bd <= d1"));

    static final String HOST_STORE = "validator/src/main/java/io/proofgate/store/HostPageStore.java";

    /**
     * The snapshot's byte layout changed: layers in reverse order. Gather and scatter change together, so every round
     * trip of the store still holds; only the bytes of a published snapshot (what a later request restores) differ.
     */
    static final List<Change> SNAPSHOT_LAYERS_REVERSED =
            List.of(
                    new Change(
                            HOST_STORE,
                            "MemorySegment pool = pools[g];\n"
                                    + "            for (int layer = 0; layer < geometry.layers(); layer++) {",
                            "MemorySegment pool = pools[g];\n"
                                    + "            for (int layer = geometry.layers() - 1; layer >= 0; layer--) {"));

    private final Path dir;

    private AuditFixtures(Path dir) {
        this.dir = dir;
    }

    /** A fresh repository under the module's target/ whose first commit is the project's spec and validator. */
    static AuditFixtures create(String name) throws IOException, InterruptedException {
        Path dir = ROOT.resolve("review/target/audit-fixtures").resolve(name);
        io.proofgate.check.FileTree.delete(dir);
        Files.createDirectories(dir);
        AuditFixtures fixtures = new AuditFixtures(dir);
        fixtures.git("init", "-q");
        copy(ROOT.resolve("spec"), dir.resolve("spec"));
        for (String sources : Revision.VALIDATOR) {
            copy(ROOT.resolve(sources), dir.resolve(sources));
        }
        Files.writeString(dir.resolve(".gitignore"), "target/\n");
        fixtures.commit("the project as it is");
        return fixtures;
    }

    Path dir() {
        return dir;
    }

    /** The current commit. */
    String head() throws IOException, InterruptedException {
        return git("rev-parse", "HEAD").strip();
    }

    /** Starts from {@code commit}, applies the changes and commits them; the new commit. */
    String commitOn(String commit, String message, List<Change> changes) throws IOException, InterruptedException {
        git("checkout", "-q", "--detach", commit);
        apply(changes);
        return commit(message);
    }

    /** Writes (or replaces) a file and commits it on top of {@code commit}. */
    String commitFile(String commit, String file, String text, String message)
            throws IOException, InterruptedException {
        git("checkout", "-q", "--detach", commit);
        Files.createDirectories(dir.resolve(file).getParent());
        Files.writeString(dir.resolve(file), text);
        return commit(message);
    }

    /** Deletes a folder and commits that on top of {@code commit}. */
    String commitWithout(String commit, String folder, String message) throws IOException, InterruptedException {
        git("checkout", "-q", "--detach", commit);
        git("rm", "-q", "-r", folder);
        return commit(message);
    }

    void apply(List<Change> changes) throws IOException {
        for (Change change : changes) {
            Path file = dir.resolve(change.file());
            String text = Files.readString(file);
            int count = 0;
            for (int at = text.indexOf(change.find()); at >= 0; at = text.indexOf(change.find(), at + 1)) {
                count++;
            }
            assertEquals(
                    change.times(),
                    count,
                    () ->
                            "the fixture edit \""
                                    + change.find()
                                    + "\" no longer applies to "
                                    + change.file()
                                    + ": update AuditFixtures");
            Files.writeString(file, text.replace(change.find(), change.replace()));
        }
    }

    String commit(String message) throws IOException, InterruptedException {
        git("add", "-A");
        git(
                "-c",
                "user.name=proofgate tests",
                "-c",
                "user.email=tests@proofgate.invalid",
                "-c",
                "commit.gpgsign=false",
                "commit",
                "-q",
                "-m",
                message);
        return head();
    }

    String git(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-C", dir.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = process.waitFor();
        assertTrue(exit == 0 || args[0].equals("merge"), () -> "git " + String.join(" ", args) + " failed: " + output);
        return output;
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path source : walk.sorted().toList()) {
                String relative = from.relativize(source).toString();
                if (relative.startsWith("states")) {
                    continue; // TLC's leftovers of a local run
                }
                Path target = to.resolve(relative);
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        }
    }
}
