package io.proofgate.audit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The symbolic links of a revision written into a folder of the audit's own, kept to that folder. A link is written as
 * a link, as git checks it out; but one that resolves outside the folder (an absolute target, {@code ..} past its root,
 * or through another link that does) would read whatever lies there: the other revision written beside it, or the
 * user's files. In a real checkout of the revision such a link reads nothing the commit holds, so here it dangles: its
 * target is put under a name that does not exist in its folder, and opening it fails as a dangling link does. A link
 * that resolves inside the folder, to a file or a folder, is kept as it is.
 */
public final class WrittenLinks {

    /**
     * The first component of a confined link's target. No revision may hold a file of this name next to a confined link
     * (checked), so the link can never resolve; its original target follows it, so that two links to different places
     * stay different.
     */
    public static final String OUTSIDE = ".proofgate-link-leaves-the-revision";

    /** Links followed in one resolution before it is taken for a loop, as Linux's own limit. */
    private static final int MAX_HOPS = 40;

    private WrittenLinks() {}

    /**
     * Makes every link among {@code links} (paths under {@code root}) that resolves outside {@code root} dangle.
     * Returns the links confined, as paths relative to {@code root}, sorted.
     */
    public static List<String> confine(Path root, List<Path> links) throws IOException {
        Path top = root.toRealPath();
        // all decided before any is changed: whether a link leaves depends on the others as written
        List<Path> leaving = new ArrayList<>();
        for (Path link : links) {
            if (leaves(top, top.resolve(root.relativize(link)))) {
                leaving.add(link);
            }
        }
        List<String> confined = new ArrayList<>();
        for (Path link : leaving) {
            String target = Files.readSymbolicLink(link).toString();
            if (Files.exists(link.resolveSibling(OUTSIDE), LinkOption.NOFOLLOW_LINKS)) {
                throw new AuditException(
                        root.relativize(link)
                                + ": the revision holds a file named "
                                + OUTSIDE
                                + " beside a link that leaves the revision; the audit reserves that name");
            }
            Files.delete(link);
            Files.createSymbolicLink(link, Path.of(OUTSIDE, target.startsWith("/") ? target.substring(1) : target));
            confined.add(root.relativize(link).toString());
        }
        return confined.stream().sorted().toList();
    }

    /** Whether {@code link} (under {@code top}, a real path) resolves to a place outside {@code top}. */
    static boolean leaves(Path top, Path link) throws IOException {
        return walk(top, link.getParent(), Files.readSymbolicLink(link), 0).kind() == Kind.LEAVES;
    }

    private enum Kind {
        INSIDE,
        LEAVES,
        ENDS
    }

    /** Where a walk got: a place inside {@code top} ({@code at}), outside it, or nowhere. */
    private record Walk(Kind kind, Path at) {
        static final Walk LEAVES = new Walk(Kind.LEAVES, null);
        static final Walk ENDS = new Walk(Kind.ENDS, null);
    }

    /**
     * Follows {@code target} from the folder {@code from} component by component, as the kernel does: LEAVES where it
     * steps outside {@code top}; ENDS where the links loop, or a component is missing and the rest stays inside; else
     * INSIDE, with the place it reached.
     */
    private static Walk walk(Path top, Path from, Path target, int hops) throws IOException {
        if (target.isAbsolute()) {
            return Walk.LEAVES;
        }
        Path at = from;
        for (int i = 0; i < target.getNameCount(); i++) {
            String name = target.getName(i).toString();
            if (!Files.isDirectory(at, LinkOption.NOFOLLOW_LINKS)) {
                return rest(top, at, target, i);
            }
            if (name.equals(".") || name.isEmpty()) {
                continue;
            }
            if (name.equals("..")) {
                if (at.equals(top)) {
                    return Walk.LEAVES;
                }
                at = at.getParent();
                continue;
            }
            Path next = at.resolve(name);
            if (Files.isSymbolicLink(next)) {
                if (hops >= MAX_HOPS) {
                    return Walk.ENDS;
                }
                Walk inner = walk(top, at, Files.readSymbolicLink(next), hops + 1);
                if (inner.kind() != Kind.INSIDE) {
                    return inner;
                }
                next = inner.at();
            } else if (!Files.exists(next, LinkOption.NOFOLLOW_LINKS)) {
                return rest(top, at, target, i);
            }
            at = next;
        }
        return new Walk(Kind.INSIDE, at);
    }

    /**
     * A walk stopped at component {@code i}, which does not exist yet (or is a file taken for a folder). It cannot
     * resolve now; but an adapter may make that folder as it runs (a cache of compiled code), so the rest is read as it
     * would then go: one that climbs out of {@code top} leaves.
     */
    private static Walk rest(Path top, Path at, Path target, int i) {
        // folders below top (top relativized to itself is the empty path, which still counts one name)
        int depth = at.equals(top) ? 0 : top.relativize(at).getNameCount();
        for (int k = i; k < target.getNameCount(); k++) {
            String name = target.getName(k).toString();
            if (name.equals("..")) {
                if (depth == 0) {
                    return Walk.LEAVES; // out of top, even where a later name would lead back in
                }
                depth--;
            } else if (!name.equals(".") && !name.isEmpty()) {
                depth++;
            }
        }
        return Walk.ENDS;
    }
}
