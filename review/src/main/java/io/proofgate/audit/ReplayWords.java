package io.proofgate.audit;

import io.proofgate.format.ReplaySummary;
import io.proofgate.format.StateLine;
import io.proofgate.protocol.Counters;
import io.proofgate.protocol.GroupBlock;
import io.proofgate.protocol.Verdict;
import io.proofgate.replay.OutputLine;
import io.proofgate.words.ReasonFacts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A validator's replay output (protocol §5) in the words the model's outcome is stated in ({@code
 * GraphPaths.replayOutcome}): each verdict's state line with its step ({@link StateLine.Verdict#text(String)}), then
 * the summary ({@link ReplaySummary#words}). A rejection's facts are the {@code name=value} words that end its reason;
 * the sentence before them is the validator's prose and not compared.
 */
final class ReplayWords {

    private ReplayWords() {}

    static List<String> of(String output) {
        List<String> words = new ArrayList<>();
        for (String line : output.lines().toList()) {
            if (line.isBlank()) {
                continue;
            }
            if (line.startsWith("error: ")) {
                words.add(line);
                continue;
            }
            OutputLine read;
            try {
                read = OutputLine.read(line);
            } catch (OutputLine.Unreadable e) {
                // a revision's own words (a code today's replay does not have): a difference to show, not to stop at
                words.add("a line today's replay does not print (" + e.getMessage() + "): " + line);
                continue;
            }
            words.add(
                    switch (read) {
                        case OutputLine.Said said ->
                                stateLine(said.verdict()).text(String.valueOf(said.verdict().step()));
                        case OutputLine.Summary summary -> summary(summary).words();
                        case OutputLine.Error error ->
                                throw new AuditException("a validator printed a shard's error line: " + line);
                    });
        }
        return words;
    }

    /** A verdict as the generated scenarios state it. */
    private static StateLine.Verdict stateLine(Verdict verdict) {
        return switch (verdict) {
            case Verdict.Plan plan ->
                    new StateLine.Plan(
                            plan.id(),
                            plan.digest(),
                            String.valueOf(plan.target()),
                            plan.blocksByGroup().toString(),
                            sorted(plan.recurrent()));
            case Verdict.Rejected rejected ->
                    new StateLine.Rejected(
                            rejected.id(), rejected.code().wireName(), ReasonFacts.of(rejected.reason()));
            case Verdict.Retired retired -> new StateLine.Retired(retired.id(), retired.cause().wireName());
            case Verdict.Hit hit -> new StateLine.Hit(hit.id(), String.valueOf(hit.tokens()));
            case Verdict.Load load ->
                    new StateLine.Load(
                            load.id(), load.digest(), String.valueOf(load.restored()), load.blocksByGroup().toString());
        };
    }

    private static ReplaySummary summary(OutputLine.Summary summary) {
        Counters counters = summary.counters();
        Map<String, String> latched = new LinkedHashMap<>();
        summary.latched().forEach((id, latch) -> latched.put(id, sorted(latch)));
        return new ReplaySummary(
                new StateLine.Counters(
                        String.valueOf(counters.plans()),
                        String.valueOf(counters.rejected()),
                        String.valueOf(counters.storeSkippedQuorum()),
                        String.valueOf(counters.retiredFinished())),
                String.valueOf(counters.ignoredHeld()),
                summary.pending(),
                latched);
    }

    /** Recurrent (group, block) pairs in order, as the model states them. */
    private static String sorted(List<GroupBlock> pairs) {
        return OutputLine.pairs(
                pairs.stream()
                        .sorted(Comparator.comparingInt(GroupBlock::group).thenComparingLong(GroupBlock::block))
                        .toList());
    }
}
