package io.proofgate.check;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/**
 * One TLC model: a module with its config, and what checking it must show.
 *
 * @param name how {@code --model} names it (its name in spec/models.json, or an unlisted config's file name)
 * @param distinctStates the pinned distinct-state count, where known (never depth: it is not reproducible with several
 *     workers)
 * @param specDir where the modules a model extends live (a mutant's module sits in a subfolder)
 * @param shortRun TLC's child runs it as a short run ({@code shortRun} in spec/models.json: {@link
 *     io.proofgate.tlc.TlcCommand#shortRun()})
 */
public record Model(
        String name,
        Path module,
        Path config,
        Expected expected,
        OptionalLong distinctStates,
        String description,
        Path specDir,
        boolean shortRun) {

    /** A model TLC runs as usual (not as a short run). */
    public Model(
            String name,
            Path module,
            Path config,
            Expected expected,
            OptionalLong distinctStates,
            String description,
            Path specDir) {
        this(name, module, config, expected, distinctStates, description, specDir, false);
    }

    /** What TLC must report for the model. */
    public sealed interface Expected {
        record Ok() implements Expected {}

        /** A violation of the invariant or property TLC must name. */
        record Violation(String property) implements Expected {}

        /** Each invariant violated, each in a run of its own (non-vacuity: each is reachable). */
        record EachViolated(List<String> invariants) implements Expected {}
    }

    /**
     * The state bound of a check against the record: twice the recorded distinct states and a thousand more. A run that
     * finds that many has changed beyond the record (it fails the check anyway), so stopping it there loses nothing,
     * and stops it at the same state on every machine instead of at a time that depends on the machine's load. Empty
     * where nothing is recorded.
     */
    public OptionalLong recordedBound() {
        return distinctStates.isPresent()
                ? OptionalLong.of(2 * distinctStates.getAsLong() + 1000)
                : OptionalLong.empty();
    }
}
