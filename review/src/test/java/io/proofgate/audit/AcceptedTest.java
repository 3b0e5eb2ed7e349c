package io.proofgate.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

/** The reviewers' acceptances: read strictly, and refused at the line and column of what is wrong. */
class AcceptedTest {

    @TempDir Path dir;

    private static final String HEAD = "{\"schema\": \"proofgate-audit-accepted/v1\",\n \"accepted\": [\n";

    private String problem(String entries) throws Exception {
        Path f = dir.resolve(Accepted.FILE);
        Files.writeString(f, HEAD + entries + "]}\n");
        return assertThrows(AuditException.class, () -> Accepted.read(f)).getMessage().replace(f.toString(), "F");
    }

    @Test
    void anEntryIsAFingerprintAndAJustification() throws Exception {
        Path f = dir.resolve(Accepted.FILE);
        Files.writeString(f, HEAD + "  {\"fingerprint\": \"e9e782463967c3dd\", \"justification\": \"intended\"}]}\n");
        assertEquals("intended", Accepted.read(f).justification("e9e782463967c3dd"));
        assertSame(Accepted.NONE, Accepted.read(dir.resolve("absent.json")));
    }

    /** A key nothing reads (a class written beside the fingerprint) would look checked; it is refused at the key. */
    @Test
    void aKeyNothingChecksIsRefusedWhereItIs() throws Exception {
        assertEquals(
                "F:4:39: accepted[1]: unknown key \"class\" (known: fingerprint, justification)",
                problem(
                        "  {\"fingerprint\": \"e9e782463967c3dd\", \"justification\": \"a\"},\n"
                                + "  {\"fingerprint\": \"0000000000000001\", \"class\": \"fix\", \"justification\":"
                                + " \"b\"}"));
    }

    @Test
    void aWrongValueIsRefusedAtTheValue() throws Exception {
        assertEquals(
                "F:3:19: accepted[0]: \"fingerprint\" must be the 16 hex digits a report gives",
                problem("  {\"fingerprint\": \"E9E782463967C3DD\", \"justification\": \"a\"}"));
        assertEquals(
                "F:3:56: accepted[0]: a justification is required (why the change is intended)",
                problem("  {\"fingerprint\": \"e9e782463967c3dd\", \"justification\": \" \"}"));
        assertEquals(
                "F:4:19: accepted[1]: fingerprint e9e782463967c3dd is accepted twice",
                problem(
                        "  {\"fingerprint\": \"e9e782463967c3dd\", \"justification\": \"a\"},\n"
                                + "  {\"fingerprint\": \"e9e782463967c3dd\", \"justification\": \"b\"}"));
        assertEquals("F:3:3: accepted[0]: \"fingerprint\" must be a string", problem("  {\"justification\": \"a\"}"));
        assertEquals("F:3:3: accepted[0] must be an object", problem("  \"e9e782463967c3dd\""));
    }

    @Test
    void theTopLevelIsRefusedWhereItIsWrong() throws Exception {
        Path f = dir.resolve(Accepted.FILE);
        Files.writeString(f, "{\"schema\": \"proofgate-audit-accepted/v1\",\n \"accepted\": {}}");
        assertEquals(
                "F:2:14: \"accepted\" must be a list",
                assertThrows(AuditException.class, () -> Accepted.read(f)).getMessage().replace(f.toString(), "F"));
        Files.writeString(f, "{\"accepted\": [],\n \"schema\": \"v0\"}");
        assertEquals(
                "F:2:12: \"schema\" must be \"proofgate-audit-accepted/v1\"",
                assertThrows(AuditException.class, () -> Accepted.read(f)).getMessage().replace(f.toString(), "F"));
        Files.writeString(f, "[]");
        assertEquals(
                "F:1:1: expected an object with \"schema\" and \"accepted\"",
                assertThrows(AuditException.class, () -> Accepted.read(f)).getMessage().replace(f.toString(), "F"));
    }

    /**
     * Regression: an error in a revision's file named the audit run's own copy of it ({@code
     * …/target/proofgate/audit/run-…/base/audit-accepted.json:4:51}), a path gone after the run.
     */
    @Test
    void aRevisionsFileIsNamedFromTheRevisionsRoot() throws Exception {
        Files.writeString(
                dir.resolve(Accepted.FILE),
                HEAD + "  {\"fingerprint\": \"e9e782463967c3dd\", \"justification\": \"\"}]}\n");
        assertEquals(
                "the base's audit-accepted.json cannot be read: audit-accepted.json:3:56: accepted[0]: a justification"
                        + " is required (why the change is intended)",
                assertThrows(AuditException.class, () -> Accepted.ofRevision(dir, "base")).getMessage());
        assertSame(Accepted.NONE, Accepted.ofRevision(dir.resolve("none"), "head"));
    }
}
