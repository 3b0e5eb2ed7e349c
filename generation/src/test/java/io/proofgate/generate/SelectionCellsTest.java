package io.proofgate.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The cells of plan block selection, and the check that names a cell no scenario reaches. */
class SelectionCellsTest {

    @Test
    void theProtocolAllowsThirtyEightCells() {
        List<SelectionCoverage.Cell> cells = SelectionCoverage.allowed();
        // full: 2 spans x 3 tables; sliding: 2 spans x 3 windows x 2 window sizes x 3 tables, less the
        // 2 x 3 where a window equal to the span differs from it in being a multiple; recurrent: 2 spans
        assertEquals(6 + 30 + 2, cells.size());
        assertEquals(cells.size(), Set.copyOf(cells).size());
        assertTrue(cells.stream().noneMatch(c -> c.window().equals("equal") && !c.windowSize().equals(c.target())));
    }

    @Test
    void aCellWithoutScenariosIsNamed() {
        Map<SelectionCoverage.Cell, Integer> counts = new HashMap<>();
        SelectionCoverage.allowed().forEach(cell -> counts.put(cell, 1));
        assertEquals(List.of(), SelectionCoverage.uncovered(counts));
        SelectionCoverage.Cell dropped =
                new SelectionCoverage.Cell(
                        "sliding", SelectionCoverage.NOT_MULTIPLE, "longer", SelectionCoverage.MULTIPLE, "shorter");
        counts.put(dropped, 0);
        assertEquals(List.of(dropped), SelectionCoverage.uncovered(counts));
        counts.remove(dropped);
        assertEquals(List.of(dropped), SelectionCoverage.uncovered(counts));
        String text = SelectionCoverage.text(counts);
        assertTrue(text.contains("| sliding | not a multiple | longer | multiple | shorter | 0 |"), text);
        assertTrue(text.contains("Cells no scenario reaches: 1."), text);
    }

    @Test
    void sumsAddPerModelCounts() {
        SelectionCoverage.Cell full = SelectionCoverage.allowed().getFirst();
        var sum = SelectionCoverage.sum(List.of(Map.of(full, 2), Map.of(full, 3)));
        assertEquals(5, sum.get(full));
        assertEquals(SelectionCoverage.allowed().size(), sum.size());
    }
}
