package io.proofgate.conform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.words.CopyTiming;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

/** How the kit reads an adapter's answer lines: what each field means, and what is refused. */
class AnswerReaderTest {

    @Test
    void aStringBeyondTheParsersLimitIsRefusedWhereverItStands() {
        int limit = Json.READER.getFactory().streamReadConstraints().getMaxStringLength();
        String line =
                "{\"kind\":\"retired\",\"id\":\"r1\",\"step\":1,\"cause\":\"finished\",\"note\":\""
                        + "a".repeat(limit + 1)
                        + "\"}";
        AdapterException refused = assertThrows(AdapterException.class, () -> AnswerReader.read(line));
        assertTrue(
                refused.getMessage().contains("a string is longer than " + limit + " characters"),
                refused.getMessage());
    }

    /**
     * A line's words join its fields: a code with its facts written into it read as that code with those facts, and
     * passed a run whose adapter declares reason_facts without stating one.
     */
    @Test
    void aCodeOrCauseNoneOfTheProtocolsIsRefused() throws AdapterException {
        for (String line :
                List.of(
                        "{\"kind\":\"rejected\",\"step\":2,\"id\":\"r1\",\"code\":\"future_boundary observed=8448"
                                + " target=8192 group=1\"}",
                        "{\"kind\":\"retired\",\"step\":3,\"id\":\"r1\",\"cause\":\"quorum step=3\"}")) {
            AdapterException refused = assertThrows(AdapterException.class, () -> AnswerReader.read(line));
            assertTrue(
                    refused.getMessage()
                            .matches(
                                    "printed a (rejection whose code is neither one of .* nor a word of its own"
                                            + "|retirement whose cause is none of ).*"),
                    refused.getMessage());
        }
        assertEquals(
                "rejected r1 step=2 code=future_boundary",
                ((Line.Rejected)
                                AnswerReader.read(
                                        "{\"kind\":\"rejected\",\"step\":2,\"id\":\"r1\",\"code\":\"future_boundary\"}"))
                        .words(Set.of()));
    }

    /** How a plan's blocks are copied is read and checked: a copy skipped would be judged in the plan's step. */
    @Test
    void aPlansCopyAndPinAreReadAndChecked() throws AdapterException {
        String plan =
                "{\"kind\":\"plan\",\"step\":2,\"id\":\"r1\",\"digest\":\"d1\",\"span\":2304,"
                        + "\"blocks_by_group\":[[11],[41]],\"recurrent\":[[1,41]]";
        Line.Plan read = (Line.Plan) AnswerReader.read(plan + ",\"copy\":\"async\",\"pinned\":true}");
        assertEquals(CopyTiming.ASYNC, read.copy());
        assertTrue(read.pinned());
        assertEquals(
                ((Line.Plan) AnswerReader.read(plan + "}")).words(Set.of()),
                read.words(Set.of()),
                "how it is copied is not compared with a policy");
        assertEquals(CopyTiming.IN_STEP, ((Line.Plan) AnswerReader.read(plan + ",\"copy\":\"in_step\"}")).copy());
        for (String bad :
                List.of(
                        plan + ",\"copy\":\"later\"}",
                        plan + ",\"copy\":\"async\",\"pinned\":1}",
                        plan + ",\"pinned\":true}")) {
            AdapterException refused = assertThrows(AdapterException.class, () -> AnswerReader.read(bad));
            assertTrue(
                    refused.getMessage()
                            .matches(
                                    "printed a plan (whose \"copy\" is neither|whose \"pinned\" is not"
                                            + "|pinned for a copy in its step).*"),
                    refused.getMessage());
        }
        Line.Saved saved =
                (Line.Saved)
                        AnswerReader.read(
                                "{\"kind\":\"saved\",\"step\":4,\"id\":\"r1\",\"digest\":\"d1\",\"span\":2304}");
        assertTrue(read.endsWith(saved));
        assertFalse(
                ((Line.Plan) AnswerReader.read(plan + "}")).endsWith(saved), "a copy in the step has no saved line");
    }

    /**
     * A verdict's words are the scenario format's, with the step after the request's whole id (which may hold a space).
     */
    @Test
    void aVerdictsWordsAreTheScenarioLineWithItsStep() throws AdapterException {
        Line.VerdictLine plan =
                (Line.VerdictLine)
                        AnswerReader.read(
                                "{\"kind\":\"plan\",\"step\":2,\"id\":\"r 1\","
                                    + "\"digest\":\"d1\",\"span\":2304,\"blocks_by_group\":[[11],[41]],\"recurrent\":[[1,41]]}");
        assertEquals("plan r 1 digest=d1 span=2304 blocks=[[11],[41]] recurrent=[[1,41]]", plan.said().text());
        assertEquals("plan r 1 step=2 digest=d1 span=2304 blocks=[[11],[41]] recurrent=[[1,41]]", plan.words(Set.of()));
        Line.VerdictLine rejected =
                (Line.VerdictLine)
                        AnswerReader.read(
                                "{\"kind\":\"rejected\",\"step\":3,"
                                        + "\"id\":\"r2\",\"code\":\"empty\",\"reason\":\"an empty list entry=0\"}");
        assertEquals("rejected r2 step=3 code=empty", rejected.words(Set.of()));
        assertEquals(
                "rejected r2 step=3 code=empty entry=0",
                rejected.words(Set.of(io.proofgate.words.Capability.REASON_FACTS)));
    }

    /**
     * A rejection for a reason of the connector's own is its behaviour: a verdict, compared like any, never an error.
     */
    @Test
    void aRejectionCodeOfTheConnectorsOwnIsAVerdict() throws AdapterException {
        assertEquals(
                "rejected r1 step=2 code=no_boundary_mapping",
                ((Line.Rejected)
                                AnswerReader.read(
                                        "{\"kind\":\"rejected\",\"step\":2,\"id\":\"r1\",\"code\":\"no_boundary_mapping\"}"))
                        .words(Set.of()));
    }

    /**
     * Fields the protocol does not name are ignored; a key twice, text after the object and a missing kind are refused.
     */
    @Test
    void unknownFieldsAreIgnoredAndMalformedObjectsRefused() throws AdapterException {
        assertEquals(
                new Line.Retired("r1", "3", "finished"),
                AnswerReader.read(
                        "{\"kind\":\"retired\",\"step\":3,\"id\":\"r1\",\"cause\":\"finished\",\"note\":[1,{}]}"));
        for (String bad :
                List.of(
                        "{\"kind\":\"retired\",\"step\":3,\"step\":4,\"id\":\"r1\",\"cause\":\"finished\"}",
                        "{\"kind\":\"end\"} {}",
                        "{\"step\":3}",
                        "[1]")) {
            assertThrows(AdapterException.class, () -> AnswerReader.read(bad), bad);
        }
    }
}
