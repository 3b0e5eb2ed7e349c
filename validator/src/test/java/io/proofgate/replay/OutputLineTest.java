package io.proofgate.replay;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.proofgate.protocol.BlockIds;
import io.proofgate.protocol.Counters;
import io.proofgate.protocol.GroupBlock;
import io.proofgate.protocol.Verdict;
import io.proofgate.words.PoisonCode;
import io.proofgate.words.RetireCause;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;

/** The one reader of replay's output lines reads what {@link VerdictWriter} writes, and nothing else. */
class OutputLineTest {

    private static final List<OutputLine> LINES;

    static {
        SequencedMap<String, List<GroupBlock>> latched = new LinkedHashMap<>();
        latched.put("r\uD83D\uDE00", List.of(new GroupBlock(1, 42)));
        LINES =
                List.of(
                        new OutputLine.Said(
                                new Verdict.Plan(
                                        3,
                                        "r1",
                                        "d1",
                                        64,
                                        new BlockIds(new long[] {1, 2}, new long[] {7}),
                                        List.of(new GroupBlock(1, 7)))),
                        new OutputLine.Said(
                                new Verdict.Rejected(
                                        4,
                                        "r2",
                                        PoisonCode.values()[0],
                                        "why observed=9",
                                        BigInteger.valueOf(9),
                                        64,
                                        1,
                                        new BigInteger("18446744073709551616"))),
                        new OutputLine.Said(
                                new Verdict.Rejected(4, "r3", PoisonCode.values()[1], "why", null, 8, null, null)),
                        new OutputLine.Said(new Verdict.Retired(5, "r4", RetireCause.QUORUM)),
                        new OutputLine.Said(new Verdict.Hit(6, "r5", 32)),
                        new OutputLine.Said(new Verdict.Load(7, "r5", "d1", 32, new BlockIds(new long[] {3}))),
                        new OutputLine.Summary(new Counters(1, 2, 3, 4, 5), List.of("r1", "r\uD83D\uDE00"), latched),
                        new OutputLine.Summary(new Counters(0, 0, 0, 0), List.of(), new LinkedHashMap<>()),
                        new OutputLine.Error("log.jsonl:1:1: not JSON \uD83D\uDE00"));
    }

    @Test
    void everyLineReadsBackAsItWasAndIsWrittenAgainByteForByte() throws Exception {
        for (OutputLine line : LINES) {
            String written = line.written();
            OutputLine read = OutputLine.read(written);
            assertEquals(line, read, written);
            assertEquals(written, read.written());
        }
    }

    @Test
    void aKeyNoReplayWritesIsRefusedAtThatKey() {
        String plan = LINES.getFirst().written();
        OutputLine.Unreadable extra =
                assertThrows(
                        OutputLine.Unreadable.class,
                        () -> OutputLine.read(plan.substring(0, plan.length() - 1) + ",\"copy\":\"async\"}"));
        assertEquals("copy", extra.key());
        OutputLine.Unreadable code =
                assertThrows(
                        OutputLine.Unreadable.class,
                        () ->
                                OutputLine.read(
                                        LINES.get(2).written().replaceFirst("\"code\":\"[^\"]*\"", "\"code\":\"x\"")));
        assertEquals("code", code.key());
        OutputLine.Unreadable typed =
                assertThrows(
                        OutputLine.Unreadable.class,
                        () -> OutputLine.read(plan.replace("\"span\":64", "\"span\":\"64\"")));
        assertEquals("\"span\" is not an integer", typed.getMessage());
        OutputLine.Unreadable trailing =
                assertThrows(OutputLine.Unreadable.class, () -> OutputLine.read(LINES.get(4).written() + " {}"));
        assertEquals(null, trailing.key(), "more after the line's object: the line is not one replay prints");
        OutputLine.Unreadable broken =
                assertThrows(OutputLine.Unreadable.class, () -> OutputLine.read("{\"kind\":\"plan\",\"step\":1,}"));
        assertEquals(25, broken.column(), "at the column where the JSON breaks");
        // a rejection's group is an int: one beyond it is refused at its place, not an exception out of the merge
        OutputLine.Unreadable group =
                assertThrows(
                        OutputLine.Unreadable.class,
                        () -> OutputLine.read(LINES.get(1).written().replace("\"group\":1", "\"group\":2147483648")));
        assertEquals("group", group.key());
    }

    /** A replay writes ignored_held only when it counts one: a summary that says 0 is not one it wrote. */
    @Test
    void aLineReadableButNotAsWrittenIsToldApart() throws Exception {
        String summary = LINES.get(7).written();
        String zero = summary.replace(",\"pending\"", ",\"ignored_held\":0,\"pending\"");
        assertNotEquals(zero, OutputLine.read(zero).written());
        String reordered = LINES.get(3).written().replace("\"step\":5,\"id\":\"r4\"", "\"id\":\"r4\",\"step\":5");
        assertNotEquals(reordered, OutputLine.read(reordered).written());
    }

    /**
     * Regression: a shard could hold lines no replay prints, and merge-replay passed them on: pending ids out of string
     * order or twice, a latch of a request not pending, a negative count.
     */
    @Test
    void aLineNoReplayCanPrintIsRefusedAtItsKey() {
        String summary =
                "{\"kind\":\"summary\",\"plans\":1,\"rejected\":0,\"store_skipped_quorum\":0,\"retired_finished\":0,"
                        + "\"pending\":[\"r6\",\"r7\"],\"latched\":{\"r7\":[[1,47]]}}";
        assertEquals(summary, assertDoesNotThrow(() -> OutputLine.read(summary)).written());
        for (String[] bad :
                new String[][] {
                    {"[\"r6\",\"r7\"]", "[\"r7\",\"r6\"]", "pending"},
                    {"[\"r6\",\"r7\"]", "[\"r6\",\"r6\",\"r7\"]", "pending"},
                    {"{\"r7\":[[1,47]]}", "{\"zz\":[[1,47]]}", "latched"},
                    {"\"plans\":1", "\"plans\":-1", "plans"}
                }) {
            OutputLine.Unreadable refused =
                    assertThrows(OutputLine.Unreadable.class, () -> OutputLine.read(summary.replace(bad[0], bad[1])));
            assertEquals(bad[2], refused.key(), refused.getMessage());
        }
        OutputLine.Unreadable span =
                assertThrows(
                        OutputLine.Unreadable.class,
                        () -> OutputLine.read(LINES.get(0).written().replace("\"span\":", "\"span\":-")));
        assertEquals("span", span.key());
    }

    /**
     * Every JSON line proofgate writes says a string in one form: an id written by {@link VerdictWriter} (Jackson), by
     * the kit and the summaries ({@link io.proofgate.words.EventObject#quote}) and in a shard's error line is the same
     * bytes, whatever control characters it holds.
     */
    @Test
    void aStringIsWrittenInOneFormByEveryWriter() {
        StringBuilder text = new StringBuilder();
        for (char c = 0; c < 0x100; c++) {
            text.append(c);
        }
        String id = text.append("\u2028\u202e\uD83D\uDE00").toString();
        String quoted = io.proofgate.words.EventObject.quote(id);
        assertEquals(
                "{\"kind\":\"retired\",\"step\":1,\"id\":" + quoted + ",\"cause\":\"finished\"}",
                new OutputLine.Said(new Verdict.Retired(1, id, RetireCause.FINISHED)).written());
        assertEquals("{\"kind\":\"error\",\"message\":" + quoted + "}", new OutputLine.Error(id).written());
    }
}
