package io.proofgate.words;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

class OutsideTest {

    @Test
    void controlAndInvisibleCharactersAreEscaped() {
        assertEquals("\"full\\u001b[2J\"", Outside.quoted("full\u001b[2J"));
        assertEquals("\"a\\\"b\\\\c\\nd\\u009be\\u202ef\"", Outside.quoted("a\"b\\c\nd\u009be\u202ef"));
        assertEquals("bad\\u001b[2Jname.jsonl", Outside.bare("bad\u001b[2Jname.jsonl"));
        assertEquals("\"\\u{e0001}\"", Outside.quoted(new String(Character.toChars(0xe0001))));
        assertEquals("\"a b\\u00a0c\\u3000d\"", Outside.quoted("a b\u00a0c\u3000d"), "spaces that read as a plain one");
        // a name may hold such a space (escaped where shown); a control or separator it may not
        assertTrue(Outside.holdsNoControl("a\u00a0b\u3000c"));
        assertFalse(Outside.holdsNoControl("a\u0007b"));
        assertFalse(Outside.holdsNoControl("a\u2028b"));
        assertFalse(Outside.holdsNoControl("a\u202eb"));
    }

    @Test
    void aPlainNameIsShownAsItIs() {
        String name = "logs/run 1/événements.jsonl";
        assertSame(name, Outside.bare(name));
        assertTrue(Outside.isPlain(name));
        assertFalse(Outside.isPlain("a\u0007"));
    }

    @Test
    void anExcerptIsShort() {
        assertEquals(Outside.EXCERPT_LENGTH + 5, Outside.excerpt("x".repeat(1000)).length());
    }

    @Test
    void aPlaceNamesItsFileEscapedAndItsLineAndColumn() {
        assertEquals("logs/a.jsonl:3:17: ", Outside.at(Path.of("logs/a.jsonl"), 3, 17));
        assertEquals("a\\u001b[2J.jsonl:1:1: ", Outside.at("a\u001b[2J.jsonl", 1, 1));
    }
}
