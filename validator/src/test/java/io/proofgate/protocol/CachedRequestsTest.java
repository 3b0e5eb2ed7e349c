package io.proofgate.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

/** The flat form holds exactly the requests it was given, however many groups and blocks each has. */
class CachedRequestsTest {

    /** A request from a list of small numbers: its groups are the runs between zeros. */
    private static Event.CachedRequest request(int index, List<Integer> shape) {
        List<long[]> groups = new ArrayList<>();
        List<Long> current = new ArrayList<>();
        for (int value : shape) {
            if (value == 0) {
                groups.add(current.stream().mapToLong(Long::longValue).toArray());
                current.clear();
            } else {
                current.add((long) value * 1_000 + index);
            }
        }
        return new Event.CachedRequest(
                "r" + index, index * 7L, shape.size(), new BlockIds(groups.toArray(long[][]::new)), index % 3 == 0);
    }

    @Test
    void holdsEveryRequestAsGiven() {
        qt().withExamples(1_000)
                .forAll(lists().of(lists().of(integers().between(0, 5)).ofSizeBetween(0, 12)).ofSizeBetween(0, 20))
                .checkAssert(
                        shapes -> {
                            List<Event.CachedRequest> requests = new ArrayList<>();
                            for (int i = 0; i < shapes.size(); i++) {
                                requests.add(request(i, shapes.get(i)));
                            }
                            CachedRequests flat = CachedRequests.of(requests);
                            assertEquals(requests, flat);
                            assertEquals(requests, new ArrayList<>(flat));
                            for (int i = 0; i < requests.size(); i++) {
                                Event.CachedRequest r = requests.get(i);
                                assertEquals(r.id(), flat.id(i));
                                assertEquals(r.computed(), flat.computed(i));
                                assertEquals(r.scheduled(), flat.scheduled(i));
                                assertEquals(r.resumed(), flat.resumed(i));
                                assertEquals(r.newBlockIds().groupCount(), flat.groupCount(i));
                                for (int g = 0; g < flat.groupCount(i); g++) {
                                    long[] expected = r.newBlockIds().byGroup()[g];
                                    assertEquals(expected.length, flat.blockCount(i, g));
                                    long[] copied = new long[expected.length + 2];
                                    flat.copyBlocks(i, g, copied, 2);
                                    assertArrayEquals(expected, java.util.Arrays.copyOfRange(copied, 2, copied.length));
                                }
                            }
                            assertSame(flat, CachedRequests.of(flat));
                        });
    }

    @Test
    void aReusedBuilderLeavesWhatItBuiltAlone() {
        CachedRequests.Builder builder = new CachedRequests.Builder();
        builder.startList();
        builder.addBlock(11);
        builder.endRequest("a", 0, 1, false);
        CachedRequests first = builder.build();
        builder.startList();
        builder.addBlock(99);
        builder.addBlock(98);
        builder.endRequest("b", 5, 6, true);
        builder.startList(); // lists of a request that never ended are not part of what is built
        builder.addBlock(7);
        CachedRequests second = builder.build();
        assertEquals(List.of(new Event.CachedRequest("a", 0, 1, new BlockIds(new long[] {11}), false)), first);
        assertEquals(List.of(new Event.CachedRequest("b", 5, 6, new BlockIds(new long[] {99, 98}), true)), second);
        assertEquals("a", first.id(0));
        assertEquals("b", second.id(0));
    }

    @Test
    void openListsTakenAsATableAreDroppedFromTheBuilder() {
        CachedRequests.Builder builder = new CachedRequests.Builder();
        builder.startList();
        builder.addBlock(1);
        builder.startList();
        assertEquals(new BlockIds(new long[] {1}, new long[0]), builder.takeOpenLists());
        builder.startList();
        builder.addBlock(2);
        builder.endRequest("c", 0, 0, false);
        assertEquals(List.of(new Event.CachedRequest("c", 0, 0, new BlockIds(new long[] {2}), false)), builder.build());
    }
}
