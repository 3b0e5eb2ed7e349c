package io.proofgate.protocol;

import static io.proofgate.protocol.Events.blocks;
import static io.proofgate.protocol.Events.cached;
import static io.proofgate.protocol.Events.cachedStep;
import static io.proofgate.protocol.Events.evidence;
import static io.proofgate.protocol.Events.ids;
import static io.proofgate.protocol.Events.integer;
import static io.proofgate.protocol.Events.list;
import static io.proofgate.protocol.Events.mapping;
import static io.proofgate.protocol.Events.newRequest;
import static io.proofgate.protocol.Events.newStep;
import static io.proofgate.protocol.Events.resumed;
import static io.proofgate.protocol.Events.seedTopology;
import static io.proofgate.protocol.Events.step;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.words.GroupPolicy;
import io.proofgate.words.PoisonCode;
import io.proofgate.words.RetireCause;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One test per row of protocol §3's decision table and per step rule. */
class ConnectorTest {

    private static final RawValue NO_EVIDENCE = RawValue.ABSENT;

    private final Connector connector = new Connector(seedTopology());

    /**
     * The new-request step of r1 (prompt 6992, target 6912) with 4608 tokens computed, so a later step can reach the
     * target.
     */
    private List<Verdict> firstStep(RawValue evidence) {
        return connector.apply(
                newStep(1, newRequest("r1", "d1", 6992, 0, 4608, blocks(ids(11, 12), ids(0, 71))), evidence));
    }

    /** The cached step that reaches r1's target. */
    private List<Verdict> reachTarget(long step, RawValue evidence) {
        return connector.apply(cachedStep(step, cached("r1", 4608, 2304, blocks(ids(13), ids())), evidence));
    }

    private List<GroupBlock> latch() {
        return connector.state().pending().get("r1").latch();
    }

    private static Verdict.Rejected onlyRejection(List<Verdict> verdicts, PoisonCode code) {
        assertEquals(1, verdicts.size(), verdicts::toString);
        Verdict.Rejected rejected = assertInstanceOf(Verdict.Rejected.class, verdicts.getFirst());
        assertEquals(code, rejected.code(), rejected::reason);
        return rejected;
    }

    private static Verdict.Plan onlyPlan(List<Verdict> verdicts) {
        assertEquals(1, verdicts.size(), verdicts::toString);
        return assertInstanceOf(Verdict.Plan.class, verdicts.getFirst());
    }

    @Nested
    class EvidenceRows {

        @Test
        void fieldAbsentOrNull_keepsLatchWithoutPoison() {
            firstStep(evidence("r1", ids(1, 42, 6912)));
            assertEquals(
                    List.of(),
                    connector.apply(cachedStep(2, cached("r1", 4608, 1, blocks(ids(), ids())), NO_EVIDENCE)));
            assertEquals(
                    List.of(),
                    connector.apply(cachedStep(3, cached("r1", 4609, 1, blocks(ids(), ids())), RawValue.NULL)));
            assertEquals(List.of(new GroupBlock(1, 42)), latch());
            assertEquals(0, connector.counters().rejected());
        }

        @ParameterizedTest
        @ValueSource(strings = {"text", "int", "list", "bool", "real"})
        void fieldNotAMapping_poisonsNotAMapping(String kind) {
            RawValue field =
                    switch (kind) {
                        case "text" -> new RawValue.Text("r1");
                        case "int" -> integer(7);
                        case "list" -> list(integer(1), integer(42), integer(6912));
                        case "bool" -> new RawValue.Bool(true);
                        default -> new RawValue.Real(1.5);
                    };
            onlyRejection(firstStep(field), PoisonCode.NOT_A_MAPPING);
            assertTrue(connector.state().pending().isEmpty());
        }

        @Test
        void noKeyOrNullValue_keepsLatch() {
            firstStep(evidence("r1", ids(1, 42, 6912)));
            assertEquals(
                    List.of(),
                    connector.apply(
                            cachedStep(
                                    2, cached("r1", 4608, 1, blocks(ids(), ids())), evidence("r2", ids(1, 99, 6912)))));
            assertEquals(
                    List.of(),
                    connector.apply(
                            cachedStep(3, cached("r1", 4609, 1, blocks(ids(), ids())), mapping("r1", RawValue.NULL))));
            assertEquals(List.of(new GroupBlock(1, 42)), latch());
        }

        @Test
        void valueNotAList_poisonsNotAList() {
            onlyRejection(firstStep(mapping("r1", new RawValue.Text("42"))), PoisonCode.NOT_A_LIST);
        }

        @Test
        void emptyList_poisonsEmpty() {
            onlyRejection(firstStep(mapping("r1", list())), PoisonCode.EMPTY);
        }

        @ParameterizedTest
        @ValueSource(strings = {"two", "four", "bool", "real", "text", "nested", "scalar"})
        void entryNotThreeIntegers_poisonsMalformedEntry(String shape) {
            RawValue entry =
                    switch (shape) {
                        case "two" -> list(integer(1), integer(42));
                        case "four" -> list(integer(1), integer(42), integer(6912), integer(0));
                        case "bool" -> list(integer(1), new RawValue.Bool(true), integer(6912));
                        case "real" -> list(integer(1), integer(42), new RawValue.Real(6912.0));
                        case "text" -> list(new RawValue.Text("1"), integer(42), integer(6912));
                        case "nested" -> list(list(integer(1)), integer(42), integer(6912));
                        default -> integer(1);
                    };
            onlyRejection(firstStep(mapping("r1", list(entry))), PoisonCode.MALFORMED_ENTRY);
        }

