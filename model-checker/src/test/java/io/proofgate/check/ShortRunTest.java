package io.proofgate.check;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Which models run as short runs: those pinned at few distinct states, by spec/models.json. */
class ShortRunTest {

    private static Model pinnedAt(OptionalLong states) {
        return new Model("m", Path.of("/spec/MC.tla"), Path.of("/spec/MC.cfg"), new Model.Expected.Ok(), states, "",
                Path.of("/spec"));
    }

    @Test
    void aModelPinnedAtFewStatesIsShortAndOneUnpinnedOrLargeIsNot() throws Exception {
        assertTrue(ModelCheck.isShortRun(pinnedAt(OptionalLong.of(ModelCheck.SHORT_RUN_STATES))));
        assertFalse(ModelCheck.isShortRun(pinnedAt(OptionalLong.of(ModelCheck.SHORT_RUN_STATES + 1))));
        assertFalse(ModelCheck.isShortRun(pinnedAt(OptionalLong.empty())), "deep pins no count: it runs long");

        ModelCatalog catalog = ModelCatalog.of(Path.of("..").toAbsolutePath().normalize().resolve("spec"));
        assertTrue(ModelCheck.isShortRun(catalog.resolve("ci")));
        assertFalse(ModelCheck.isShortRun(catalog.resolve("interleaved")), "34,887 states: C2 pays for itself");
        assertFalse(ModelCheck.isShortRun(catalog.resolve("producer")));
        assertTrue(ModelCheck.command(catalog.resolve("gen-edges"), CheckOptions.defaults(1,
                Path.of("..").toAbsolutePath().normalize().resolve("target/proofgate/test/short-run"))).shortRun());
    }
}
