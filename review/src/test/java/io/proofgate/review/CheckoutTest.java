package io.proofgate.review;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.audit.GitRepository;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which files a connector change touches: two commits are compared by their blob ids, and that
 * must name exactly the files a comparison of the written bytes names (the working tree's way).
 */
class CheckoutTest {

    @TempDir
    Path repo;
    @TempDir
    Path work;

    @Test
    void twoCommitsAreComparedByBlobIdsAsTheirBytesWouldBe() throws Exception {
        write("same.py", "unchanged\n");
        write("changed.py", "before\n");
        write("removed.py", "gone at the head\n");
        write("mode.sh", "#!/bin/sh\n");
        write("dir/deep.txt", "deep\n");
        git("init", "-q");
        git("add", "-A");
        git("-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-qm", "base");
        write("changed.py", "after\n");
        write("added.py", "new at the head\n");
        write("dir/deep.txt", "deeper\n");
        Files.delete(repo.resolve("removed.py"));
        assertTrue(repo.resolve("mode.sh").toFile().setExecutable(true)); // a mode alone changes no byte, so no file a finding is located at
        git("add", "-A");
        git("update-index", "--chmod=+x", "mode.sh"); // where the file system keeps no modes
        git("-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-qm", "head");

        GitRepository repository = GitRepository.at(repo);
        Checkout base = Checkout.of(repository, "HEAD~1", work.resolve("base"));
        Checkout head = Checkout.of(repository, "HEAD", work.resolve("head"));
        assertNotNull(base.blobs());
        assertTrue(Files.isExecutable(head.dir().resolve("mode.sh")) && !Files.isExecutable(base.dir().resolve("mode.sh")),
                "the mode changed");
        List<String> expected = List.of("added.py", "changed.py", "dir/deep.txt", "removed.py");
        assertEquals(expected, Checkout.changed(base.dir(), head.dir()), "by the bytes written");
        assertEquals(expected, Checkout.changed(base, head), "by blob ids");
        assertEquals("new at the head\n", Files.readString(head.dir().resolve("added.py")));
    }

    /** As git checks it out: an adapter that reads its configuration through a link reads the revision's. */
    @Test
    void aCommittedSymbolicLinkIsWrittenAsALink() throws Exception {
        write("cfg/modes", "slidebug\n");
        Files.createDirectories(repo.resolve("adapter"));
        Files.createSymbolicLink(repo.resolve("adapter/modes.txt"), Path.of("../cfg/modes"));
        git("init", "-q");
        git("add", "-A");
        git("-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-qm", "a link");

        Checkout written = Checkout.of(GitRepository.at(repo), "HEAD", work.resolve("head"));
        Path link = written.dir().resolve("adapter/modes.txt");
        assertTrue(Files.isSymbolicLink(link), "a file holding the link's target was written instead");
        assertEquals(Path.of("../cfg/modes"), Files.readSymbolicLink(link));
        assertEquals("slidebug\n", Files.readString(link));
    }

    @Test
    void theWorkingTreeIsComparedByItsBytes() throws Exception {
        write("a.py", "one\n");
        git("init", "-q");
        git("add", "-A");
        git("-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-qm", "base");
        write("a.py", "two\n");
        GitRepository repository = GitRepository.at(repo);
        Checkout base = Checkout.of(repository, "HEAD", work.resolve("base"));
        Checkout head = Checkout.of(repository, null, work.resolve("head"));
        assertNull(head.blobs(), "uncommitted files have no blob id");
        assertEquals(List.of("a.py"), Checkout.changed(base, head));
    }

    private void write(String name, String text) throws Exception {
        Path file = repo.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private void git(String... args) throws Exception {
        GitCommand.run(repo, args);
    }
}
