package io.proofgate.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** spec/models.json is read strictly: every mistake that would silently weaken a check is an error. */
class ModelsFileTest {

    @TempDir Path dir;

    private static final String OK =
            "{\"name\": \"ci\", \"cfg\": \"A.cfg\", \"module\": \"A.tla\", \"mode\": \"safety\", \"expected\": \"ok\"";

    private ModelsFile read(String models) throws IOException {
        Path file = dir.resolve("models.json");
        Files.writeString(file, "{\"models\": [" + models + "]}");
        return ModelsFile.read(file);
    }

    private String error(String models) {
        return assertThrows(IOException.class, () -> read(models)).getMessage();
    }

    @Test
    void aWellFormedEntryIsRead() throws IOException {
        ModelsFile file = read(OK + ", \"distinctStates\": 12, \"generate\": true, \"inCi\": false}");
        ModelsFile.Entry entry = file.entries().getFirst();
        assertEquals("ci", entry.name());
        assertEquals("A.tla", entry.module());
        assertEquals(12, entry.distinctStates().getAsLong());
        assertTrue(entry.generate());
        assertTrue(!entry.inCi());
        assertTrue(!entry.shortRun(), "a model runs as usual unless marked");
        assertTrue(read(OK + ", \"shortRun\": true}").entries().getFirst().shortRun());
        assertTrue(error(OK + ", \"shortRun\": \"yes\"}").contains("shortRun"), error(OK + ", \"shortRun\": \"yes\"}"));
    }

    /** A model author edits this file by hand: an error points at the line and column of what is wrong. */
    @Test
    void anErrorIsAtTheLineAndColumnOfWhatIsWrong() throws IOException {
        Path file = dir.resolve("models.json");
        Files.writeString(
                file,
                "{\"models\": [\n  "
                        + OK
                        + "},\n  {\"name\": \"b\", \"cfg\": \"B.cfg\", \"module\": \"B.tla\",\n"
                        + "   \"mode\": \"safty\", \"expected\": \"ok\"}]}");
        assertEquals(
                file + ":4:12: model \"b\": \"mode\" is \"safety\" or \"liveness\", not \"safty\"",
                assertThrows(IOException.class, () -> ModelsFile.read(file)).getMessage());
        Files.writeString(file, "{\"models\": [\n  " + OK + ",\n   \"inCI\": false}]}");
        assertTrue(
                assertThrows(IOException.class, () -> ModelsFile.read(file))
                        .getMessage()
                        .startsWith(file + ":3:4: model \"ci\": unknown key \"inCI\""));
        Files.writeString(file, "{\"models\": [\n  " + OK + "},\n  " + OK + "}]}");
        assertEquals(
                file + ":3:12: two models are named \"ci\"",
                assertThrows(IOException.class, () -> ModelsFile.read(file)).getMessage());
    }

    @Test
    void unknownAndAliasKeysAreErrorsNamingTheKey() {
        assertTrue(error(OK + ", \"invarient\": \"X\"}").contains("unknown key \"invarient\""));
        assertTrue(
                error(
                                "{\"name\": \"ci\", \"config\": \"A.cfg\", \"module\": \"A.tla\", \"mode\": \"safety\","
                                        + " \"expected\": \"ok\"}")
                        .contains("unknown key \"config\""));
        assertTrue(error(OK + ", \"distinct_states\": 3}").contains("unknown key \"distinct_states\""));
    }

    @Test
    void anExpectedViolationMustNameItsInvariant() {
        String noName = OK.replace("\"expected\": \"ok\"", "\"expected\": \"violation\"") + "}";
        assertTrue(error(noName).contains("names its \"invariant\""), error(noName));
        String aliasResult = OK.replace("\"expected\": \"ok\"", "\"expected\": \"pass\"") + "}";
        assertTrue(error(aliasResult).contains("\"expected\" is \"ok\", \"violation\" or \"each-violated\""));
    }