        @ParameterizedTest
        @ValueSource(longs = {-1, 2, Long.MAX_VALUE})
        void groupOutsideTopology_poisonsUnknownGroup(long group) {
            onlyRejection(firstStep(evidence("r1", ids(group, 42, 6912))), PoisonCode.UNKNOWN_GROUP);
        }

        @Test
        void attentionGroup_poisonsNonRecurrentGroup() {
            Verdict.Rejected rejected =
                    onlyRejection(firstStep(evidence("r1", ids(0, 11, 6912))), PoisonCode.NON_RECURRENT_GROUP);
            assertEquals(0, rejected.group());
        }

        @ParameterizedTest
        @ValueSource(longs = {0, -3})
        void nullBlock_poisonsNullBlock(long block) {
            onlyRejection(firstStep(evidence("r1", ids(1, block, 6912))), PoisonCode.NULL_BLOCK);
        }

        @Test
        void nullBlockBelowTarget_stillPoisons() {
            // protocol §3: the block is checked before the boundary.
            onlyRejection(firstStep(evidence("r1", ids(1, 0, 2304))), PoisonCode.NULL_BLOCK);
        }

        @Test
        void futureBoundary_poisonsAndNamesObservedTargetGroupBlock() {
            connector.apply(
                    newStep(
                            1,
                            newRequest("r1", "d1", 8256, 0, 8192, blocks(ids(11, 12, 13, 14), ids(0, 0, 0, 71))),
                            NO_EVIDENCE));
            Verdict.Rejected rejected =
                    onlyRejection(
                            connector.apply(
                                    cachedStep(
                                            2,
                                            cached("r1", 8192, 64, blocks(ids(), ids())),
                                            evidence("r1", ids(1, 142, 8448)))),
                            PoisonCode.FUTURE_BOUNDARY);
            assertTrue(rejected.reason().contains("observed=8448 target=8192 group=1 block=142"), rejected.reason());
            assertEquals(java.math.BigInteger.valueOf(8448), rejected.observed());
            assertEquals(8192L, rejected.target());
            assertEquals(1, rejected.group());
            assertEquals(java.math.BigInteger.valueOf(142), rejected.block());
        }

        @Test
        void boundaryBelowTarget_isIgnored() {
            assertEquals(List.of(), firstStep(evidence("r1", ids(1, 41, 2304))));
            assertEquals(List.of(), latch());
            assertEquals(0, connector.counters().rejected());
        }

        @Test
        void twoExactEntriesForOneGroup_poisonDuplicateGroup() {
            onlyRejection(firstStep(evidence("r1", ids(1, 42, 6912), ids(1, 42, 6912))), PoisonCode.DUPLICATE_GROUP);
        }

        @Test
        void exactEntriesMissingARecurrentGroup_poisonIncomplete() {
            Connector three =
                    new Connector(
                            Topology.of(
                                    new Group(0, GroupPolicy.FULL, 2304, 0),
                                    new Group(1, GroupPolicy.RECURRENT_ALIGN, 2304, 0),
                                    new Group(2, GroupPolicy.RECURRENT_ALIGN, 2304, 0)));
            Verdict.Rejected rejected =
                    onlyRejection(
                            three.apply(
                                    newStep(
                                            1,
                                            newRequest(
                                                    "r1", "d1", 6992, 0, 6912, blocks(ids(11, 12, 13), ids(), ids())),
                                            evidence("r1", ids(1, 42, 6912)))),
                            PoisonCode.INCOMPLETE);
            assertEquals(2, rejected.group());
        }

        @Test
        void allEntriesIntermediate_keepLatch() {
            firstStep(evidence("r1", ids(1, 42, 6912)));
            assertEquals(
                    List.of(),
                    connector.apply(
                            cachedStep(
                                    2,
                                    cached("r1", 4608, 1, blocks(ids(), ids())),
                                    evidence("r1", ids(1, 41, 2304), ids(1, 40, 4608)))));
            assertEquals(List.of(new GroupBlock(1, 42)), latch());
        }

        @Test
        void completeExactEntriesWithEmptyLatch_latch() {
            firstStep(NO_EVIDENCE);
            assertEquals(List.of(), latch());
            connector.apply(
                    cachedStep(2, cached("r1", 4608, 1, blocks(ids(), ids())), evidence("r1", ids(1, 42, 6912))));
            assertEquals(List.of(new GroupBlock(1, 42)), latch());
        }

        @Test
        void sameSetAsLatch_keepsLatch() {
            firstStep(evidence("r1", ids(1, 42, 6912)));
            assertEquals(
                    List.of(),
                    connector.apply(
                            cachedStep(
                                    2,
                                    cached("r1", 4608, 1, blocks(ids(), ids())),
                                    evidence("r1", ids(1, 41, 2304), ids(1, 42, 6912)))));
            assertEquals(List.of(new GroupBlock(1, 42)), latch());
        }

        @Test
        void differentSetThanLatch_poisonsConflict() {
            firstStep(evidence("r1", ids(1, 42, 6912)));
            Verdict.Rejected rejected =
                    onlyRejection(reachTarget(2, evidence("r1", ids(1, 43, 6912))), PoisonCode.CONFLICT);
            assertEquals(java.math.BigInteger.valueOf(43), rejected.block());
            assertTrue(connector.state().pending().isEmpty());
            assertEquals(0, connector.counters().plans());
        }

