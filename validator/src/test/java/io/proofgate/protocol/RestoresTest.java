package io.proofgate.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.words.GroupPolicy;

import org.junit.jupiter.api.Test;

import java.util.List;

/**
 * The reference connector's restore half (protocol §3, "Restore rules"), rule by rule: its hit is the longest prefix it
 * published that the prompt extends, on every recurrent group's grid, strictly below the prompt's end and beyond vLLM's
 * own tokens; its load names the request's own blocks; a restore vLLM cannot have been answered is an event it cannot
 * be sent.
 */
class RestoresTest {

    /** Full attention of 1024-token blocks, recurrent groups of 1024 and 2048: a grid of 2048 tokens. */
    private static final Topology TOPOLOGY =
            Topology.of(
                    new Group(0, GroupPolicy.FULL, 1024, 0),
                    new Group(1, GroupPolicy.RECURRENT_ALIGN, 1024, 0),
                    new Group(2, GroupPolicy.RECURRENT_ALIGN, 2048, 0));

    private final Connector connector = new Connector(TOPOLOGY, true);

    private static BlockIds blocks(long[]... groups) {
        return new BlockIds(groups);
    }

    /** Publishes prefix {@code digest} at {@code target} (a prompt of target + 8 tokens) through a proof. */
    private void publish(String id, String digest, long target, long step) {
        int columns1 = (int) (target / 1024);
        int columns2 = (int) (target / 2048);
        long[] full = new long[columns1];
        for (int i = 0; i < columns1; i++) {
            full[i] = 100 * step + i + 1;
        }
        RawValue proof =
                new RawValue.MapOf(
                        java.util.Map.of(
                                id,
                                new RawValue.ListOf(
                                        List.of(
                                                new RawValue.ListOf(
                                                        List.of(
                                                                new RawValue.Int(1),
                                                                new RawValue.Int(100 * step + 50),
                                                                new RawValue.Int(target))),
                                                new RawValue.ListOf(
                                                        List.of(
                                                                new RawValue.Int(2),
                                                                new RawValue.Int(100 * step + 60),
                                                                new RawValue.Int(target)))))));
        connector.apply(
                new Event.Step(
                        step,
                        List.of(
                                new Event.NewRequest(
                                        id,
                                        digest,
                                        target + 8,
                                        0,
                                        target,
                                        blocks(full, new long[columns1], new long[columns2]))),
                        List.of(),
                        List.of(),
                        proof));
        List<Verdict> verdicts =
                connector.apply(
                        new Event.Step(
                                step + 1,
                                List.of(),
                                List.of(
                                        new Event.CachedRequest(
                                                id, target, 8, blocks(new long[0], new long[0], new long[0]), false)),
                                List.of(),
                                RawValue.ABSENT));
        assertTrue(verdicts.getFirst() instanceof Verdict.Plan, verdicts::toString);
    }

    private long hit(String id, String digest, long prompt, long computed) {
        List<Verdict> verdicts = connector.apply(new Event.Lookup(id, digest, prompt, computed));
        assertEquals(1, verdicts.size());
        return ((Verdict.Hit) verdicts.getFirst()).tokens();
    }

    @Test
    void theHitIsTheLongestPublishedPrefixOnTheGridBelowThePromptsEnd() {
        publish("r1", "d1", 2048, 1);
        publish("r2", "d1", 4096, 3);
        publish("r3", "d1", 5120, 5); // off the grid of 2048: never a hit
        assertEquals(4096, hit("a", "d1", 9000, 0), "the longest on the grid");
        assertEquals(2048, hit("b", "d1", 4096, 0), "4096 is the whole prompt: the last token would be applied twice");
        assertEquals(2048, hit("c", "d1", 4097, 2048), "beyond vLLM's own 2048 tokens");
        assertEquals(0, hit("d", "d1", 9000, 4096), "vLLM has it all");
        assertEquals(0, hit("e", "d2", 9000, 0), "another prefix");
    }

    @Test
    void theLoadNamesTheRequestsBlocksFromVllmsTokensToTheHit() {
        publish("r1", "d1", 4096, 1);
        assertEquals(2048, hit("r2", "d1", 6000, 2048));
        List<Verdict> verdicts =
                connector.apply(
                        new Event.Step(
                                3,
                                List.of(
                                        new Event.NewRequest(
                                                "r2",
                                                "d1",
                                                6000,
                                                4096,
                                                1904,
                                                blocks(
                                                        new long[] {71, 72, 73, 74, 75, 76},
                                                        new long[] {0, 0, 0, 84, 85, 86},
                                                        new long[] {0, 92, 93}),
                                                2048)),
                                List.of(),
                                List.of(),
                                RawValue.ABSENT));
        Verdict.Load load = (Verdict.Load) verdicts.getFirst();
        assertEquals("d1", load.digest());
        assertEquals(4096, load.restored());
        // full: columns 2 and 3 (tokens 2048 to 4096); recurrent: the block at the hit's column in each group
        assertArrayEquals(new long[][] {{73, 74}, {84}, {92}}, load.blocksByGroup().byGroup());
    }

    @Test
    void externalTokensOtherThanTheHitAreEventsNoSchedulerSends() {
        publish("r1", "d1", 4096, 1);
        assertEquals(4096, hit("r2", "d1", 6000, 0));
        long[][] table = {{71, 72, 73, 74, 75, 76}, {81, 82, 83, 84, 85, 86}, {91, 92, 93}};
        InvalidEventException other =
                assertThrows(
                        InvalidEventException.class,
                        () ->
                                connector.apply(
                                        new Event.Step(
                                                3,
                                                List.of(
                                                        new Event.NewRequest(
                                                                "r2", "d1", 6000, 2048, 3952, blocks(table), 2048)),
                                                List.of(),
                                                List.of(),
                                                RawValue.ABSENT)));
        assertEquals(
                "new request \"r2\" has computed 2048 with 2048 external tokens, where its lookup had computed 0 and"
                        + " the connector's hit was 4096 tokens",
                other.getMessage());
        InvalidEventException none =
                assertThrows(
                        InvalidEventException.class,
                        () ->
                                connector.apply(
                                        new Event.Step(
                                                3,
                                                List.of(
                                                        new Event.NewRequest(
                                                                "r9", "d1", 6000, 4096, 1904, blocks(table), 4096)),
                                                List.of(),
                                                List.of(),
                                                RawValue.ABSENT)));
        assertEquals("new request \"r9\" has 4096 external tokens, and no lookup of it came before", none.getMessage());
        // a finish ends the lookup: a step after it restores nothing
        connector.apply(new Event.Finished("r2"));
        assertThrows(
                InvalidEventException.class,
                () ->
                        connector.apply(
                                new Event.Step(
                                        3,
                                        List.of(
                                                new Event.NewRequest(
                                                        "r2", "d1", 6000, 4096, 1904, blocks(table), 4096)),
                                        List.of(),
                                        List.of(),
                                        RawValue.ABSENT)));
    }

    @Test
    void aConnectorOfTheStoreHalfOnlyIsSentNoLookup() {
        Connector storeOnly = new Connector(TOPOLOGY);
        assertThrows(InvalidEventException.class, () -> storeOnly.apply(new Event.Lookup("r1", "d1", 6000, 0)));
    }
}
