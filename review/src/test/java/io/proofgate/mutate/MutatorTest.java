package io.proofgate.mutate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

class MutatorTest {

    private static final String SPEC =
            """
            ---- MODULE M ----
            EXTENDS Integers
            Env == 5 < 6
            \\* mutate-begin: Impl
            \\* a comment with IF x < 3 THEN, never mutated
            Rule(v) == IF v < 3 THEN v + 1 ELSE "low"
            Both(a, b) ==
                /\\ a = 1
                /\\ b # 2 \\/ ~a
            Rec(p) == [p EXCEPT !.latch = {}] /\\ \\A x \\in {1} : x \\in {TRUE}
            \\* mutate-end: Impl
            After == 7 - 1
            ====
            """;

    private static List<Mutation> mutations(String text) throws MutationException {
        TlaModule module = TlaModule.parse(text, "M.tla");
        return module.part("Impl").stream().flatMap(d -> Mutator.mutations(d, text).stream()).toList();
    }

    private static Set<String> applied(String text) throws MutationException {
        return mutations(text).stream()
                .map(
                        m ->
                                Mutation.oneLine(
                                        m.apply(text)
                                                .substring(
                                                        text.indexOf("Rule(v)"),
                                                        m.apply(text).indexOf("\\* mutate-end"))))
                .collect(Collectors.toSet());
    }

    @Test
    void aPartIsTheDefinitionsBetweenItsMarkers() throws MutationException {
        TlaModule module = TlaModule.parse(SPEC, "M.tla");
        assertEquals(
                List.of("Env", "Rule", "Both", "Rec", "After"),
                module.definitions().stream().map(Definition::name).toList());
        assertEquals(List.of("Rule", "Both", "Rec"), module.part("Impl").stream().map(Definition::name).toList());
        assertEquals(null, module.part("Other"));
    }

    @Test
    void eachKindReplacesOneTokenOrOneBulletAndNothingOutsideThePart() throws MutationException {
        List<Mutation> ms = mutations(SPEC);
        Set<String> changes =
                ms.stream()
                        .map(m -> m.operator() + ": " + m.kind().wireName() + " " + m.change())
                        .collect(Collectors.toSet());
        for (String expected :
                List.of(
                        "Rule: relational < → <=",
                        "Rule: boundary 3 → 4",
                        "Rule: boundary 3 → 2",
                        "Rule: boundary 1 → 2",
                        "Rule: boundary 1 → 0",
                        "Rule: arithmetic + → -",
                        "Rule: swap-if v < 3 → ~(v < 3)",
                        "Rule: skip-if v < 3 → FALSE",
                        "Both: relational = → #",
                        "Both: relational # → =",
                        "Both: logical \\/ → /\\",
                        "Both: drop-negation ~ → (dropped)",
                        "Both: drop-conjunct /\\ a = 1 → (dropped)",
                        "Both: drop-conjunct /\\ b # 2 \\/ ~ a → (dropped)",
                        "Rec: logical /\\ → \\/",
                        "Rec: set \\in → \\notin",
                        "Rec: constant TRUE → FALSE")) {
            assertTrue(changes.contains(expected), expected + " missing from " + changes);
        }
        // never: the comment, Env and After (outside the part), an EXCEPT's =, a binding \in,
        // a string with no other string to become
        assertFalse(changes.stream().anyMatch(c -> c.startsWith("Env") || c.startsWith("After")), changes.toString());
        assertEquals(1, changes.stream().filter(c -> c.startsWith("Rec: set")).count(), changes.toString());
        assertFalse(changes.stream().anyMatch(c -> c.startsWith("Rec: relational")), changes.toString());
        assertFalse(changes.stream().anyMatch(c -> c.contains("\"low\"")), changes.toString());
        assertEquals(ms.size(), ms.stream().map(Mutation::id).distinct().count(), "ids are distinct");
    }

