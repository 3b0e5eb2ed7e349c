package io.proofgate.generate;

import io.proofgate.graph.Edge;
import io.proofgate.graph.StateGraph;
import io.proofgate.value.TlaValue;
import io.proofgate.words.GroupPolicy;
import io.proofgate.words.PoisonCode;
import io.proofgate.words.SelectionProblem;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.Set;

/**
 * Which cells of plan block selection (protocol §3) the written scenarios reach: each group's policy, crossed with the
 * target a multiple of the group's block size or not, a sliding window shorter than, equal to or longer than the target
 * and a multiple of the block size or not, and the group's table shorter than, equal to or longer than what the policy
 * selects. A cell is reached by a scenario whose expectations hold a plan (the group's selected blocks are in it), or,
 * for a table shorter than the selection, an {@code invalid_selection short_table} rejection naming that group (a
 * rejection naming an earlier group says nothing about this one). Read from the written files walked on the state
 * graph, like {@link WrittenCoverage}, so a scenario that is not written reaches nothing.
 */
final class SelectionCoverage {

    static final String MULTIPLE = "multiple";
    static final String NOT_MULTIPLE = "not a multiple";
    static final String NONE = "-";

    /** One cell; the dimensions a policy does not read are {@link #NONE}. */
    record Cell(String policy, String target, String window, String windowSize, String table) {
        String row() {
            return "| " + policy + " | " + target + " | " + window + " | " + windowSize + " | " + table + " |";
        }
    }

    private SelectionCoverage() {}

    /**
     * Every cell the protocol allows, in the order COVERAGE.md lists them. A window equal to the target is a multiple
     * of the block size exactly when the target is, so those two cells are not allowed; a recurrent group's selection
     * is its latched block, whatever its table and window.
     */
    static List<Cell> allowed() {
        List<Cell> cells = new ArrayList<>();
        List<String> sizes = List.of(MULTIPLE, NOT_MULTIPLE);
        List<String> tables = List.of("shorter", "equal", "longer");
        for (String target : sizes) {
            for (String table : tables) {
                cells.add(new Cell(GroupPolicy.FULL.wireName(), target, NONE, NONE, table));
            }
        }
        for (String target : sizes) {
            for (String window : List.of("shorter", "equal", "longer")) {
                for (String windowSize : sizes) {
                    if (window.equals("equal") && !windowSize.equals(target)) {
                        continue;
                    }
                    for (String table : tables) {
                        cells.add(new Cell(GroupPolicy.SLIDING.wireName(), target, window, windowSize, table));
                    }
                }
            }
        }
        for (String target : sizes) {
            cells.add(new Cell(GroupPolicy.RECURRENT_ALIGN.wireName(), target, NONE, NONE, NONE));
        }
        return List.copyOf(cells);
    }

    /** The allowed cells no scenario reaches. */
    static List<Cell> uncovered(Map<Cell, Integer> counts) {
        return allowed().stream().filter(cell -> counts.getOrDefault(cell, 0) == 0).toList();
    }

    /** Scenarios reaching each cell, over every allowed cell (0 where none does). */
    static SequencedMap<Cell, Integer> count(StateGraph graph, Map<String, String> files) {
        Map<Cell, Set<String>> reached = new HashMap<>();
        WrittenScenarios.Walker walker = new WrittenScenarios.Walker(graph);
        List<TlaValue> groups =
                ModelState.sequence(
                        ModelState.field(
                                new ModelState(graph.state(graph.initialStates().getFirst())).lastEvent(), "groups"));
        for (WrittenScenarios.Written scenario : WrittenScenarios.read(files)) {
            List<Edge> path =
                    walker.walk(scenario.labels())
                            .orElseThrow(
                                    () ->
                                            new GenerationException(
                                                    scenario.file()
                                                            + ": scenario "
                                                            + scenario.name()
                                                            + ": its events are not a path of the state graph"));
            for (Edge edge : path) {
                for (Cell cell :
                        cells(
                                groups,
                                new ModelState(graph.state(edge.from())),
                                new ModelState(graph.state(edge.to())))) {
                    reached.computeIfAbsent(cell, c -> new HashSet<>()).add(scenario.file() + "/" + scenario.name());
                }
            }
        }
        return merge(List.of(), reached);
    }

    /** Sums per-model counts over every allowed cell. */
    static SequencedMap<Cell, Integer> sum(List<? extends Map<Cell, Integer>> counts) {
        return merge(counts, Map.of());
    }

    private static SequencedMap<Cell, Integer> merge(
            List<? extends Map<Cell, Integer>> counts, Map<Cell, Set<String>> reached) {
        SequencedMap<Cell, Integer> all = new LinkedHashMap<>();
        List<Cell> allowed = allowed();
        for (Cell cell : allowed) {
            all.put(cell, reached.getOrDefault(cell, Set.of()).size());
        }
        for (Map<Cell, Integer> one : counts) {
            one.forEach((cell, n) -> all.merge(cell, n, Integer::sum));
        }
        for (Cell cell : reached.keySet()) {
            if (!allowed.contains(cell)) {
                // the classification and the protocol disagree: fail rather than print a wrong table
                throw new GenerationException(
                        "a scenario reaches the selection cell " + cell.row() + ", which the protocol does not allow");
            }
        }
        return all;
    }

