package io.proofgate.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.proofgate.graph.Edge;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The locally stable cover on random graphs: it takes every edge, each path is a walk from the initial state whose last
 * edge is reached by a shortest path, the result does not depend on fingerprints or edge order, and edits change only
 * the paths that cross them.
 */
class CanonicalCoverTest {

    private static CanonicalCover.Result cover(RandomGraphs g) {
        return CanonicalCover.cover(g.graph(), g.labels()::get);
    }

    private static Set<List<String>> words(RandomGraphs g, CanonicalCover.Result result) {
        Set<List<String>> all = new LinkedHashSet<>();
        result.paths().forEach(path -> all.add(g.words(path)));
        return all;
    }

    @Test
    void everyEdgeIsTakenByAWalkFromTheInitialStateThroughAShortestPath() {
        qt().withExamples(400)
                .forAll(longs().all())
                .checkAssert(
                        seed -> {
                            RandomGraphs g = RandomGraphs.of(seed, 9, seed % 3 == 0);
                            CanonicalCover.Result result = cover(g);
                            Map<Long, Integer> distance = distances(g);
                            Set<Edge> taken = new HashSet<>();
                            for (List<Edge> path : result.paths()) {
                                assertEquals(g.ids().getFirst(), path.getFirst().from(), "starts at the initial state");
                                for (int i = 1; i < path.size(); i++) {
                                    assertEquals(path.get(i - 1).to(), path.get(i).from(), "a walk");
                                }
                                assertEquals(
                                        distance.get(path.getLast().from()) + 1,
                                        path.size(),
                                        "shortest to its last edge");
                                taken.addAll(path);
                            }
                            assertEquals(new HashSet<>(g.graph().edges()), taken, "seed " + seed);
                            assertEquals(g.graph().edges().size(), result.edges());
                        });
    }

    @Test
    void noPathIsAPrefixOfAnother() {
        qt().withExamples(300)
                .forAll(longs().all())
                .checkAssert(
                        seed -> {
                            RandomGraphs g = RandomGraphs.of(seed, 8, false);
                            List<List<String>> paths = new ArrayList<>(words(g, cover(g)));
                            for (List<String> a : paths) {
                                for (List<String> b : paths) {
                                    assertTrue(
                                            a == b || a.size() >= b.size() || !b.subList(0, a.size()).equals(a),
                                            a + " prefixes " + b);
                                }
                            }
                        });
    }

    @Test
    void fingerprintsAndEdgeOrderDoNotMatter() {
        qt().withExamples(300)
                .forAll(longs().all())
                .checkAssert(
                        seed -> {
                            RandomGraphs g = RandomGraphs.of(seed, 9, seed % 2 == 0);
                            RandomGraphs other = g.renumbered(seed * 31 + 7);
                            assertEquals(List.copyOf(words(g, cover(g))), List.copyOf(words(other, cover(other))));
                        });
    }

    @Test
    void aNewEdgeToANewStateAddsItsPathAndDropsOnlyThePathItExtends() {
        qt().withExamples(300)
                .forAll(longs().all())
                .checkAssert(
                        seed -> {
                            RandomGraphs g = RandomGraphs.of(seed, 8, false);
                            int from = (int) Math.floorMod(seed, (long) g.ids().size());
                            RandomGraphs edited = g.withSinkEdge(from, "new");
                            Set<List<String>> before = words(g, cover(g));
                            Set<List<String>> after = words(edited, cover(edited));
                            List<String> toFrom = canonicalPath(g, g.ids().get(from));
                            List<String> added = new ArrayList<>(toFrom);
                            added.add("new");
                            Set<List<String>> expected = new LinkedHashSet<>(before);
                            expected.remove(toFrom); // a path ending where the new edge starts is now its prefix
                            expected.add(added);
                            assertEquals(expected, after, "seed " + seed);
                        });
    }

    @Test
    void relabellingAnEdgeOffTheTreeChangesOnlyItsOwnPath() {
        qt().withExamples(300)
                .forAll(longs().all())
                .checkAssert(
                        seed -> {
                            RandomGraphs g = RandomGraphs.of(seed, 8, false);
                            CanonicalCover.Result result = cover(g);
                            Set<Edge> last = new HashSet<>();
                            Set<Edge> inner = new HashSet<>();
                            for (List<Edge> path : result.paths()) {
                                last.add(path.getLast());
                                inner.addAll(path.subList(0, path.size() - 1));
                            }
                            for (Edge edge : last) {
                                if (inner.contains(edge)) {
                                    continue; // a tree edge: other paths go through it
                                }
                                RandomGraphs edited = g.relabelled(edge, "z");
                                Set<List<String>> before = words(g, result);
                                Set<List<String>> after = words(edited, cover(edited));
                                Set<List<String>> gone = new HashSet<>(before);
                                gone.removeAll(after);
                                Set<List<String>> come = new HashSet<>(after);
                                come.removeAll(before);
                                assertTrue(
                                        gone.size() <= 1 && come.size() == gone.size(),
                                        "seed " + seed + ": " + gone + " -> " + come);
                                return;
                            }
                        });
    }