        @Test
        void firstFailingEntryDecides_inListOrder() {
            onlyRejection(firstStep(evidence("r1", ids(1, 142, 9999), ids(0, 11, 6912))), PoisonCode.FUTURE_BOUNDARY);
        }

        @Test
        void perEntryRowsApplyInTableOrder() {
            // unknown group is checked before the null block, the null block before the boundary.
            onlyRejection(firstStep(evidence("r1", ids(5, 0, 9999))), PoisonCode.UNKNOWN_GROUP);
        }

        @Test
        void entryErrorsBeatSetComparisons() {
            // a malformed entry after an exact duplicate: the duplicate (entry 1) fails first.
            onlyRejection(
                    firstStep(
                            mapping(
                                    "r1",
                                    list(
                                            list(integer(1), integer(42), integer(6912)),
                                            list(integer(1), integer(42), integer(6912)),
                                            integer(3)))),
                    PoisonCode.DUPLICATE_GROUP);
        }
    }

    @Nested
    class StepRules {

        @Test
        void preemption_dropsLatchButKeepsProgressAndTable() {
            firstStep(evidence("r1", ids(1, 42, 6912)));
            connector.apply(step(2, List.of(), List.of(), List.of("r1"), NO_EVIDENCE));
            PendingSnapshot store = connector.state().pending().get("r1");
            assertEquals(List.of(), store.latch());
            assertEquals(4608, store.done());
            assertEquals(blocks(ids(11, 12), ids(0, 71)), store.table());
            // Reaching the target without fresh proof does not publish.
            assertEquals(List.of(), reachTarget(3, NO_EVIDENCE));
            assertEquals(List.of(), latch());
            assertEquals(6912, connector.state().pending().get("r1").done());
        }

        @Test
        void preemptionThenResume_publishesOnlyTheFreshBlock() {
            firstStep(evidence("r1", ids(1, 42, 6912)));
            connector.apply(step(2, List.of(), List.of(), List.of("r1"), NO_EVIDENCE));
            connector.apply(cachedStep(3, resumed("r1", 0, 4608, blocks(ids(11, 12), ids(0, 81))), NO_EVIDENCE));
            Verdict.Plan plan = onlyPlan(reachTarget(4, evidence("r1", ids(1, 52, 6912))));
            assertEquals(List.of(new GroupBlock(1, 52)), plan.recurrent());
            assertEquals(blocks(ids(11, 12, 13), ids(52)), plan.blocksByGroup());
        }

        @Test
        void newRequestAtFullQuorum_isNotTrackedAndEvidenceIsNotExamined() {
            connector.apply(new Event.Held(0, "d1"));
            assertEquals(List.of(), firstStep(new RawValue.Text("garbage")));
            assertTrue(connector.state().pending().isEmpty());
            assertEquals(new Counters(0, 0, 1, 0), connector.counters());
        }

        @Test
        void newRequestPoisoned_isNotTrackedAndLaterStepsAreIgnored() {
            onlyRejection(firstStep(mapping("r1", list())), PoisonCode.EMPTY);
            assertEquals(List.of(), reachTarget(2, evidence("r1", ids(1, 42, 6912))));
            assertEquals(new Counters(0, 1, 0, 0), connector.counters());
        }

        @Test
        void recurrentTopology_neverPublishesOnTheNewRequestStep() {
            List<Verdict> verdicts =
                    connector.apply(
                            newStep(
                                    1,
                                    newRequest("r1", "d1", 6992, 0, 6992, blocks(ids(11, 12, 13), ids(0, 0, 71))),
                                    evidence("r1", ids(1, 42, 6912))));
            assertEquals(List.of(), verdicts);
            PendingSnapshot store = connector.state().pending().get("r1");
            assertEquals(6992, store.done());
            assertEquals(List.of(new GroupBlock(1, 42)), store.latch());
        }

        @Test
        void topologyWithoutRecurrentGroups_publishesOnTheNewStepAndNeverReadsEvidence() {
            Connector attention = new Connector(Topology.of(new Group(0, GroupPolicy.FULL, 2304, 0)));
            Verdict.Plan plan =
                    onlyPlan(
                            attention.apply(
                                    newStep(
                                            1,
                                            newRequest("r1", "d1", 6992, 0, 6912, blocks(ids(11, 12, 13))),
                                            new RawValue.Text("not a mapping"))));
            assertEquals(List.of(), plan.recurrent());
            assertEquals(blocks(ids(11, 12, 13)), plan.blocksByGroup());
        }

        @Test
        void topologyWithoutRecurrentGroups_publishesOnTheCachedStepThatReachesTheSpan() {
            Connector attention = new Connector(Topology.of(new Group(0, GroupPolicy.FULL, 2304, 0)));
            assertEquals(
                    List.of(),
                    attention.apply(
                            newStep(
                                    1,
                                    newRequest("r1", "d1", 6992, 0, 4608, blocks(ids(11, 12))),
                                    mapping("r1", list()))));
            onlyPlan(
                    attention.apply(
                            cachedStep(2, cached("r1", 4608, 2304, blocks(ids(13))), new RawValue.Bool(false))));
        }

