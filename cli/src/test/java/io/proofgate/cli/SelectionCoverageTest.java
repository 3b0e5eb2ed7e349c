package io.proofgate.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import java.util.List;

/**
 * Every cell of plan block selection that the protocol allows (policy, span and window against the block size, window
 * against the span, table against the selection) is reached by a generated scenario whose expectations show it
 * (generated-tests/COVERAGE.md, "Plan block selection").
 */
class SelectionCoverageTest {

    @Test
    void everyAllowedSelectionCellHasAScenario() throws Exception {
        assertEquals(
                List.of(),
                CurrentGeneration.output().summary().selectionNotReached(),
                "cells of plan block selection that no generated scenario reaches (add them to a generation model)");
    }
}
