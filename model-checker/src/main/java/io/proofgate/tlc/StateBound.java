package io.proofgate.tlc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A bound on the work of one TLC run, counted in distinct states instead of seconds, so that whether a run finishes
 * does not depend on how fast or how loaded the machine is. With one worker TLC explores states in the same order on
 * every machine, so a run stops at the same state wherever it runs, and a violation found before the bound is found
 * everywhere.
 *
 * <p>TLC has no option for it; the bound is an invariant, {@value #INVARIANT}, that {@code TLCGet("distinct")} keeps at
 * or under the bound, in a module of its own that extends the model's module, with a copy of the model's config that
 * adds it. A run whose only violation is that invariant stopped at the bound: its outcome is unknown, never a pass and
 * never a violation of the model.
 *
 * @param maxStates the distinct states a run may find; one more stops it
 */
public record StateBound(long maxStates) {

    /** The invariant's name, and the module's: no spec of the project uses it. */
    public static final String INVARIANT = "ProofgateStateBound";

    public StateBound {
        if (maxStates < 1) {
            throw new IllegalArgumentException("a state bound must be at least 1, not " + maxStates);
        }
    }

    /** Whether {@code result} is a run stopped by this bound, not by a violation of its model. */
    public static boolean stopped(TlcRun run) {
        return run.ending() == TlcEnding.VIOLATION && run.violatedName().equals(java.util.Optional.of(INVARIANT));
    }

    /**
     * The command that runs {@code command} under this bound: the bounding module and config are written into a folder
     * of the run's own ({@code bound/} beside its metadir), TLC runs there, and finds the model's module through the
     * library path.
     */
    TlcCommand wrap(TlcCommand command) throws IOException {
        Path spec = command.spec().toAbsolutePath();
        String module = spec.getFileName().toString().replaceFirst("\\.tla$", "");
        Path config = command.config().orElse(spec.resolveSibling(module + ".cfg"));
        Path dir = command.metaDir().toAbsolutePath().resolveSibling("bound");
        Files.createDirectories(dir);
        Path wrapper = dir.resolve(INVARIANT + ".tla");
        // LOCAL INSTANCE: TLCGet without clashing with a model module that extends TLC itself
        Files.writeString(
                wrapper,
                "---- MODULE "
                        + INVARIANT
                        + " ----\n"
                        + "EXTENDS "
                        + module
                        + "\n"
                        + "LOCAL INSTANCE TLC\n"
                        + INVARIANT
                        + " == TLCGet(\"distinct\") <= "
                        + maxStates
                        + "\n"
                        + "====\n");
        Path bounded = dir.resolve(INVARIANT + ".cfg");
        String text = Files.readString(config);
        Files.writeString(bounded, text + (text.endsWith("\n") ? "" : "\n") + "INVARIANT\n    " + INVARIANT + "\n");
        List<Path> libraries = new ArrayList<>();
        libraries.add(spec.getParent());
        libraries.addAll(command.libraries());
        return command.with(
                f -> {
                    f.spec = wrapper;
                    f.config = java.util.Optional.of(bounded);
                    f.libraries = libraries;
                    f.stateBound = java.util.Optional.empty();
                });
    }
}
