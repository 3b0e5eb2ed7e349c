package io.proofgate.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** The contents line of a scenario that states vLLM's block contents: read, written, refused at its place. */
class ContentsLineTest {

    @Test
    void aContentsLineReadsBackAsWritten() {
        String text = "contents 1=d1@4 2=none 10=d2@2 released=[2,10]";
        StateLine.Contents read = (StateLine.Contents) StateLine.read("f", 3, text);
        assertEquals(text, read.text());
        assertEquals(new TreeSet<>(List.of(2L, 10L)), read.released());
        assertEquals(
                new TreeMap<>(
                        Map.of(1L, new StateLine.Contents.State("d1", 4), 10L, new StateLine.Contents.State("d2", 2))),
                read.states());
        assertEquals(
                "contents 1=none released=[]",
                new StateLine.Contents(new TreeMap<>(Map.of(1L, "none")), new TreeSet<>()).text());
    }

    @Test
    void aMalformedContentsLineIsRefusedAtItsPlace() {
        for (var bad :
                Map.of(
                                "contents 1=d1 released=[]",
                                        "f:7:1: a block of a contents line reads BLOCK=DIGEST@TOKENS or BLOCK=none,"
                                                + " found \"1=d1\"",
                                "contents 1=d1@4",
                                        "f:7:1: a contents line reads contents BLOCK=HOLDS ... released=[BLOCKS]",
                                "contents released=[]",
                                        "f:7:1: a contents line reads contents BLOCK=HOLDS ... released=[BLOCKS]",
                                "contents 1=none 1=d1@2 released=[]", "f:7:1: block 1 appears twice in a contents line",
                                "contents 1=none released=[2]",
                                        "f:7:1: released block 2 is not one of the line's blocks, or is named twice",
                                "contents 1=none released=[1,1]",
                                        "f:7:1: released block 1 is not one of the line's blocks, or is named twice",
                                "contents 01=none released=[]",
                                        "f:7:1: a block of a contents line reads BLOCK=DIGEST@TOKENS or BLOCK=none,"
                                                + " found \"01=none\"")
                        .entrySet()) {
            ScenarioFormatException e =
                    assertThrows(
                            ScenarioFormatException.class, () -> StateLine.read("f", 7, bad.getKey()), bad.getKey());
            assertEquals(bad.getValue(), e.getMessage(), bad.getKey());
        }
    }
}
