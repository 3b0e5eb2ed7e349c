package io.proofgate.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.namespace.NamespaceImpact;
import io.proofgate.namespace.NamespaceProbes;
import io.proofgate.namespace.ReferenceNamespace;
import io.proofgate.replay.Replay;
import io.proofgate.replay.ReplayException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The spec audit reaches another revision's validator by name: replay's entry point, and the page store's methods that
 * the snapshot probe calls. A rename here that the audit follows would break the audit of every revision from before
 * the rename, and nothing else would notice. So this test drives a revision of this repository from before the
 * protocol's words had a module of their own through exactly the audit's paths ({@link RevisionValidator}, {@link
 * NamespaceVectors}), read from the repository's own history as the audit reads any revision.
 */
class PinnedRevisionTest {

    /** A commit of this repository's history: its validator is the whole of its sources (no words module). */
    static final String PINNED = "4b248ea62ba205093681e8e9985744f0fabbc4be";

    /** What {@code proofgate replay} of this build prints for {@code log}, "error: ..." ending a refused one. */
    private static String replayHere(String log) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            Replay.run(new ByteArrayInputStream(log.getBytes(StandardCharsets.UTF_8)), "log", out);
            return out.toString(StandardCharsets.UTF_8);
        } catch (ReplayException e) {
            return out.toString(StandardCharsets.UTF_8) + "error: " + e.getMessage() + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void anOlderRevisionIsDrivenThroughTheAuditsCalls(@TempDir Path dir) throws Exception {
        GitRepository repository = GitRepository.at(AuditFixtures.ROOT);
        Path pinned = dir.resolve("pinned");
        repository.export(repository.commit(PINNED), Revision.VALIDATOR, pinned);
        assertTrue(Files.isDirectory(pinned.resolve("validator/src/main/java")), "the pinned commit has a validator");
        assertTrue(Files.notExists(pinned.resolve("words")), "the pinned commit is from before the words module");
        try (RevisionValidator old = RevisionValidator.load(pinned, dir.resolve("cache"), "pinned")) {
            String log = Files.readString(AuditFixtures.ROOT.resolve("examples/hybrid-session.jsonl"));
            String replayed = old.replay(log);
            assertTrue(replayed.contains("{\"kind\":\"plan\"") && replayed.contains("{\"kind\":\"summary\""), replayed);
            assertEquals(replayHere(log), replayed);
            List<Map<String, String>> before = NamespaceVectors.of(old);
            // today's answers from the running validator, reached as the audit reaches a revision's
            List<? extends Map<String, String>> after =
                    new ReferenceNamespace(
                                    PinnedRevisionTest::replayHere,
                                    name -> Class.forName(name, true, PinnedRevisionTest.class.getClassLoader()))
                            .answerAll(NamespaceProbes.v1());
            // every snapshot answer is computed through the store's methods, not a refusal of its API
            List<String> snapshots =
                    before.stream()
                            .filter(a -> a.containsKey("snapshot"))
                            .map(a -> NamespaceImpact.shown(a.get("snapshot")))
                            .toList();
            assertEquals(5, snapshots.size());
            snapshots.forEach(s -> assertTrue(s.matches("bytes=\\d+ sha256=[0-9a-f]{64}"), s));
            // and the namespace has not changed since: the same answer to every probe
            assertEquals(after, before);
        }
    }
}
