package io.proofgate.mutate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

class MistakesTest {

    private static final String TEXT = "A == 1\nB == A + 1\nC == A + 1\n";

    @TempDir Path dir;

    private Path file(String mistakes) throws Exception {
        Path f = dir.resolve("mistakes.json");
        Files.writeString(f, "{\"schema\": \"proofgate-mistakes/v1\", \"mistakes\": [" + mistakes + "]}");
        return f;
    }

    @Test
    void aMistakeIsOneEditAtItsPlace() throws Exception {
        List<Mutation> ms =
                Mistakes.read(
                                file(
                                        "{\"name\": \"b-off\", \"meaning\": \"m\", \"find\": \"B == A + 1\","
                                                + " \"replace\": \"B == A\"}"),
                                TEXT,
                                "M.tla")
                        .mutations();
        assertEquals(1, ms.size());
        Mutation m = ms.getFirst();
        assertEquals(Mutation.Kind.NAMED, m.kind());
        assertEquals("b-off", m.operator());
        assertEquals(2, m.line());
        assertEquals("A == 1\nB == A\nC == A + 1\n", m.apply(TEXT));
    }

    @Test
    void aMistakeMayNameTheModelToCheckFirst() throws Exception {
        Path f =
                file(
                        "{\"name\": \"b-off\", \"meaning\": \"m\", \"find\": \"B == A + 1\", \"replace\": \"B == A\","
                            + " \"model\": \"gen-batch\"}, {\"name\": \"c-off\", \"meaning\": \"m\", \"find\": \"C == A"
                            + " + 1\", \"replace\": \"C == A\"}");
        Mistakes.Named named = Mistakes.read(f, TEXT, "M.tla");
        assertEquals(java.util.Map.of(named.mutations().getFirst().id(), "gen-batch"), named.firstModels());
    }

    @Test
    void aFindThatIsMissingOrAmbiguousIsAnError() throws Exception {
        Path f = file("{\"name\": \"x\", \"meaning\": \"m\", \"find\": \"A + 1\", \"replace\": \"A\"}");
        assertEquals(
                f + ":1:88: mistake \"x\": its find text occurs more than once in M.tla; make it longer",
                assertThrows(MutationException.class, () -> Mistakes.read(f, TEXT, "M.tla")).getMessage());
        Path g = file("{\"name\": \"x\", \"meaning\": \"m\", \"find\": \"D ==\", \"replace\": \"A\"}");
        assertEquals(
                g + ":1:88: mistake \"x\": its find text is not in M.tla",
                assertThrows(MutationException.class, () -> Mistakes.read(g, TEXT, "M.tla")).getMessage());
        Path h = file("{\"name\": \"x\", \"meaning\": \"m\", \"find\": \"B ==\", \"replace\": \"A\", \"why\": 1}");
        assertTrue(
                assertThrows(MutationException.class, () -> Mistakes.read(h, TEXT, "M.tla"))
                        .getMessage()
                        .endsWith(
                                ":1:112: mistakes[0]: unknown key \"why\" (known: find, meaning, model, name,"
                                        + " replace)"));
    }

    /** A named mistake that survives fails the check, and cannot be judged away. */
    @Test
    void aSurvivingMistakeFailsTheCheckEvenWhenJudged() throws Exception {
        Mutation m =
                Mistakes.read(
                                file(
                                        "{\"name\": \"b-off\", \"meaning\": \"m\", \"find\": \"B == A + 1\","
                                                + " \"replace\": \"B == A\"}"),
                                TEXT,
                                "M.tla")
                        .mutations()
                        .getFirst();
        List<MutantResult> survived = List.of(new MutantResult(m, new Outcome.Survived()));
        var judged = new Equivalents(java.util.Map.of(m.id(), new Equivalents.Entry(m.id(), "b-off", "", "no")));
        MutationReport report = new MutationReport("M.tla", "p", List.of("x"), TEXT, survived, judged);
        assertEquals(1, report.namedNotKilled().size());
        assertTrue(!report.passesCheck());
        assertTrue(report.toText().contains("NOT KILLED b-off: SURVIVED"), report.toText());
        MutationReport killed =
                new MutationReport(
                        "M.tla",
                        "p",
                        List.of("x"),
                        TEXT,
                        List.of(new MutantResult(m, new Outcome.Killed("x", "Inv"))),
                        Equivalents.none());
        assertTrue(killed.passesCheck());
        // no generated mutant was killed: no "killed by" header over nothing, which reads as output cut off
        assertTrue(
                !killed.toText().contains("killed by") && !killed.toMarkdown().contains("killed by"), killed.toText());
    }
}
