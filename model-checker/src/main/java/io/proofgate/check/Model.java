package io.proofgate.check;

import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One TLC model: a module with its config, and what checking it must show.
 *
 * @param name how {@code --model} names it ("ci", "deep", or the config's file name)
 * @param distinctStates the pinned distinct-state count, where known (never depth: it is not
 *     reproducible with several workers)
 * @param specDir where the modules a model extends live (a mutant's module sits in a subfolder)
 */
public record Model(String name, Path module, Path config, Expected expected, OptionalLong distinctStates,
                    String description, Path specDir) {

    /** What TLC must report for the model. */
    public sealed interface Expected {
        record Ok() implements Expected {}

        /** A violation; {@code property} is the invariant or property TLC must name, if it names one. */
        record Violation(Optional<String> property) implements Expected {}
    }
}
