package io.proofgate.bytecheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.proofgate.protocol.Group;
import io.proofgate.protocol.Topology;
import io.proofgate.words.GroupPolicy;

import org.junit.jupiter.api.Test;

import java.util.List;

/** A plan that is not one page per group is a finding of the plan, placed at no group or block it does not have. */
class PlanShapeTest {

    @Test
    void aPlanOfAnotherNumberOfGroupsNamesNoGroupOrBlock() {
        PlanContents contents =
                new PlanContents(
                        Topology.of(
                                new Group(0, GroupPolicy.FULL, 16, 0),
                                new Group(1, GroupPolicy.RECURRENT_ALIGN, 16, 0)));
        List<ByteFinding> findings = contents.check(2, "r1", "d1", 16, new long[][] {{1}, {2}, {3}}, null);
        assertEquals(
                List.of(
                        "step 2 request r1: published page is not blocks for each of the topology's 2 groups; the plan"
                                + " names 3 groups"),
                findings.stream().map(ByteFinding::message).toList());
    }
}