    @Test
    void neverFewerPathsThanTheMinimumFlowWhichIsOptimalOnSmallGraphs() {
        qt().withExamples(200)
                .forAll(longs().all())
                .checkAssert(
                        seed -> {
                            RandomGraphs g = RandomGraphs.of(seed, 5, false);
                            if (g.graph().edges().size() > 9) {
                                return;
                            }
                            int minimum = PathCover.cover(g.graph()).paths().size();
                            assertEquals(bruteForceMinimum(g), minimum, "seed " + seed);
                            assertTrue(cover(g).paths().size() >= minimum);
                        });
    }

    @Test
    void twoEdgesWithOneLabelFromOneStateAreAnError() {
        RandomGraphs g = RandomGraphs.of(5, 6, false);
        Edge first = g.graph().edges().getFirst();
        Edge sibling = g.graph().outgoing(first.from()).stream().filter(e -> !e.equals(first)).findFirst().orElse(null);
        RandomGraphs twin =
                sibling != null
                        ? g.relabelled(sibling, g.labels().get(first))
                        : g.withSinkEdge(g.ids().indexOf(first.from()), g.labels().get(first));
        assertThrows(GenerationException.class, () -> cover(twin));
    }

    private static Map<Long, Integer> distances(RandomGraphs g) {
        Map<Long, Integer> distance = new HashMap<>();
        ArrayDeque<Long> queue = new ArrayDeque<>(List.of(g.ids().getFirst()));
        distance.put(g.ids().getFirst(), 0);
        while (!queue.isEmpty()) {
            long u = queue.poll();
            for (Edge e : g.graph().outgoing(u)) {
                if (distance.putIfAbsent(e.to(), distance.get(u) + 1) == null) {
                    queue.add(e.to());
                }
            }
        }
        return distance;
    }

    /** The least label sequence among the shortest paths to {@code target}, by brute force. */
    private static List<String> canonicalPath(RandomGraphs g, long target) {
        List<List<String>> best = new ArrayList<>();
        int length = distances(g).get(target);
        walks(g, g.ids().getFirst(), length, new ArrayList<>(), target, best);
        return best.stream()
                .min(
                        (a, b) -> {
                            for (int i = 0; i < a.size(); i++) {
                                int c = a.get(i).compareTo(b.get(i));
                                if (c != 0) {
                                    return c;
                                }
                            }
                            return 0;
                        })
                .orElseThrow();
    }

    private static void walks(
            RandomGraphs g, long at, int left, List<String> sofar, long target, List<List<String>> out) {
        if (left == 0) {
            if (at == target) {
                out.add(List.copyOf(sofar));
            }
            return;
        }
        for (Edge e : g.graph().outgoing(at)) {
            sofar.add(g.labels().get(e));
            walks(g, e.to(), left - 1, sofar, target, out);
            sofar.removeLast();
        }
    }

    /** The fewest paths from the initial state that take every edge, by trying every set of maximal walks. */
    private static int bruteForceMinimum(RandomGraphs g) {
        List<Set<Edge>> paths = new ArrayList<>();
        allPaths(g, g.ids().getFirst(), new ArrayList<>(), paths);
        Set<Edge> all = new HashSet<>(g.graph().edges());
        for (int k = 1; k <= all.size(); k++) {
            if (covers(paths, all, k, 0, new HashSet<>())) {
                return k;
            }
        }
        return all.size();
    }

    private static void allPaths(RandomGraphs g, long at, List<Edge> sofar, List<Set<Edge>> out) {
        if (!sofar.isEmpty()) {
            out.add(new HashSet<>(sofar));
        }
        for (Edge e : g.graph().outgoing(at)) {
            sofar.add(e);
            allPaths(g, e.to(), sofar, out);
            sofar.removeLast();
        }
    }

    private static boolean covers(List<Set<Edge>> paths, Set<Edge> all, int k, int from, Set<Edge> taken) {
        if (taken.containsAll(all)) {
            return true;
        }
        if (k == 0) {
            return false;
        }
        for (int i = from; i < paths.size(); i++) {
            Set<Edge> more = new HashSet<>(taken);
            more.addAll(paths.get(i));
            if (covers(paths, all, k - 1, i + 1, more)) {
                return true;
            }
        }
        return false;
    }
}
