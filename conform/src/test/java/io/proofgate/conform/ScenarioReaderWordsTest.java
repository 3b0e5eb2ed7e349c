package io.proofgate.conform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.json.JsonWords;
import io.proofgate.words.Outside;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Regression: a scenario log that is not JSON was refused in the parser's words ("Trailing token (of type START_OBJECT)
 * found after value (bound as `com.fasterxml…`)", "[Source: REDACTED …]",
 * "StreamReadConstraints.getMaxNestingDepth()"), and one that is not UTF-8 at 1:1 wherever its bad byte was. Each is
 * now said in the project's words at the place of what is wrong.
 */
class ScenarioReaderWordsTest {

    private static final String TOPOLOGY =
            "{\"kind\":\"topology\",\"schema\":\"proofgate-events/v1\",\"tp_degree\":1,"
                + "\"hash_block_size\":256,\"min_span_tokens\":1024,\"groups\":[{\"policy\":\"full\",\"block_tokens\":256}]}";
    private static final String STEP = "{\"kind\":\"step\",\"step\":1,\"new\":[]}";

    @TempDir Path dir;

    private String refused(byte[] log) throws Exception {
        Files.write(dir.resolve("a.jsonl"), log);
        Files.writeString(
                dir.resolve("a.expected"),
                "{\"kind\":\"summary\",\"plans\":0,\"rejected\":0,\"store_skipped_quorum\":0,"
                        + "\"retired_finished\":0,\"pending\":[],\"latched\":{}}\n");
        String message = assertThrows(ConformException.class, () -> ScenarioReader.read(dir)).getMessage();
        assertTrue(JsonWords.fitForATerminal(message), Outside.quoted(message));
        return message.substring(dir.resolve("a.jsonl").toString().length());
    }

    private String refused(String log) throws Exception {
        return refused(log.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aLogThatIsNotJsonIsRefusedInTheProjectsWords() throws Exception {
        assertEquals(
                ":2:" + (STEP.length() + 1) + ": not JSON: more text after the JSON value",
                refused(TOPOLOGY + "\n" + STEP + STEP + "\n"));
        assertEquals(
                ":2:1: not JSON: values nest deeper than 1000 levels", // the parser gives no place for this one
                refused(TOPOLOGY + "\n" + "[".repeat(1001) + "\n"));
        assertEquals(
                ":2:"
                        + (STEP.length() - 1)
                        + ": not JSON: the input ends inside the list that starts at line 2, column "
                        + (STEP.indexOf('[') + 1),
                refused(TOPOLOGY + "\n" + STEP.substring(0, STEP.length() - 2) + "\n"));
        assertEquals(
                ":1:1: not JSON: expected a value, found \"\\ufeff\"",
                refused("\uFEFF" + TOPOLOGY + "\n" + STEP + "\n"));
    }

    @Test
    void aLogThatIsNotUtf8IsRefusedAtItsFirstBadByte() throws Exception {
        byte[] log =
                (TOPOLOGY + "\n{\"kind\":\"step\",\"step\":1,\"new\":[{\"id\":\"é?\"}]}\n")
                        .getBytes(StandardCharsets.UTF_8);
        int bad = new String(log, StandardCharsets.UTF_8).indexOf('?');
        log[new String(log, StandardCharsets.UTF_8).substring(0, bad).getBytes(StandardCharsets.UTF_8).length] =
                (byte) 0xff;
        assertEquals(
                ":2:" + ("{\"kind\":\"step\",\"step\":1,\"new\":[{\"id\":\"é".length() + 1) + ": not UTF-8 (byte 0xff)",
                refused(log));
    }

    /** A scenario's verdict with a code or cause this version lacks would compare as text: refused where it stands. */
    @Test
    void aVerdictWithAnUnknownCodeOrCauseIsRefusedAtItsLine() throws Exception {
        String committed = Files.readString(Path.of("../generated-tests/scenarios/ci/value-empty.scenarios"));
        for (String[] change :
                new String[][] {
                    {"code=empty", "unknown rejection code \"emptied\"", "code=emptied"},
                    {"cause=finished", "unknown retirement cause \"done\"", "cause=done"}
                }) {
            Files.writeString(dir.resolve("a.scenarios"), committed.replaceFirst(change[0], change[2]));
            int line = committed.substring(0, committed.indexOf(change[0])).split("\n", -1).length;
            String message = assertThrows(ConformException.class, () -> ScenarioReader.read(dir)).getMessage();
            assertTrue(message.startsWith(dir.resolve("a.scenarios") + ":" + line + ":1: "), message);
            assertTrue(message.endsWith(change[1]), message);
        }
    }

    /**
     * Regression: a field of an expected output the reader does not know was dropped, so a misspelt {@code
     * ignored_held} was never checked and the scenario passed. Every field is replay's, and every field replay prints
     * is there.
     */
    @Test
    void anExpectedOutputHoldsTheFieldsReplayPrintsAndNoOthers() throws Exception {
        Files.writeString(dir.resolve("a.jsonl"), TOPOLOGY + "\n" + STEP + "\n");
        String summary =
                "{\"kind\":\"summary\",\"plans\":0,\"rejected\":0,\"store_skipped_quorum\":0,"
                        + "\"retired_finished\":0,\"pending\":[],\"latched\":{}}";
        Files.writeString(dir.resolve("a.expected"), summary + "\n");
        assertEquals(1, ScenarioReader.read(dir).size());
        for (String[] change :
                new String[][] {
                    {
                        "\"retired_finished\":0,",
                        "\"retired_finished\":0,\"ignored_hled\":7,",
                        "1:88: \"ignored_hled\" is"
                    },
                    {
                        "\"retired_finished\":0,",
                        "\"retired_finished\":0,\"ignored_held\":0,",
                        "1:88: \"ignored_held\" is"
                    },
                }) {
            Files.writeString(dir.resolve("a.expected"), summary.replace(change[0], change[1]) + "\n");
            String message = assertThrows(ConformException.class, () -> ScenarioReader.read(dir)).getMessage();
            assertTrue(message.startsWith(dir.resolve("a.expected") + ":" + change[2]), message);
        }
        // a rejection whose reason states the target, without the target field replay prints beside it
        Files.writeString(
                dir.resolve("a.expected"),
                "{\"kind\":\"rejected\",\"step\":1,\"id\":\"r1\",\"code\":\"empty\",\"reason\":\"the evidence for the"
                        + " request is an empty list target=6912\"}\n"
                        + summary.replace("\"rejected\":0", "\"rejected\":1")
                        + "\n");
        assertEquals(
                dir.resolve("a.expected") + ":1:1: no \"target\", which replay prints in this line",
                assertThrows(ConformException.class, () -> ScenarioReader.read(dir)).getMessage());
    }
}