    /** The cells the verdicts of one edge reach. */
    private static List<Cell> cells(List<TlaValue> groups, ModelState from, ModelState to) {
        List<Cell> cells = new ArrayList<>();
        TlaValue.TlaRecord event = to.lastEvent();
        if (!to.eventKind().equals("step")) {
            return cells;
        }
        for (TlaValue.TlaRecord verdict : to.verdicts()) {
            String kind = ModelState.string(ModelState.field(verdict, "kind"));
            String id = ModelState.string(ModelState.field(verdict, "id"));
            if (kind.equals("plan")) {
                // a plan line names the target "span" on the wire (protocol §2, "One name per term")
                long target = ModelState.integer(ModelState.field(verdict, "span"));
                List<List<TlaValue>> table = table(event, from, id);
                for (int g = 0; g < groups.size(); g++) {
                    cells.add(cell(ModelState.record(groups.get(g), "group"), target, table.get(g).size()));
                }
            } else if (kind.equals("rejected")
                    && ModelState.string(ModelState.field(verdict, "code"))
                            .equals(PoisonCode.INVALID_SELECTION.wireName())
                    && verdict.get("problem")
                            .map(ModelState::string)
                            .orElse("")
                            .equals(SelectionProblem.SHORT_TABLE.wireName())) {
                long target = ModelState.integer(ModelState.field(verdict, "target"));
                int g = (int) ModelState.integer(ModelState.field(verdict, "group"));
                cells.add(
                        cell(ModelState.record(groups.get(g), "group"), target, table(event, from, id).get(g).size()));
            }
        }
        return cells;
    }

    private static Cell cell(TlaValue.TlaRecord group, long target, int tableLength) {
        String policy = ModelState.string(ModelState.field(group, "policy"));
        long block = ModelState.integer(ModelState.field(group, "block_tokens"));
        String targetSize = target % block == 0 ? MULTIPLE : NOT_MULTIPLE;
        if (policy.equals(GroupPolicy.RECURRENT_ALIGN.wireName())) {
            return new Cell(policy, targetSize, NONE, NONE, NONE);
        }
        long selected =
                (target + block - 1) / block; // both policies select up to the block holding the target's last token
        String table = tableLength < selected ? "shorter" : tableLength == selected ? "equal" : "longer";
        if (policy.equals(GroupPolicy.FULL.wireName())) {
            return new Cell(policy, targetSize, NONE, NONE, table);
        }
        long window = ModelState.integer(ModelState.field(group, "window_tokens"));
        return new Cell(
                policy,
                targetSize,
                window < target ? "shorter" : window == target ? "equal" : "longer",
                window % block == 0 ? MULTIPLE : NOT_MULTIPLE,
                table);
    }

    /** The request's table per group after the step: the new request's, or the store's extended or replaced. */
    private static List<List<TlaValue>> table(TlaValue.TlaRecord event, ModelState from, String id) {
        Optional<TlaValue.TlaRecord> fresh = entry(event, "new", id);
        if (fresh.isPresent()) {
            return ModelState.sequence(ModelState.field(fresh.get(), "block_ids")).stream()
                    .map(ModelState::sequence)
                    .toList();
        }
        TlaValue.TlaRecord cached =
                entry(event, "cached", id)
                        .orElseThrow(
                                () ->
                                        new GenerationException(
                                                "a verdict names " + id + ", which the step does not schedule"));
        List<List<TlaValue>> added =
                ModelState.sequence(ModelState.field(cached, "new_block_ids")).stream()
                        .map(ModelState::sequence)
                        .toList();
        if (ModelState.field(cached, "resumed") instanceof TlaValue.TlaBool(boolean resumed) && resumed) {
            return added;
        }
        TlaValue.TlaRecord store = from.pendingStores().get(id);
        if (store == null) {
            throw new GenerationException("a verdict names " + id + ", which has no pending store before the step");
        }
        List<List<TlaValue>> before =
                ModelState.sequence(ModelState.field(store, "table")).stream().map(ModelState::sequence).toList();
        List<List<TlaValue>> after = new ArrayList<>();
        for (int g = 0; g < before.size(); g++) {
            List<TlaValue> blocks = new ArrayList<>(before.get(g));
            blocks.addAll(added.get(g));
            after.add(blocks);
        }
        return after;
    }

    private static Optional<TlaValue.TlaRecord> entry(TlaValue.TlaRecord event, String list, String id) {
        for (TlaValue value : ModelState.sequence(ModelState.field(event, list))) {
            TlaValue.TlaRecord entry = ModelState.record(value, list + " entry");
            if (ModelState.string(ModelState.field(entry, "id")).equals(id)) {
                return Optional.of(entry);
            }
        }
        return Optional.empty();
    }

    /** The matrix as COVERAGE.md shows it. */
    static String text(Map<Cell, Integer> counts) {
        StringBuilder text =
                new StringBuilder(
                        """

                        ## Plan block selection

                        Scenarios whose expectations reach each cell of plan block selection (protocol §3): a
                        plan, which names the group's selected blocks, or for a table shorter than the selection
                        an `invalid_selection short_table` rejection naming the group. Target and window are
                        compared with the group's block size; "table" is the group's table after the step
                        against the blocks up to the one holding the target's last token. A recurrent group
                        selects its latched block, whatever its table. Every cell the protocol allows is listed;
                        `SelectionCoverageTest` fails when one has no scenario.

                        | policy | target | window against the target | window | table against the selection | scenarios |
                        |---|---|---|---|---|---|
                        """);
        for (Cell cell : allowed()) {
            text.append(cell.row()).append(' ').append(counts.getOrDefault(cell, 0)).append(" |\n");
        }
        List<Cell> missing = uncovered(counts);
        text.append('\n')
                .append(
                        missing.isEmpty()
                                ? "Every allowed cell is reached.\n"
                                : "Cells no scenario reaches: " + missing.size() + ".\n");
        return text.toString();
    }
}