    @Test
    void eachViolatedNeedsItsInvariants() throws IOException {
        String empty = OK.replace("\"expected\": \"ok\"", "\"expected\": \"each-violated\"") + ", \"invariants\": []}";
        assertTrue(error(empty).contains("non-empty list"));
        ModelsFile file =
                read(
                        OK.replace("\"expected\": \"ok\"", "\"expected\": \"each-violated\"")
                                + ", \"invariants\": [\"DebugA\", \"DebugB\"]}");
        assertEquals(
                new Model.Expected.EachViolated(List.of("DebugA", "DebugB")), file.entries().getFirst().expected());
    }

    @Test
    void namesAreRequiredAndUnique() {
        assertTrue(error(OK.replace("\"name\": \"ci\", ", "") + "}").contains("\"name\" is missing"));
        assertTrue(error(OK + "}, " + OK + "}").contains("two models are named \"ci\""));
    }

    @Test
    void duplicateKeysAndBadJsonAreLocated() {
        assertTrue(
                error(OK + ", \"mode\": \"safety\"}")
                        .matches(".*models.json:1:\\d+: not valid JSON: the key \"mode\" appears twice in an object"),
                error(OK + ", \"mode\": \"safety\"}"));
    }

    @Test
    void onlyOneInvariantIsKeptForAReachabilityRun() {
        String config =
                "CONSTANTS\n"
                        + "    N = 1\n"
                        + "INIT Init\n"
                        + "NEXT Next\n"
                        + "INVARIANTS\n"
                        + "    DebugA\n"
                        + "    DebugB\n"
                        + "CHECK_DEADLOCK FALSE\n";
        String one = ModelCheck.withOnlyInvariant(config, "DebugB");
        assertEquals("CONSTANTS\n    N = 1\nINIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\nINVARIANT\n    DebugB\n", one);
        assertThrows(IllegalArgumentException.class, () -> ModelCheck.withOnlyInvariant(config, "DebugC"));
    }

    @Test
    void aListedInvariantTheConfigLacksIsAnErrorBeforeAnyRun() throws IOException {
        Path cfg =
                Files.writeString(
                        dir.resolve("R.cfg"), "INIT Init\nNEXT Next\nINVARIANTS\n    DebugA\nCHECK_DEADLOCK FALSE\n");
        Model model =
                new Model(
                        "r",
                        dir.resolve("R.tla"),
                        cfg,
                        new Model.Expected.EachViolated(List.of("DebugA", "DebugB")),
                        java.util.OptionalLong.empty(),
                        "",
                        dir);
        io.proofgate.parse.ParseException e =
                assertThrows(
                        io.proofgate.parse.ParseException.class,
                        () -> ModelCheck.runEach(model, CheckOptions.defaults(1, dir.resolve("out")), System.err));
        assertEquals(
                cfg
                        + ":1:1: names no invariant DebugB, which spec/models.json lists for model r (each-violated"
                        + " checks each listed invariant of the config in a run of its own)",
                e.getMessage());
        assertTrue(Files.notExists(dir.resolve("out").resolve("DebugA")), "no run started");
    }

    /** The converse: an invariant of the config the list leaves out would be checked by no run. */
    @Test
    void anInvariantOfTheConfigTheListLeavesOutIsAnErrorBeforeAnyRun() throws IOException {
        Path cfg =
                Files.writeString(
                        dir.resolve("W.cfg"),
                        "INIT Init\nNEXT Next\nINVARIANTS\n    DebugA\n    DebugB\n    DebugC\nCHECK_DEADLOCK FALSE\n");
        Model model =
                new Model(
                        "w",
                        dir.resolve("W.tla"),
                        cfg,
                        new Model.Expected.EachViolated(List.of("DebugB")),
                        java.util.OptionalLong.empty(),
                        "",
                        dir);
        io.proofgate.parse.ParseException e =
                assertThrows(
                        io.proofgate.parse.ParseException.class,
                        () -> ModelCheck.runEach(model, CheckOptions.defaults(1, dir.resolve("out")), System.err));
        assertEquals(
                cfg
                        + ":1:1: names DebugA, DebugC, which spec/models.json does not list for model w: each-violated"
                        + " checks each invariant of the config in a run of its own, so an invariant left out of the"
                        + " list would be checked by none",
                e.getMessage());
        assertTrue(Files.notExists(dir.resolve("out").resolve("DebugB")), "no run started");
    }
}
