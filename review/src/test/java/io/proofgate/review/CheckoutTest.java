package io.proofgate.review;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.audit.GitRepository;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Which files a connector change touches: two commits are compared by their blob ids, and that must name exactly the
 * files a comparison of the written bytes names (the working tree's way).
 */
class CheckoutTest {

    @TempDir Path repo;
    @TempDir Path work;

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
        assertTrue(
                repo.resolve("mode.sh")
                        .toFile()
                        .setExecutable(true)); // a mode alone changes no byte, so no file a finding is located at
        git("add", "-A");
        git("update-index", "--chmod=+x", "mode.sh"); // where the file system keeps no modes
        git("-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-qm", "head");

        GitRepository repository = GitRepository.at(repo);
        Checkout base = Checkout.of(repository, "HEAD~1", work.resolve("base"));
        Checkout head = Checkout.of(repository, "HEAD", work.resolve("head"));
        assertNotNull(base.blobs());
        assertTrue(
                Files.isExecutable(head.dir().resolve("mode.sh")) && !Files.isExecutable(base.dir().resolve("mode.sh")),
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

    /**
     * Links that leave the revision's folder dangle, as they do in a real checkout of the revision: one into the other
     * revision written beside it, one past the repository's root, an absolute one, and one that leaves through another
     * link. Links within the revision, to a file or a folder, resolve.
     */
    @Test
    void linksThatLeaveTheRevisionDangle() throws Exception {
        write("conn/toy.py", "base\n");
        write("lib/util.py", "util\n");
        Path outside = Files.createTempFile("proofgate-outside-", ".txt");
        Files.writeString(outside, "the user's file\n");
        link("conn/other.py", "../../base/conn/toy.py");
        link("conn/up.py", "../../../" + outside.getFileName());
        link("conn/absolute.py", outside.toString());
        link("conn/libs", "../lib");
        link("conn/escape", "..");
        link("conn/through.py", "escape/../base/conn/toy.py");
        link("conn/missing.py", "nothing/../../../base/conn/toy.py");
        git("init", "-q");
        git("add", "-A");
        git("-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-qm", "links");
        try {
            GitRepository repository = GitRepository.at(repo);
            Checkout base = Checkout.of(repository, "HEAD", work.resolve("base"));
            for (Checkout head :
                    List.of(
                            Checkout.of(repository, "HEAD", work.resolve("head")),
                            Checkout.of(repository, null, work.resolve("worktree")))) {
                Path dir = head.dir();
                assertEquals("base\n", Files.readString(base.dir().resolve("conn/toy.py")));
                for (String leaving :
                        List.of(
                                "conn/other.py",
                                "conn/up.py",
                                "conn/absolute.py",
                                "conn/through.py",
                                "conn/missing.py")) {
                    Path link = dir.resolve(leaving);
                    assertTrue(Files.isSymbolicLink(link), leaving + " is not a link in " + head.name());
                    assertFalse(
                            Files.exists(link), () -> leaving + " resolves in " + head.name() + ": " + realPath(link));
                }
                assertTrue(Files.isSymbolicLink(dir.resolve("conn/libs")), "a linked folder is kept as a link");
                assertEquals("util\n", Files.readString(dir.resolve("conn/libs/util.py")), "a linked folder resolves");
                assertEquals(
                        "util\n",
                        Files.readString(dir.resolve("conn/escape/lib/util.py")),
                        "a link to the revision's root resolves");
            }
            assertEquals(
                    List.of(),
                    Checkout.changed(base.dir(), work.resolve("worktree")),
                    "links are compared by their targets, the same at both");
        } finally {
            Files.delete(outside);
        }
    }

    /** The audit reads the working tree with git's plumbing, optional locks off: the user's index keeps its bytes. */
    @Test
    void theUsersIndexIsNeverWritten() throws Exception {
        write("a.py", "one\n");
        git("init", "-q");
        git("add", "-A");
        git("-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-qm", "base");
        // a newer modification time with the same bytes: git status would refresh the index's stat data
        Files.setLastModifiedTime(
                repo.resolve("a.py"), java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 60_000));
        write("b.py", "untracked\n");
        byte[] index = Files.readAllBytes(repo.resolve(".git/index"));
        Checkout head = Checkout.of(GitRepository.at(repo), null, work.resolve("head"));
        assertEquals(List.of("b.py"), head.uncommitted());
        assertArrayEquals(index, Files.readAllBytes(repo.resolve(".git/index")), "the index was rewritten");
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

    private static String realPath(Path link) {
        try {
            return link.toRealPath().toString();
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }

    private void link(String name, String target) throws Exception {
        Path file = repo.resolve(name);
        Files.createDirectories(file.getParent());
        Files.createSymbolicLink(file, Path.of(target));
    }

    private void git(String... args) throws Exception {
        GitCommand.run(repo, args);
    }
}
