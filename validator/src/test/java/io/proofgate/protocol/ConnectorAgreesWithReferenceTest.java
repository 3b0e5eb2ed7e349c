package io.proofgate.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;

import io.proofgate.words.GroupPolicy;

import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;
import org.quicktheories.generators.SourceDSL;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@link Connector} and the naive {@link ReferenceRules} agree, event by event, on random logs that mix every kind of
 * evidence (well-formed, intermediate, exact, future, malformed, ...), preemption, resume, finish and quorum, over four
 * topologies.
 */
class ConnectorAgreesWithReferenceTest {

    private static final List<Topology> TOPOLOGIES =
            List.of(
                    Events.seedTopology(),
                    new Topology(
                            List.of(
                                    new Group(0, GroupPolicy.FULL, 2304, 0),
                                    new Group(1, GroupPolicy.RECURRENT_ALIGN, 2304, 0),
                                    new Group(2, GroupPolicy.RECURRENT_ALIGN, 2304, 0)),
                            2,
                            256,
                            1024,
                            Long.MAX_VALUE),
                    new Topology(
                            List.of(
                                    new Group(0, GroupPolicy.SLIDING, 1024, 2048),
                                    new Group(1, GroupPolicy.RECURRENT_ALIGN, 2304, 0)),
                            1,
                            256,
                            1024,
                            8000),
                    new Topology(
                            List.of(
                                    new Group(0, GroupPolicy.FULL, 2304, 0),
                                    new Group(1, GroupPolicy.SLIDING, 2304, 4096)),
                            2,
                            256,
                            1024,
                            Long.MAX_VALUE));

    private static final long[] PROMPTS = {1000, 1025, 2305, 6992, 8256, 9000};
    private static final String[] IDS = {"r0", "r1", "r2", "r3"};
    private static final String[] DIGESTS = {"d0", "d1"};

    record Scenario(Topology topology, List<Event> events) {
        @Override
        public String toString() {
            StringBuilder text = new StringBuilder(topology.toString());
            events.forEach(e -> text.append('\n').append(e));
            return text.toString();
        }
    }

    @Test
    void connectorAndReferenceAgreeOnRandomLogs() {
        qt().withExamples(3000)
                .withShrinkCycles(200)
                .forAll(scenarios())
                .checkAssert(
                        scenario -> {
                            Connector connector = new Connector(scenario.topology());
                            ReferenceRules reference = new ReferenceRules(scenario.topology());
                            for (int i = 0; i < scenario.events().size(); i++) {
                                Event event = scenario.events().get(i);
                                List<String> expected = reference.apply(event);
                                List<String> actual =
                                        connector.apply(event).stream().map(ReferenceRules::reduce).toList();
                                assertEquals(expected, actual, "verdicts of event " + i + ": " + event);
                                ConnectorState state = connector.state();
                                assertEquals(
                                        new Counters(
                                                reference.plans,
                                                reference.rejected,
                                                reference.skippedQuorum,
                                                reference.retiredFinished,
                                                reference.ignoredHeld),
                                        state.counters(),
                                        "counters after event " + i);
                                Map<String, String> expectedPending = new TreeMap<>();
                                reference.pending.forEach(
                                        (id, s) ->
                                                expectedPending.put(
                                                        id,
                                                        s.done() + " " + s.table() + " " + Events.sorted(s.latch())));
                                Map<String, String> actualPending = new TreeMap<>();
                                state.pending()
                                        .forEach(
                                                (id, s) ->
                                                        actualPending.put(
                                                                id,
                                                                s.done()
                                                                        + " "
                                                                        + lists(s.table())
                                                                        + " "
                                                                        + Events.sorted(s.latch())));
                                assertEquals(expectedPending, actualPending, "pending stores after event " + i);
                            }
                        });
    }

    private static List<List<Long>> lists(BlockIds blocks) {
        List<List<Long>> lists = new ArrayList<>();
        for (long[] group : blocks.byGroup()) {
            List<Long> list = new ArrayList<>();
            for (long block : group) {
                list.add(block);
            }
            lists.add(list);
        }
        return lists;
    }

    private static Gen<Scenario> scenarios() {
        Gen<Integer> any = SourceDSL.integers().between(0, 999);
        return source -> new Generator(source, any).scenario();
    }

    /** Draws one scenario; the generator tracks which ids were admitted so every event is valid. */
    private static final class Generator {
        private final RandomnessSource source;
        private final Gen<Integer> any;
        private final Map<String, Long> targets = new LinkedHashMap<>();
        private Topology topology;

        Generator(RandomnessSource source, Gen<Integer> any) {
            this.source = source;
            this.any = any;
        }

        int pick(int bound) {
            return any.generate(source) % bound;
        }

