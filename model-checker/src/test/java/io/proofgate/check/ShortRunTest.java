package io.proofgate.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

/**
 * Which models run as short runs: those spec/models.json marks {@code "shortRun": true}, measured faster that way
 * (docs/performance.md, "TLC runs: a short run without C2"), and only those.
 */
class ShortRunTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void theMarkedModelsRunShortAndTheLargeOnesDoNot() throws Exception {
        ModelCatalog catalog = ModelCatalog.of(ROOT.resolve("spec"));
        for (String name : List.of("ci", "gen-edges", "gen-selection")) {
            assertTrue(catalog.resolve(name).shortRun(), name);
            assertTrue(
                    ModelCheck.command(
                                    catalog.resolve(name),
                                    CheckOptions.defaults(
                                            1, ROOT.resolve("target/proofgate/test/short-run").resolve(name)))
                            .shortRun(),
                    name);
        }
        // measured slower as short runs: C2's code pays for itself
        for (String name : List.of("interleaved", "liveness", "producer", "gen-batch")) {
            assertFalse(catalog.resolve(name).shortRun(), name);
            assertFalse(
                    ModelCheck.command(
                                    catalog.resolve(name),
                                    CheckOptions.defaults(
                                            1, ROOT.resolve("target/proofgate/test/short-run").resolve(name)))
                            .shortRun(),
                    name);
        }
    }

    @Test
    void aModelWithoutTheMarkRunsAsUsualAndCiIsMarked() throws Exception {
        Model ci = ModelCatalog.of(ROOT.resolve("spec")).resolve("ci");
        Model unmarked =
                new Model(
                        ci.name(),
                        ci.module(),
                        ci.config(),
                        ci.expected(),
                        ci.distinctStates(),
                        ci.description(),
                        ci.specDir());
        assertFalse(unmarked.shortRun(), "a model without the mark (an unlisted config) runs as usual");
        assertEquals(
                ci,
                new Model(
                        ci.name(),
                        ci.module(),
                        ci.config(),
                        ci.expected(),
                        ci.distinctStates(),
                        ci.description(),
                        ci.specDir(),
                        true));
    }
}
