package io.proofgate.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** A spec verdict's line in replay's JSON shape: each kind, its fields in the line's order. */
class VerdictJsonTest {

    @Test
    void aPlanKeepsItsFieldsInOrderWithTheListsAsJson() {
        assertEquals(
                "{\"kind\":\"plan\",\"step\":3,\"id\":\"r1\",\"digest\":\"d1\",\"span\":6912,"
                        + "\"blocks_by_group\":[[1001,1002],[1015]],\"recurrent\":[[1,1015]]}",
                VerdictJson.of("plan r1 digest=d1 span=6912 blocks=[[1001,1002],[1015]] recurrent=[[1,1015]]", 3)
                        .toString());
    }

    @Test
    void aRejectionKeepsItsFactsAfterItsCode() {
        assertEquals(
                "{\"kind\":\"rejected\",\"step\":2,\"id\":\"r2\",\"code\":\"future_boundary\",\"observed\":8448,"
                        + "\"target\":8192}",
                VerdictJson.of("rejected r2 code=future_boundary observed=8448 target=8192", 2).toString());
        assertEquals(
                "{\"kind\":\"retired\",\"step\":5,\"id\":\"r1\",\"cause\":\"finished\"}",
                VerdictJson.of("retired r1 cause=finished", 5).toString());
    }

    @Test
    void aLineThatIsNoVerdictIsRefused() {
        assertThrows(IllegalStateException.class, () -> VerdictJson.of("pending none", 1));
        assertThrows(IllegalArgumentException.class, () -> VerdictJson.of("plan r1 digest=d1", 1));
    }
}
