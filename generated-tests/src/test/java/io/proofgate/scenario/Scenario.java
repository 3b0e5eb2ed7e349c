package io.proofgate.scenario;

import io.proofgate.bytecheck.BlockContent;
import io.proofgate.bytecheck.ByteCheckHarness;
import io.proofgate.bytecheck.ByteFinding;
import io.proofgate.bytecheck.CopiedBlocks;
import io.proofgate.bytecheck.PlanContents;
import io.proofgate.format.ScenarioFile;
import io.proofgate.format.ScenarioStep;
import io.proofgate.format.StateLine;
import io.proofgate.protocol.BlockIds;
import io.proofgate.protocol.Connector;
import io.proofgate.protocol.ConnectorState;
import io.proofgate.protocol.Counters;
import io.proofgate.protocol.Event;
import io.proofgate.protocol.GroupBlock;
import io.proofgate.protocol.PendingSnapshot;
import io.proofgate.protocol.Verdict;
import io.proofgate.replay.EventReader;
import io.proofgate.replay.ReplayLine;
import io.proofgate.store.StoreKind;

import org.junit.jupiter.api.Assumptions;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Runs a conformance script (docs/generation.md, "Scenario files"; read by {@link ScenarioFile#readScript}): a topology
 * line, then blocks of one replay event line and the expected observable state after it, separated by {@code ----}:
 *
 * <pre>
 * topology {"kind":"topology",...}
 *
 * event {"kind":"step","step":1,...}
 * ----
 * rejected r1 code=empty
 * pending none
 * counters plans=0 rejected=1 store_skipped_quorum=0 retired_finished=0
 * </pre>
 *
 * The events go through the real replay parser, the connector and the byte-level conformance harness (on the store
 * {@code -Dproofgate.store} names, host by default); the expected lines come from the model, never from running the
 * validator. A mismatch fails with the whole script, the first differing line marked with {@code >}.
 */
public final class Scenario {

    private static final int HARNESS_BLOCKS = 512;

    private Scenario() {}

    public static void run(String script) {
        ScenarioFile.Script read = ScenarioFile.readScript("script", script);
        run(read.topology(), read.steps(), script);
    }

    /** Runs steps read from a file; {@code script} is their text, for messages. */
    static void run(String topology, List<ScenarioStep> steps, String script) {
        execute(script, topology, steps);
    }

    private static void execute(String script, String topologyLine, List<ScenarioStep> blocks) {
        StringBuilder log = new StringBuilder(topologyLine).append('\n');
        blocks.forEach(block -> log.append(block.event()).append('\n'));
        if (!blocks.isEmpty()
                && !blocks.getFirst().expected().isEmpty()
                && blocks.getFirst().expected().getFirst().startsWith("contents ")) {
            executeStated(script, log.toString(), blocks);
            return;
        }
        StoreKind kind = StoreKind.fromSystemProperty();
        Optional<String> unavailable = kind.unavailableReason();
        Assumptions.assumeTrue(
                unavailable.isEmpty(), () -> kind.wireName() + " store skipped: " + unavailable.orElse(""));
        try (EventReader reader =
                new EventReader(new ByteArrayInputStream(log.toString().getBytes(StandardCharsets.UTF_8)), "script")) {
            Connector connector = new Connector(reader.readTopology(), reader.restores());
            try (ByteCheckHarness harness =
                    ByteCheckHarness.open(connector.topology(), kind, CopiedBlocks.PLAN, HARNESS_BLOCKS)) {
                long lastStep = 0;
                for (ScenarioStep block : blocks) {
                    ReplayLine line = reader.next();
                    Event event = line.event();
                    harness.event(event);
                    List<Verdict> verdicts = connector.apply(event);
                    if (event instanceof Event.Step step) {
                        lastStep = step.step();
                    }
                    for (Verdict verdict : verdicts) {
                        harness.verdict(verdict);
                        if (verdict.step() != lastStep) {
                            fail(
                                    script,
                                    block,
                                    List.of(),
                                    "verdict "
                                            + verdict
                                            + " carries step "
                                            + verdict.step()
                                            + ", the event's step is "
                                            + lastStep);
                        }
                    }
                    if (harness.findingCount() > 0) {
                        fail(script, block, List.of(), "byte check: " + harness.findings().getFirst().message());
                    }
                    List<String> actual = render(verdicts, connector.state());
                    if (!actual.equals(block.expected())) {
                        fail(script, block, actual, null);
                    }
                }
            }
        } catch (AssertionError e) {
            throw e;
        } catch (Exception e) {
            throw new AssertionError("script could not run: " + e.getMessage() + "\n" + script, e);
        }
    }

    /**
     * A scenario of a model of vLLM alone, which states what every block holds after each event instead of the
     * connector's verdicts: the validator's plans are judged on those contents (each block it publishes holds its
     * prefix), as the conformance kit judges any connector's. The simulated page store is not used: the events alone do
     * not tell these contents.
     */
    private static void executeStated(String script, String log, List<ScenarioStep> blocks) {
        try (EventReader reader =
                new EventReader(new ByteArrayInputStream(log.getBytes(StandardCharsets.UTF_8)), "script")) {
            Connector connector = new Connector(reader.readTopology(), reader.restores());
            PlanContents contents = PlanContents.stated(connector.topology());
            for (ScenarioStep block : blocks) {
                Event event = reader.next().event();
                contents.event(event);
                if (block.expected().size() != 1) {
                    fail(script, block, List.of(), "a contents line stands alone after its event");
                }
                if (!(StateLine.read("script", block.line() + 2, block.expected().getFirst())
                        instanceof StateLine.Contents stated)) {
                    throw new AssertionError(
                            "script line "
                                    + (block.line() + 2)
                                    + ": a scenario that states the blocks' contents "
                                    + "states them after every event\n"
                                    + script);
                }
                java.util.Map<Long, BlockContent> held = new java.util.HashMap<>();
                stated.blocks().keySet().forEach(b -> held.put(b, new BlockContent.Uncomputed()));
                stated.states()
                        .forEach((b, state) -> held.put(b, new BlockContent.Recurrent(state.digest(), state.tokens())));
                contents.stated(held, stated.released());
                for (Verdict verdict : connector.apply(event)) {
                    if (verdict instanceof Verdict.Plan plan) {
                        List<ByteFinding> findings =
                                contents.check(
                                        plan.step(),
                                        plan.id(),
                                        plan.digest(),
                                        plan.target(),
                                        plan.blocksByGroup().byGroup());
                        if (!findings.isEmpty()) {
                            fail(
                                    script,
                                    block,
                                    List.of(),
                                    "unsafe plan " + plan + ": " + findings.getFirst().message());
                        }
                    }
                }
            }
        } catch (AssertionError e) {
            throw e;
        } catch (Exception e) {
            throw new AssertionError("script could not run: " + e.getMessage() + "\n" + script, e);
        }
    }

    /** The observable state in the script's words; the generator writes the same lines from the model. */
    static List<String> render(List<Verdict> verdicts, ConnectorState state) {
        List<StateLine> lines = new ArrayList<>();
        for (Verdict verdict : verdicts) {
            lines.add(
                    switch (verdict) {
                        case Verdict.Plan plan ->
                                new StateLine.Plan(
                                        plan.id(),
                                        plan.digest(),
                                        String.valueOf(plan.target()),
                                        String.valueOf(plan.blocksByGroup()),
                                        pairs(plan.recurrent()));
                        case Verdict.Rejected rejected ->
                                new StateLine.Rejected(
                                        rejected.id(), rejected.code().wireName(), reasonFacts(rejected));
                        case Verdict.Retired retired -> new StateLine.Retired(retired.id(), retired.cause().wireName());
                        case Verdict.Hit hit -> new StateLine.Hit(hit.id(), String.valueOf(hit.tokens()));
                        case Verdict.Load load ->
                                new StateLine.Load(
                                        load.id(),
                                        load.digest(),
                                        String.valueOf(load.restored()),
                                        String.valueOf(load.blocksByGroup()));
                    });
        }
        if (state.pending().isEmpty()) {
            lines.add(new StateLine.NoPending());
        }
        for (PendingSnapshot store : state.pending().values()) {
            lines.add(
                    new StateLine.Pending(
                            store.id(), String.valueOf(store.done()), table(store.table()), pairs(store.latch())));
        }
        state.held()
                .forEach(
                        (digest, ranks) ->
                                lines.add(
                                        new StateLine.Held(
                                                digest,
                                                ranks.stream()
                                                        .map(String::valueOf)
                                                        .collect(Collectors.joining(",", "[", "]")))));
        Counters counters = state.counters();
        lines.add(
                new StateLine.Counters(
                        String.valueOf(counters.plans()),
                        String.valueOf(counters.rejected()),
                        String.valueOf(counters.storeSkippedQuorum()),
                        String.valueOf(counters.retiredFinished())));
        return lines.stream().map(StateLine::text).toList();
    }

    /**
     * The reason after the code's sentence: the facts the model states. The verdict's own fields must say the same as
     * the reason's observed/target/group/block words, or the line shows both.
     */
    private static List<String> reasonFacts(Verdict.Rejected rejected) {
        String sentence = rejected.code().sentence();
        if (!rejected.reason().startsWith(sentence + " ")) {
            return List.of("reason-without-sentence=\"" + rejected.reason() + "\"");
        }
        String facts = rejected.reason().substring(sentence.length());
        java.util.Map<String, String> words = new java.util.HashMap<>();
        for (String word : facts.strip().split(" ")) {
            int equals = word.indexOf('=');
            words.put(equals < 0 ? word : word.substring(0, equals), equals < 0 ? "" : word.substring(equals + 1));
        }
        String fields =
                field("observed", rejected.observed(), words)
                        + field("target", rejected.target(), words)
                        + field("group", rejected.group(), words)
                        + field("block", rejected.block(), words);
        return List.of((facts + fields).strip().split(" "));
    }

    /** Empty when the verdict's field and the reason's word agree (both absent or equal), else the disagreement. */
    private static String field(String name, Object value, java.util.Map<String, String> words) {
        String word = words.get(name);
        boolean agree = value == null ? word == null : String.valueOf(value).equals(word);
        return agree ? "" : " field-" + name + "=" + value;
    }

    private static String table(BlockIds blocks) {
        return blocks.toString();
    }

    private static String pairs(List<GroupBlock> blocks) {
        return blocks.stream()
                .map(b -> "[" + b.group() + "," + b.block() + "]")
                .collect(Collectors.joining(",", "[", "]"));
    }

    private static void fail(String script, ScenarioStep block, List<String> actual, String problem) {
        StringBuilder text = new StringBuilder();
        if (problem != null) {
            text.append(problem).append('\n');
        } else {
            text.append("state after the event on script line ")
                    .append(block.line())
                    .append(" differs from the model (first difference marked >)\n");
            int first = 0;
            while (first < Math.min(actual.size(), block.expected().size())
                    && actual.get(first).equals(block.expected().get(first))) {
                first++;
            }
            text.append("expected:\n");
            for (int i = 0; i < block.expected().size(); i++) {
                text.append(i == first ? "> " : "  ").append(block.expected().get(i)).append('\n');
            }
            text.append("validator:\n");
            for (int i = 0; i < actual.size(); i++) {
                text.append(i == first ? "> " : "  ").append(actual.get(i)).append('\n');
            }
        }
        text.append("script:\n").append(script);
        throw new AssertionError(text.toString());
    }
}