        @ParameterizedTest
        @ValueSource(longs = {1024, 1025})
        void spanOutsideBounds_isNeitherTrackedNorValidated(long prompt) {
            // prompt 1024 -> span 768 < min 1024; prompt 1025 -> span 1024 is tracked
            List<Verdict> verdicts =
                    connector.apply(
                            newStep(
                                    1,
                                    newRequest("r1", "d1", prompt, 0, prompt, blocks(ids(11), ids(71))),
                                    mapping("r1", list())));
            if (prompt == 1024) {
                assertEquals(List.of(), verdicts);
                assertTrue(connector.state().pending().isEmpty());
            } else {
                onlyRejection(verdicts, PoisonCode.EMPTY);
            }
        }

        @Test
        void spanAboveMax_isNotTracked() {
            Connector bounded = new Connector(new Topology(seedTopology().groups(), 1, 256, 1024, 4096));
            assertEquals(
                    List.of(),
                    bounded.apply(
                            newStep(
                                    1,
                                    newRequest("r1", "d1", 6992, 0, 6912, blocks(ids(11, 12, 13), ids(0, 0, 71))),
                                    mapping("r1", list()))));
            assertTrue(bounded.state().pending().isEmpty());
        }

        @Test
        void cachedStepAtFullQuorum_retiresWithoutLookingAtEvidence() {
            firstStep(evidence("r1", ids(1, 42, 6912)));
            connector.apply(new Event.Held(0, "d1"));
            List<Verdict> verdicts = reachTarget(2, new RawValue.Text("malformed"));
            assertEquals(List.of(new Verdict.Retired(2, "r1", RetireCause.QUORUM)), verdicts);
            assertEquals(new Counters(0, 0, 1, 0), connector.counters());
            assertTrue(connector.state().pending().isEmpty());
        }

        /**
         * The quorum check first asks a filter of the digests' hashes: two digests with one hash ("Aa" and "BB") share
         * a bit, and the one that is not at full quorum must still be tracked.
         */
        @Test
        void aDigestSharingItsHashWithOneAtFullQuorum_isStillTrackedAndPublished() {
            assertEquals("Aa".hashCode(), "BB".hashCode());
            connector.apply(new Event.Held(0, "Aa"));
            connector.apply(
                    newStep(
                            1,
                            newRequest("r1", "BB", 6992, 0, 4608, blocks(ids(11, 12), ids(0, 71))),
                            evidence("r1", ids(1, 42, 6912))));
            assertTrue(connector.state().pending().containsKey("r1"));
            onlyPlan(reachTarget(2, NO_EVIDENCE));
            assertEquals(new Counters(1, 0, 0, 0), connector.counters());
        }

        /**
         * The filter starts small and grows as digests reach full quorum; a digest set before a growth must still be
         * found after it, and one never held must still be tracked.
         */
        @Test
        void digestsAtFullQuorumAreFoundAcrossEveryGrowthOfTheFilter() {
            int held = 10_000; // past every growth: 512, 4096, 32768 and 65536 bits
            for (int i = 0; i < held; i++) {
                connector.apply(new Event.Held(0, "q" + i));
                connector.apply(new Event.Held(0, "q" + i)); // a report again counts the digest once
            }
            List<Event.NewRequest> requests = new ArrayList<>();
            int skipped = 0;
            for (int i = 0; i < held; i += 37) {
                requests.add(newRequest("h" + i, "q" + i, 6992, 0, 4608, blocks(ids(11, 12), ids(0, 71))));
                skipped++;
            }
            for (int i = 0; i < 300; i++) {
                requests.add(newRequest("n" + i, "other" + i, 6992, 0, 4608, blocks(ids(11, 12), ids(0, 71))));
            }
            connector.apply(step(1, requests, List.of(), List.of(), NO_EVIDENCE));
            assertEquals(new Counters(0, 0, skipped, 0), connector.counters());
            assertEquals(300, connector.state().pending().size());
            assertTrue(connector.state().pending().keySet().stream().allMatch(id -> id.startsWith("n")));
        }

        /**
         * Digests crafted to share one hash code send the held table to a hash map: every digest's ranks are still
         * shown and counted, the full ones skip their requests and the others do not.
         */
        @Test
        void heldDigestsSharingOneHashCode_keepTheirRanks() {
            Connector tp2 = new Connector(new Topology(seedTopology().groups(), 2, 256, 1024, Long.MAX_VALUE));
            List<String> crafted = Events.idsSharingOneHashCode(8); // 256 digests
            for (int i = 0; i < crafted.size(); i++) {
                tp2.apply(new Event.Held(0, crafted.get(i)));
                if (i % 2 == 0) {
                    tp2.apply(new Event.Held(1, crafted.get(i)));
                }
            }
            java.util.Map<String, java.util.SortedSet<Integer>> held = tp2.state().held();
            assertEquals(crafted.size(), held.size());
            for (int i = 0; i < crafted.size(); i++) {
                assertEquals(
                        i % 2 == 0 ? List.of(0, 1) : List.of(0), List.copyOf(held.get(crafted.get(i))), crafted.get(i));
            }
            List<Event.NewRequest> requests = new ArrayList<>();
            for (int i = 0; i < crafted.size(); i++) {
                requests.add(newRequest("r" + i, crafted.get(i), 6992, 0, 4608, blocks(ids(11, 12), ids(0, 71))));
            }
            tp2.apply(step(1, requests, List.of(), List.of(), NO_EVIDENCE));
            assertEquals(new Counters(0, 0, crafted.size() / 2, 0), tp2.counters());
            assertEquals(crafted.size() / 2, tp2.state().pending().size());
        }