        boolean chance(int percent) {
            return pick(100) < percent;
        }

        Scenario scenario() {
            topology = TOPOLOGIES.get(pick(TOPOLOGIES.size()));
            List<Event> events = new ArrayList<>();
            int count = 1 + pick(25);
            long step = 0;
            for (int i = 0; i < count; i++) {
                int kind = pick(10);
                if (kind < 7) {
                    events.add(step(++step));
                } else if (kind < 8) {
                    events.add(new Event.Finished(IDS[pick(IDS.length)]));
                } else {
                    // now and then a rank the topology does not have: ignored and counted
                    events.add(
                            new Event.Held(
                                    chance(5) ? topology.tpDegree() + pick(2) : pick(topology.tpDegree()),
                                    DIGESTS[pick(DIGESTS.length)]));
                }
            }
            return new Scenario(topology, events);
        }

        Event.Step step(long step) {
            List<Event.NewRequest> news = new ArrayList<>();
            List<Event.CachedRequest> cached = new ArrayList<>();
            List<String> preempted = new ArrayList<>();
            List<String> scheduled = new ArrayList<>();
            for (String id : IDS) {
                if (chance(15)) {
                    preempted.add(id);
                }
                if (!chance(50)) {
                    continue;
                }
                scheduled.add(id);
                if (!targets.containsKey(id)) {
                    long prompt = PROMPTS[pick(PROMPTS.length)];
                    targets.put(id, topology.targetOf(prompt));
                    long scheduledTokens = tokens(prompt);
                    news.add(
                            new Event.NewRequest(
                                    id, DIGESTS[pick(DIGESTS.length)], prompt, 0, scheduledTokens, table(4)));
                } else {
                    long target = targets.get(id);
                    long computed = Math.max(0, target - 2304 + 256L * pick(12) - 512);
                    cached.add(new Event.CachedRequest(id, computed, tokens(target), table(2), chance(15)));
                }
            }
            return new Event.Step(step, news, cached, preempted, evidence(scheduled));
        }

        long tokens(long around) {
            return switch (pick(4)) {
                case 0 -> 0;
                case 1 -> around / 2;
                case 2 -> around;
                default -> around + 100;
            };
        }

        BlockIds table(int maxPerGroup) {
            long[][] groups = new long[topology.groups().size()][];
            for (int g = 0; g < groups.length; g++) {
                int length = pick(maxPerGroup + 1) + (chance(50) ? 2 : 0);
                groups[g] = new long[length];
                for (int i = 0; i < length; i++) {
                    // now and then a block the evidence also names, so plans may select one block twice
                    groups[g][i] = chance(8) ? 0 : chance(4) ? 40 + pick(4) : 10 * (g + 1) + pick(9) + 1;
                }
            }
            return new BlockIds(groups);
        }

        RawValue evidence(List<String> scheduled) {
            int shape = pick(20);
            if (shape == 0) {
                return RawValue.NULL;
            }
            if (shape == 1) {
                return new RawValue.Text("r0");
            }
            if (shape < 6) {
                return RawValue.ABSENT;
            }
            Map<String, RawValue> map = new LinkedHashMap<>();
            for (String id : IDS) {
                if (chance(scheduled.contains(id) ? 70 : 20)) {
                    map.put(id, value(targets.getOrDefault(id, 6912L)));
                }
            }
            return new RawValue.MapOf(map);
        }

        RawValue value(long target) {
            int shape = pick(20);
            if (shape == 0) {
                return RawValue.NULL;
            }
            if (shape == 1) {
                return new RawValue.Int(3);
            }
            int entries = shape == 2 ? 0 : 1 + pick(3);
            List<RawValue> list = new ArrayList<>();
            for (int i = 0; i < entries; i++) {
                list.add(entry(target));
            }
            return new RawValue.ListOf(list);
        }

        RawValue entry(long target) {
            if (chance(5)) {
                return chance(50)
                        ? new RawValue.ListOf(List.of(new RawValue.Int(1), new RawValue.Int(42)))
                        : new RawValue.ListOf(
                                List.of(new RawValue.Int(1), new RawValue.Bool(true), new RawValue.Int(target)));
            }
            int groups = topology.groups().size();
            long group = chance(5) ? (chance(50) ? -1 : groups) : pick(groups);
            long block = chance(5) ? 0 : 40 + pick(4);
            long boundary =
                    switch (pick(10)) {
                        case 0 -> target + 256;
                        case 1, 2 -> target - 2304;
                        default -> target;
                    };
            return new RawValue.ListOf(
                    List.of(new RawValue.Int(group), new RawValue.Int(block), new RawValue.Int(boundary)));
        }
    }
}
