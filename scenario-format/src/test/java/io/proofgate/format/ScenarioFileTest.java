package io.proofgate.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import java.util.List;

class ScenarioFileTest {

    private static final String TOPOLOGY = "{\"kind\":\"topology\"}";
    private static final List<ScenarioStep> STEPS =
            List.of(
                    new ScenarioStep(
                            "{\"kind\":\"step\",\"step\":1}",
                            List.of(
                                    "rejected r1 code=empty",
                                    "pending none",
                                    "counters plans=0 rejected=1 store_skipped_quorum=0 retired_finished=0")),
                    new ScenarioStep(
                            "{\"kind\":\"finished\",\"id\":\"r1\"}",
                            List.of(
                                    "pending none",
                                    "counters plans=0 rejected=1 store_skipped_quorum=0 retired_finished=0")));

    @Test
    void writtenFile_readsBackItsScenarios() {
        String block = ScenarioBlock.write("empty__r1", List.of("covers event 1"), STEPS);
        String text =
                ScenarioFile.write(
                        List.of("Generated. Do not edit."),
                        TOPOLOGY,
                        List.of(block, block.replace("empty__r1", "other")));
        assertEquals(
                """
                # Generated. Do not edit.
                topology {"kind":"topology"}

                scenario empty__r1
                # covers event 1
                event {"kind":"step","step":1}
                ----
                rejected r1 code=empty
                pending none
                counters plans=0 rejected=1 store_skipped_quorum=0 retired_finished=0

                event {"kind":"finished","id":"r1"}
                ----
                pending none
                counters plans=0 rejected=1 store_skipped_quorum=0 retired_finished=0
                """,
                text.substring(0, text.indexOf("\nscenario other")));
        ScenarioFile read = ScenarioFile.read("t.scenarios", text.lines().toList());
        assertEquals(TOPOLOGY, read.topology());
        assertEquals(List.of("empty__r1", "other"), read.scenarios().stream().map(ScenarioBlock::name).toList());
        ScenarioBlock first = read.scenarios().getFirst();
        assertEquals(4, first.line());
        assertEquals(List.of(6, 12), first.steps().stream().map(ScenarioStep::line).toList());
        assertEquals(
                STEPS.stream().map(ScenarioStep::expected).toList(),
                first.steps().stream().map(ScenarioStep::expected).toList());
        assertEquals(block + "\n", first.text());
    }

    @Test
    void script_isATopologyAndSteps() {
        ScenarioFile.Script script =
                ScenarioFile.readScript(
                        "script",
                        "topology "
                                + TOPOLOGY
                                + "\n\n"
                                + ScenarioBlock.write("x", List.of(), STEPS)
                                        .lines()
                                        .skip(1)
                                        .map(l -> l + "\n")
                                        .reduce("", String::concat));
        assertEquals(TOPOLOGY, script.topology());
        assertEquals(
                STEPS.stream().map(ScenarioStep::event).toList(),
                script.steps().stream().map(ScenarioStep::event).toList());
    }

    @Test
    void malformedFiles_areLocatedErrors() {
        assertEquals(
                "f:4:1: an event line must be followed by ----",
                assertThrows(
                                ScenarioFormatException.class,
                                () ->
                                        ScenarioFile.read(
                                                "f", List.of("topology {}", "scenario a", "event {}", "pending none")))
                        .getMessage());
        assertEquals(
                "f:1:1: a scenario before the topology line",
                assertThrows(ScenarioFormatException.class, () -> ScenarioFile.read("f", List.of("scenario a")))
                        .getMessage());
        assertEquals(
                "f:2:1: scenario a has no events",
                assertThrows(
                                ScenarioFormatException.class,
                                () -> ScenarioFile.read("f", List.of("topology {}", "scenario a")))
                        .getMessage());
        assertEquals(
                "f:1:1: no scenarios",
                assertThrows(ScenarioFormatException.class, () -> ScenarioFile.read("f", List.of("topology {}")))
                        .getMessage());
        // an editor's byte order mark is named, not read as a line of no known form
        assertEquals(
                "f:1:1: a byte order mark (U+FEFF) starts the line: a scenario file is UTF-8 without one",
                assertThrows(
                                ScenarioFormatException.class,
                                () -> ScenarioFile.read("f", List.of("\uFEFF# a comment", "topology {}")))
                        .getMessage());
    }

    /**
     * Split is for comparing files that may be broken: it takes what it can and refuses only an event outside a
     * scenario.
     */
    @Test
    void split_readsBlocksOfAnyText() {
        assertEquals(List.of(), ScenarioBlock.split("f", List.of("one")));
        List<ScenarioBlock> blocks =
                ScenarioBlock.split(
                        "f",
                        List.of("# x", "scenario a", "event {}", "scenario b", "event {}", "----", "pending none"));
        assertEquals(List.of("a", "b"), blocks.stream().map(ScenarioBlock::name).toList());
        assertEquals(
                List.of(List.of(), List.of("pending none")),
                blocks.stream().map(b -> b.steps().getFirst().expected()).toList());
        assertEquals("scenario a\nevent {}\n", blocks.getFirst().text());
        assertEquals(
                "f:2:1: an event before any scenario line",
                assertThrows(
                                ScenarioFormatException.class,
                                () -> ScenarioBlock.split("f", List.of("topology {}", "event {}")))
                        .getMessage());
    }

    @Test
    void stateLines_readAsTheyAreWritten() {
        for (String line :
                List.of(
                        "plan r1 digest=d1 span=6912 blocks=[[11,12,13],[42]] recurrent=[[1,42]]",
                        "rejected r1 code=future_boundary observed=8448 target=8192",
                        "rejected r2 code=empty",
                        "retired r1 cause=finished",
                        "hit r3 tokens=6912",
                        "load r3 digest=d1 span=6912 blocks=[[61,62,63],[71]]",
                        "pending none",
                        "pending r1 done=6912 table=[[11],[0,71]] latch=[[1,42]]",
                        "held d1=[0,1]",
                        "counters plans=1 rejected=0 store_skipped_quorum=0 retired_finished=0")) {
            assertEquals(line, StateLine.read("f", 1, line).text());
        }
        assertEquals(
                "f:7:1: a retired line has 3 words, this one 4",
                assertThrows(
                                ScenarioFormatException.class,
                                () -> StateLine.read("f", 7, "retired r1 cause=finished extra"))
                        .getMessage());
        assertEquals(
                "f:7:1: expected tokens=... as word 3",
                assertThrows(ScenarioFormatException.class, () -> StateLine.read("f", 7, "hit r3 span=6912"))
                        .getMessage());
        assertEquals(
                "f:7:1: a load line has 5 words, this one 4",
                assertThrows(ScenarioFormatException.class, () -> StateLine.read("f", 7, "load r3 digest=d1 span=6912"))
                        .getMessage());
        assertEquals(
                "f:7:1: expected latch=... as word 5",
                assertThrows(ScenarioFormatException.class, () -> StateLine.read("f", 7, "pending r1 done=1"))
                        .getMessage());
    }
}