        /** Ranks are kept one bit each in words of 64: a quorum of 70 spans two words. */
        @Test
        void aQuorumOfMoreThan64Ranks_isFullOnlyWithEveryRank() {
            Connector tp70 = new Connector(new Topology(seedTopology().groups(), 70, 256, 1024, Long.MAX_VALUE));
            for (int rank = 69; rank >= 1; rank--) {
                tp70.apply(new Event.Held(rank, "d1"));
            }
            tp70.apply(new Event.Held(64, "d1")); // a report again counts once
            assertEquals(69, tp70.state().held().get("d1").size());
            tp70.apply(
                    newStep(
                            1,
                            newRequest("r1", "d1", 6992, 0, 4608, blocks(ids(11, 12), ids(0, 71))),
                            evidence("r1", ids(1, 42, 6912))));
            assertTrue(tp70.state().pending().containsKey("r1"), "69 of 70 ranks is not full quorum");
            tp70.apply(new Event.Held(0, "d1"));
            assertEquals(
                    java.util.stream.IntStream.range(0, 70).boxed().toList(),
                    List.copyOf(tp70.state().held().get("d1")));
            assertEquals(
                    List.of(new Verdict.Retired(2, "r1", RetireCause.QUORUM)),
                    tp70.apply(cachedStep(2, cached("r1", 4608, 2304, blocks(ids(13), ids())), NO_EVIDENCE)));
        }

        @Test
        void partialQuorum_doesNotRetire() {
            Connector tp2 = new Connector(new Topology(seedTopology().groups(), 2, 256, 1024, Long.MAX_VALUE));
            tp2.apply(
                    newStep(
                            1,
                            newRequest("r1", "d1", 6992, 0, 4608, blocks(ids(11, 12), ids(0, 71))),
                            evidence("r1", ids(1, 42, 6912))));
            tp2.apply(new Event.Held(1, "d1"));
            tp2.apply(new Event.Held(1, "d1"));
            onlyPlan(tp2.apply(cachedStep(2, cached("r1", 4608, 2304, blocks(ids(13), ids())), NO_EVIDENCE)));
        }

        @Test
        void cachedStep_extendsTableAndReplacesItOnResume() {
            firstStep(NO_EVIDENCE);
            connector.apply(cachedStep(2, cached("r1", 4608, 1, blocks(ids(13), ids(72))), NO_EVIDENCE));
            assertEquals(blocks(ids(11, 12, 13), ids(0, 71, 72)), connector.state().pending().get("r1").table());
            connector.apply(cachedStep(3, resumed("r1", 0, 100, blocks(ids(21), ids(81))), NO_EVIDENCE));
            PendingSnapshot store = connector.state().pending().get("r1");
            assertEquals(blocks(ids(21), ids(81)), store.table());
            assertEquals(100, store.done());
        }

        /**
         * A table is made long enough for its plan when the request is admitted; it must still hold every block, and
         * only those, while it is shorter than that and after it outgrows it.
         */
        @Test
        void aTableExtendedPastItsPlannedLength_keepsEveryBlockInOrder() {
            firstStep(NO_EVIDENCE); // target 6912: three blocks of 2304 planned
            assertEquals(blocks(ids(11, 12), ids(0, 71)), connector.state().pending().get("r1").table());
            List<Long> full = new ArrayList<>(List.of(11L, 12L));
            for (int step = 2; step < 12; step++) {
                long[] more = {100 + 2 * step, 101 + 2 * step};
                connector.apply(cachedStep(step, cached("r1", 4608, 1, blocks(more, ids())), NO_EVIDENCE));
                full.add(more[0]);
                full.add(more[1]);
            }
            assertEquals(
                    blocks(full.stream().mapToLong(Long::longValue).toArray(), ids(0, 71)),
                    connector.state().pending().get("r1").table());
        }

        @Test
        void targetReachedWithoutLatch_staysPending() {
            firstStep(NO_EVIDENCE);
            assertEquals(List.of(), reachTarget(2, NO_EVIDENCE));
            assertEquals(6912, connector.state().pending().get("r1").done());
        }

        @Test
        void proofArrivingAfterTheTarget_publishesFromTheLatch() {
            firstStep(NO_EVIDENCE);
            reachTarget(2, NO_EVIDENCE);
            Verdict.Plan plan =
                    onlyPlan(
                            connector.apply(
                                    cachedStep(
                                            3,
                                            cached("r1", 6912, 80, blocks(ids(), ids(99))),
                                            evidence("r1", ids(1, 142, 6912)))));
            // The table's recurrent slot (99) is never the plan's block.
            assertEquals(List.of(new GroupBlock(1, 142)), plan.recurrent());
            assertEquals(new Counters(1, 0, 0, 0), connector.counters());
        }

        @Test
        void finished_dropsPendingStateWithoutPublishing() {
            firstStep(evidence("r1", ids(1, 42, 6912)));
            assertEquals(
                    List.of(new Verdict.Retired(1, "r1", RetireCause.FINISHED)),
                    connector.apply(new Event.Finished("r1")));
            assertEquals(List.of(), connector.apply(new Event.Finished("r1")));
            assertEquals(List.of(), reachTarget(2, NO_EVIDENCE));
            assertEquals(new Counters(0, 0, 0, 1), connector.counters());
        }