    @Test
    void aMutationChangesExactlyItsCharacters() throws MutationException {
        Set<String> bodies = applied(SPEC);
        assertTrue(
                bodies.contains(
                        "Rule(v) == IF v <= 3 THEN v + 1 ELSE \"low\" Both(a, b) == /\\ a = 1 /\\ b # 2 \\/ ~a"
                                + " Rec(p) == [p EXCEPT !.latch = {}] /\\ \\A x \\in {1} : x \\in {TRUE}"),
                bodies.toString());
        assertTrue(
                bodies.contains(
                        "Rule(v) == IF v < 3 THEN v + 1 ELSE \"low\" Both(a, b) == /\\ b # 2 \\/ ~a"
                                + " Rec(p) == [p EXCEPT !.latch = {}] /\\ \\A x \\in {1} : x \\in {TRUE}"),
                bodies.toString());
    }

    /** An id survives every edit outside its definition, and changes when its definition does. */
    @Test
    void idsDependOnTheirDefinitionOnly() throws MutationException {
        Set<String> before =
                mutations(SPEC).stream()
                        .filter(m -> m.operator().equals("Rule"))
                        .map(Mutation::id)
                        .collect(Collectors.toSet());
        String elsewhere = SPEC.replace("/\\ a = 1", "/\\ a = 11").replace("Env == 5 < 6", "Env ==\n    5 < 7");
        String relaidOut = SPEC.replace("Rule(v) == IF v < 3", "Rule(v) ==\n    IF  v < 3");
        assertEquals(
                before,
                mutations(elsewhere).stream()
                        .filter(m -> m.operator().equals("Rule"))
                        .map(Mutation::id)
                        .collect(Collectors.toSet()));
        assertEquals(
                before,
                mutations(relaidOut).stream()
                        .filter(m -> m.operator().equals("Rule"))
                        .map(Mutation::id)
                        .collect(Collectors.toSet()));
        String changed = SPEC.replace("v + 1", "v + 2");
        assertTrue(
                mutations(changed).stream()
                        .filter(m -> m.operator().equals("Rule"))
                        .map(Mutation::id)
                        .noneMatch(before::contains));
    }

    @Test
    void unpairedMarkersAreLocatedErrors() {
        var e =
                assertThrows(
                        MutationException.class,
                        () -> TlaModule.parse("A == 1\n\\* mutate-begin: X\nB == 2\n", "M.tla"));
        assertEquals("M.tla:2:1: mutate-begin: X has no mutate-end after it", e.getMessage());
        e = assertThrows(MutationException.class, () -> TlaModule.parse("\\* mutate-end: X\n", "M.tla"));
        assertEquals("M.tla:1:1: mutate-end: X has no mutate-begin before it", e.getMessage());
    }

    @Test
    void theLexerKeepsCommentsStringsAndNestedCommentsWhole() {
        List<TlaToken> ts = TlaLexer.tokens("(* a (* b *) c *) x \"s\\\"t\" \\* tail\n---- y <=> z");
        assertEquals(
                List.of("(* a (* b *) c *)", "x", "\"s\\\"t\"", "\\* tail", "----", "y", "<=>", "z"),
                ts.stream().map(TlaToken::text).toList());
        assertEquals(2, ts.get(4).line());
    }

    /** The spec's own Connector part parses into definitions, and every mutant id is distinct. */
    @Test
    void theConnectorPartOfTheSpec() throws Exception {
        Path spec = Path.of("..", "spec", "Publication.tla");
        String text = Files.readString(spec);
        TlaModule module = TlaModule.parse(text, "Publication.tla");
        List<Definition> part = module.part("Connector");
        assertTrue(
                part.stream()
                        .map(Definition::name)
                        .toList()
                        .containsAll(
                                List.of(
                                        "Validate",
                                        "EntryCode",
                                        "Publish",
                                        "CachedStep",
                                        "NewRequest",
                                        "ConnectorAppliesStep")));
        assertFalse(part.stream().map(Definition::name).anyMatch(n -> n.equals("Examined") || n.equals("TypeOK")));
        List<Mutation> ms = part.stream().flatMap(d -> Mutator.mutations(d, text).stream()).toList();
        assertEquals(ms.size(), ms.stream().map(Mutation::id).distinct().count());
    }
}
