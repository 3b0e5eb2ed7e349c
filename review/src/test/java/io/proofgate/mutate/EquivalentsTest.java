package io.proofgate.mutate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

class EquivalentsTest {

    @TempDir Path dir;

    private String problem(String json) throws Exception {
        Path f = dir.resolve("eq.json");
        Files.writeString(f, json);
        return assertThrows(MutationException.class, () -> Equivalents.read(f)).getMessage().replace(f.toString(), "F");
    }

    @Test
    void readsJudgementsByIdAndRefusesAnythingLoose() throws Exception {
        Path f = dir.resolve("ok.json");
        Files.writeString(
                f,
                """
                {"schema": "proofgate-mutants-equivalent/v1", "equivalent": [
                  {"id": "0123456789", "operator": "Validate", "change": "< → <=", "reason": "S is never 0"}]}
                """);
        assertEquals("S is never 0", Equivalents.read(f).byId().get("0123456789").reason());

        assertEquals("F:1:1: \"schema\" must be \"proofgate-mutants-equivalent/v1\"", problem("{\"equivalent\": []}"));
        assertEquals(
                "F:1:83: equivalent[0]: unknown key \"why\" (known: change, id, operator, reason)",
                problem(
                        "{\"schema\": \"proofgate-mutants-equivalent/v1\", \"equivalent\": [{\"id\": \"0123456789\","
                                + " \"why\": \"x\"}]}"));
        assertEquals(
                "F:1:93: equivalent[0]: \"reason\" must say why the mutant is equivalent",
                problem(
                        "{\"schema\": \"proofgate-mutants-equivalent/v1\", \"equivalent\": [{\"id\": \"0123456789\","
                                + " \"reason\": \" \"}]}"));
        assertEquals(
                "F:1:69: equivalent[0]: \"id\" must be 10 lower-case hex digits, found \"xyz\"",
                problem(
                        "{\"schema\": \"proofgate-mutants-equivalent/v1\", \"equivalent\": [{\"id\": \"xyz\","
                                + " \"reason\": \"r\"}]}"));
        assertEquals(
                "F:1:105: equivalent[1]: mutant 0123456789 is listed twice",
                problem(
                        "{\"schema\": \"proofgate-mutants-equivalent/v1\", \"equivalent\": [{\"id\": \"0123456789\","
                                + " \"reason\": \"r\"},{\"id\": \"0123456789\", \"reason\": \"r\"}]}"));
        assertEquals(
                "F:1:23: not valid JSON: the key \"schema\" appears twice in an object",
                problem("{\"schema\": 1, \"schema\": 2}"));
        // two files run together: the second is refused, not left unread
        assertEquals(
                "F:1:64: not valid JSON: more text after the JSON value",
                problem("{\"schema\": \"proofgate-mutants-equivalent/v1\", \"equivalent\": []}{}"));
        assertEquals(
                "F: cannot read it: no such file",
                assertThrows(MutationException.class, () -> Equivalents.read(dir.resolve("none.json")))
                        .getMessage()
                        .replace(dir.resolve("none.json").toString(), "F"));
    }
}