        @Test
        void evidenceForUnscheduledRequests_isIgnored() {
            firstStep(evidence("r1", ids(1, 42, 6912)));
            connector.apply(
                    newStep(
                            2,
                            newRequest("r2", "d2", 6992, 0, 100, blocks(ids(21), ids(0))),
                            evidence("r1", ids(1, 43, 6912))));
            assertEquals(List.of(new GroupBlock(1, 42)), latch());
        }

        @Test
        void atMostOnePlanPerRequest() {
            firstStep(evidence("r1", ids(1, 42, 6912)));
            onlyPlan(reachTarget(2, NO_EVIDENCE));
            assertEquals(
                    List.of(),
                    connector.apply(
                            cachedStep(
                                    3,
                                    cached("r1", 6912, 80, blocks(ids(), ids())),
                                    evidence("r1", ids(1, 43, 6912)))));
            assertEquals(1, connector.counters().plans());
        }

        @Test
        void verdictsFollowNewThenCachedListOrder() {
            connector.apply(
                    newStep(1, newRequest("a", "d1", 6992, 0, 4608, blocks(ids(11, 12), ids(0, 71))), NO_EVIDENCE));
            Map<String, RawValue> map = new LinkedHashMap<>();
            map.put("a", list());
            map.put("b", list());
            List<Verdict> verdicts =
                    connector.apply(
                            step(
                                    2,
                                    List.of(newRequest("b", "d2", 6992, 0, 10, blocks(ids(1), ids(0)))),
                                    List.of(cached("a", 4608, 1, blocks(ids(), ids()))),
                                    List.of(),
                                    new RawValue.MapOf(map)));
            assertEquals(List.of("b", "a"), verdicts.stream().map(Verdict::id).toList());
        }
    }

    @Nested
    class BlockSelection {

        private Verdict.Plan publish(Topology topology, BlockIds table, long prompt, RawValue evidence) {
            Connector c = new Connector(topology);
            c.apply(newStep(1, newRequest("r1", "d1", prompt, 0, prompt - 1, table), evidence));
            return onlyPlan(
                    c.apply(
                            cachedStep(
                                    2,
                                    cached("r1", prompt - 1, 1, new BlockIds(new long[topology.groups().size()][0])),
                                    RawValue.ABSENT)));
        }

        @Test
        void fullGroup_takesTheFirstCeilSpanOverBlockTokensEntries() {
            // span 8192 with 2304-token blocks needs ceil(8192 / 2304) = 4 blocks; the fifth is past the span.
            Verdict.Plan plan =
                    publish(
                            seedTopology(),
                            blocks(ids(11, 12, 13, 14, 15), ids(0, 0, 0, 71, 72)),
                            8256,
                            evidence("r1", ids(1, 142, 8192)));
            assertEquals(blocks(ids(11, 12, 13, 14), ids(142)), plan.blocksByGroup());
        }

        @Test
        void slidingGroup_takesTheBlocksCoveringTheWindowBeforeTheSpan() {
            Topology topology =
                    Topology.of(
                            new Group(0, GroupPolicy.SLIDING, 1024, 2048),
                            new Group(1, GroupPolicy.RECURRENT_ALIGN, 2304, 0));
            // span 6912: window covers tokens [4864, 6912) = blocks 4, 5, 6 (of 1024 tokens)
            Verdict.Plan plan =
                    publish(
                            topology,
                            blocks(ids(0, 0, 0, 0, 35, 36, 37), ids(0, 0, 71)),
                            6992,
                            evidence("r1", ids(1, 42, 6912)));
            assertEquals(blocks(ids(35, 36, 37), ids(42)), plan.blocksByGroup());
        }

        @Test
        void slidingWindowWiderThanTheSpan_startsAtTheFirstBlock() {
            Topology topology =
                    Topology.of(
                            new Group(0, GroupPolicy.SLIDING, 2304, 100_000),
                            new Group(1, GroupPolicy.RECURRENT_ALIGN, 2304, 0));
            Verdict.Plan plan =
                    publish(topology, blocks(ids(1, 2, 3), ids(0, 0, 9)), 6992, evidence("r1", ids(1, 42, 6912)));
            assertEquals(blocks(ids(1, 2, 3), ids(42)), plan.blocksByGroup());
        }

        @Test
        void nullBlockInSelection_failsClosedAsInvalidSelection() {
            Connector c = new Connector(seedTopology());
            c.apply(
                    newStep(
                            1,
                            newRequest("r1", "d1", 6992, 0, 6912, blocks(ids(11, 0, 13), ids(0, 0, 71))),
                            evidence("r1", ids(1, 42, 6912))));
            Verdict.Rejected rejected =
                    onlyRejection(
                            c.apply(cachedStep(2, cached("r1", 6912, 80, blocks(ids(), ids())), RawValue.ABSENT)),
                            PoisonCode.INVALID_SELECTION);
            assertEquals(0, rejected.group());
            assertEquals(java.math.BigInteger.valueOf(0), rejected.block());
            assertEquals(new Counters(0, 1, 0, 0), c.counters());
            assertTrue(c.state().pending().isEmpty());
        }

        @Test
        void repeatedBlockInSelection_failsClosedAsInvalidSelection() {
            Connector c = new Connector(seedTopology());
            c.apply(
                    newStep(
                            1,
                            newRequest("r1", "d1", 6992, 0, 6912, blocks(ids(11, 12, 11), ids(0, 0, 71))),
                            evidence("r1", ids(1, 42, 6912))));
            Verdict.Rejected rejected =
                    onlyRejection(
                            c.apply(cachedStep(2, cached("r1", 6912, 80, blocks(ids(), ids())), RawValue.ABSENT)),
                            PoisonCode.INVALID_SELECTION);
            assertEquals(java.math.BigInteger.valueOf(11), rejected.block());
        }

        /**
         * Two blocks repeated: the reason names the smaller, however the plan orders them, both for a short plan (pairs
         * compared), for one of more than 32 blocks (sorted), and for one longer than the array the connector reuses
         * for the check.
         */
        @ParameterizedTest
        @ValueSource(ints = {0, 40, 2000})
        void twoBlocksRepeated_theSmallerIsNamed(int extraBlocks) {
            Connector c = new Connector(seedTopology());
            long[] table = new long[4 + extraBlocks];
            table[0] = 50;
            table[1] = 50;
            for (int i = 0; i < extraBlocks; i++) {
                table[2 + i] = 1000 + i;
            }
            table[2 + extraBlocks] = 20;
            table[3 + extraBlocks] = 20;
            long prompt = 2304L * table.length;
            long[] recurrent = new long[table.length];
            recurrent[table.length - 1] = 71;
            c.apply(
                    newStep(
                            1,
                            newRequest("r1", "d1", prompt, 0, prompt - 80, blocks(table, recurrent)),
                            evidence("r1", ids(1, 42, prompt - 256))));
            Verdict.Rejected rejected =
                    onlyRejection(
                            c.apply(
                                    cachedStep(
                                            2, cached("r1", prompt - 80, 80, blocks(ids(), ids())), RawValue.ABSENT)),
                            PoisonCode.INVALID_SELECTION);
            assertEquals(java.math.BigInteger.valueOf(20), rejected.block(), rejected::reason);
        }

        /**
         * The check of a plan reuses one array (up to 1,024 blocks): a plan after one that filled it is checked on its
         * own blocks, so the blocks it shares with the earlier plan, selected once each, are no repeat. The short
         * plan's blocks are compared in pairs; the 41-block plan's are sorted, and its largest block (1,041) is the one
         * the earlier plan left just past its end.
         */
        @ParameterizedTest
        @ValueSource(ints = {3, 40})
        void aPlanAfterOneThatFilledTheCheck_isCheckedOnItsOwnBlocks(int blocks) {
            Connector c = new Connector(seedTopology());
            long[] longTable = new long[1023]; // and the recurrent block: 1,024 blocks in the plan
            for (int i = 0; i < longTable.length; i++) {
                longTable[i] = 1000 + i;
            }
            assertInstanceOf(Verdict.Plan.class, planOf(c, 1, "r1", longTable, 5001));
            long[] table =
                    blocks == 3
                            ? java.util.Arrays.copyOfRange(longTable, longTable.length - 3, longTable.length)
                            : java.util.Arrays.copyOfRange(longTable, 1, 41); // 1001 to 1040
            long recurrent = blocks == 3 ? 5003 : 1041;
            assertInstanceOf(Verdict.Plan.class, planOf(c, 3, "r2", table, recurrent));
        }

        /**
         * The verdict of a request admitted at {@code step} with {@code table}, proven with {@code recurrentBlock}, one
         * step later.
         */
        private Verdict planOf(Connector c, long step, String id, long[] table, long recurrentBlock) {
            long prompt = 2304L * table.length;
            long[] recurrent = new long[table.length];
            recurrent[table.length - 1] = recurrentBlock;
            c.apply(
                    newStep(
                            step,
                            newRequest(id, "d" + id, prompt, 0, prompt - 80, blocks(table, recurrent)),
                            evidence(id, ids(1, recurrentBlock, prompt - 256))));
            List<Verdict> verdicts =
                    c.apply(cachedStep(step + 1, cached(id, prompt - 80, 80, blocks(ids(), ids())), RawValue.ABSENT));
            assertEquals(1, verdicts.size(), verdicts::toString);
            return verdicts.get(0);
        }

        @Test
        void blockRepeatedAcrossGroups_failsClosedAsInvalidSelection() {
            // The attention table and the latch name block 42: one block pool, two uses.
            Connector c = new Connector(seedTopology());
            c.apply(
                    newStep(
                            1,
                            newRequest("r1", "d1", 6992, 0, 6912, blocks(ids(11, 42, 13), ids(0, 0, 71))),
                            evidence("r1", ids(1, 42, 6912))));
            Verdict.Rejected rejected =
                    onlyRejection(
                            c.apply(cachedStep(2, cached("r1", 6912, 80, blocks(ids(), ids())), RawValue.ABSENT)),
                            PoisonCode.INVALID_SELECTION);
            assertEquals(java.math.BigInteger.valueOf(42), rejected.block());
            assertEquals(1, rejected.group());
        }

        @Test
        void tableShorterThanTheSpan_failsClosedAsInvalidSelection() {
            Connector c = new Connector(seedTopology());
            c.apply(
                    newStep(
                            1,
                            newRequest("r1", "d1", 6992, 0, 6912, blocks(ids(11, 12), ids(0, 0, 71))),
                            evidence("r1", ids(1, 42, 6912))));
            onlyRejection(
                    c.apply(cachedStep(2, cached("r1", 6912, 80, blocks(ids(), ids())), RawValue.ABSENT)),
                    PoisonCode.INVALID_SELECTION);
        }
    }

    @Nested
    class InvalidEvents {

        /** Regression: computed + scheduled overflowed silently and the request stayed pending. */
        @Test
        void tokenCountsMustNotOverflow() {
            assertThrows(
                    InvalidEventException.class,
                    () ->
                            connector.apply(
                                    step(
                                            1,
                                            List.of(
                                                    newRequest(
                                                            "r1",
                                                            "d1",
                                                            6992,
                                                            Long.MAX_VALUE,
                                                            1,
                                                            blocks(ids(1), ids(0)))),
                                            List.of(),
                                            List.of(),
                                            RawValue.ABSENT)));
        }

        @Test
        void stepNumbersMustIncrease() {
            firstStep(RawValue.ABSENT);
            assertThrows(InvalidEventException.class, () -> reachTarget(1, RawValue.ABSENT));
        }

        @Test
        void aRequestIsScheduledAtMostOncePerStep() {
            assertThrows(
                    InvalidEventException.class,
                    () ->
                            connector.apply(
                                    step(
                                            1,
                                            List.of(newRequest("r1", "d1", 6992, 0, 10, blocks(ids(1), ids(0)))),
                                            List.of(cached("r1", 0, 10, blocks(ids(), ids()))),
                                            List.of(),
                                            RawValue.ABSENT)));
        }

        /**
         * The check marks a pending request's store instead of adding its id to a set: a pending request listed twice,
         * a request not pending listed twice, and a check that failed part way (its marks stay behind) must all behave
         * as with one set of the step's ids.
         */
        @Test
        void aCachedRequestListedTwiceFailsWhetherOrNotItIsPending() {
            firstStep(RawValue.ABSENT);
            ConnectorState before = connector.state();
            InvalidEventException pendingTwice =
                    assertThrows(
                            InvalidEventException.class,
                            () ->
                                    connector.apply(
                                            step(
                                                    2,
                                                    List.of(),
                                                    List.of(
                                                            cached("r1", 4608, 1, blocks(ids(13), ids())),
                                                            cached("r1", 4608, 1, blocks(ids(13), ids()))),
                                                    List.of(),
                                                    RawValue.ABSENT)));
            assertEquals("request \"r1\" is scheduled twice in step 2", pendingTwice.getMessage());
            InvalidEventException otherTwice =
                    assertThrows(
                            InvalidEventException.class,
                            () ->
                                    connector.apply(
                                            step(
                                                    2,
                                                    List.of(),
                                                    List.of(
                                                            cached("r1", 4608, 1, blocks(ids(13), ids())),
                                                            cached("x", 0, 1, blocks(ids(), ids())),
                                                            cached("x", 0, 1, blocks(ids(), ids()))),
                                                    List.of(),
                                                    RawValue.ABSENT)));
            assertEquals("request \"x\" is scheduled twice in step 2", otherTwice.getMessage());
            assertEquals(before, connector.state(), "a step that fails its check changes nothing");
            // r1 was marked by both failed checks; listed once now, it is scheduled once
            assertEquals(List.of(), reachTarget(2, RawValue.ABSENT));
            assertEquals(6912, connector.state().pending().get("r1").done());
        }

        /**
         * A mapping's entry is handed to the store it names for its step only, not kept for the request's next step.
         */
        @Test
        void evidenceForAPendingRequestNotScheduledInItsStepIsNotUsedLater() {
            firstStep(RawValue.ABSENT);
            connector.apply(step(2, List.of(), List.of(), List.of(), evidence("r1", ids(1, 42, 6912))));
            // step 3's mapping names another request only, so r1 has no entry in it
            assertEquals(List.of(), reachTarget(3, evidence("r9", ids(1, 7, 6912))));
            assertEquals(List.of(), latch(), "step 2's proof named r1, but r1 was not scheduled in step 2");
        }

        @Test
        void aPendingRequestCannotBeNewAgain() {
            firstStep(RawValue.ABSENT);
            assertThrows(
                    InvalidEventException.class,
                    () ->
                            connector.apply(
                                    newStep(
                                            2,
                                            newRequest("r1", "d1", 6992, 0, 10, blocks(ids(1), ids(0))),
                                            RawValue.ABSENT)));
        }

        @Test
        void tablesMustHaveOneListPerGroup() {
            assertThrows(
                    InvalidEventException.class,
                    () ->
                            connector.apply(
                                    newStep(1, newRequest("r1", "d1", 6992, 0, 10, blocks(ids(1))), RawValue.ABSENT)));
            assertThrows(
                    InvalidEventException.class,
                    () -> connector.apply(cachedStep(1, cached("r1", 0, 10, blocks(ids(1))), RawValue.ABSENT)));
        }

        @Test
        void heldFromARankTheTopologyDoesNotHaveIsIgnoredAndCounted() {
            // Regression: this stopped the replay, while the real connector skips such a report.
            assertEquals(List.of(), connector.apply(new Event.Held(1, "d1")));
            assertEquals(List.of(), connector.apply(new Event.Held(-1, "d1")));
            assertEquals(new Counters(0, 0, 0, 0, 2), connector.counters());
            assertTrue(connector.state().held().isEmpty());
        }
    }
}
