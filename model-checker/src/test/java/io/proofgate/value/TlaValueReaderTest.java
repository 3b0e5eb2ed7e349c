package io.proofgate.value;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.proofgate.parse.ParseException;
import io.proofgate.value.TlaValue.TlaInt;
import io.proofgate.value.TlaValue.TlaSet;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

class TlaValueReaderTest {

    @Test
    void interval_isTheSetOfItsIntegers() {
        assertEquals(
                new TlaSet(List.of(new TlaInt(-1), new TlaInt(0), new TlaInt(1))), TlaValueReader.value("v", "-1..1"));
    }

    /** Both readers, the tree walk and the action-based one, at the ends of the long range. */
    @Test
    void interval_atTheEndsOfTheLongRange() {
        String top = "/\\ v = 9223372036854775806..9223372036854775807";
        TlaState expected = TlaValueReader.state("v", top);
        assertEquals(
                new TlaSet(List.of(new TlaInt(Long.MAX_VALUE - 1), new TlaInt(Long.MAX_VALUE))),
                expected.get("v").orElseThrow());
        assertEquals(expected, new StateReader("v").state(ascii(top), top.length()));
        String wide = "/\\ v = -9000000000000000000..9000000000000000000";
        for (var read :
                List.<java.util.function.Supplier<TlaState>>of(
                        () -> TlaValueReader.state("v", wide),
                        () -> new StateReader("v").state(ascii(wide), wide.length()))) {
            ParseException e = assertThrows(ParseException.class, read::get);
            assertEquals(
                    "v:1:8: interval -9000000000000000000..9000000000000000000 is too large to enumerate",
                    e.getMessage());
        }
    }

    @Test
    void escapes_areUndone() {
        assertEquals(new TlaValue.TlaString("a\"b\\c\nd\te"), TlaValueReader.value("v", "\"a\\\"b\\\\c\\nd\\te\""));
    }

    @Test
    void wrappedValue_readsAcrossLines() {
        TlaState s = TlaValueReader.state("v", "/\\ f = ( 1 :> <<>> @@\n   2 :> {} )\n/\\ g = FALSE\n");
        assertEquals(TlaValueReader.value("v", "(1 :> <<>> @@ 2 :> {})"), s.get("f").orElseThrow());
    }

    @Test
    void missingValue_reportsLineAndColumn() {
        ParseException e =
                assertThrows(
                        ParseException.class, () -> TlaValueReader.state("s.txt", "/\\ x = 1\n/\\ y = \n/\\ z = 2"));
        assertEquals(3, e.line());
        assertEquals(1, e.column());
        assertEquals("s.txt:3:1: expected a TLA+ value after \"=\", found \"/\\\"", e.getMessage());
    }

    @Test
    void badCharacter_reportsLineAndColumn() {
        ParseException e = assertThrows(ParseException.class, () -> TlaValueReader.value("v.txt", "<<1, 2 # 3>>"));
        assertEquals("v.txt:1:8: token recognition error at: '#'", e.getMessage());
    }

    @Test
    void expectedTokens_areNamedInWords() {
        ParseException field = assertThrows(ParseException.class, () -> TlaValueReader.value("v.txt", "[|-> 1]"));
        assertEquals("v.txt:1:2: expected a name after \"[\", found \"|->\"", field.getMessage());
    }

    @Test
    void hugeInteger_isOutOfRange() {
        ParseException e =
                assertThrows(ParseException.class, () -> TlaValueReader.value("v.txt", "{1, 99999999999999999999}"));
        assertEquals("v.txt:1:5: integer 99999999999999999999 is out of range", e.getMessage());
    }

    @Test
    void repeatedVariable_isReported() {
        ParseException e = assertThrows(ParseException.class, () -> TlaValueReader.state("s", "/\\ x = 1\n/\\ x = 2"));
        assertEquals("s:2:4: variable x is assigned twice in one state", e.getMessage());
    }

    /**
     * The state graph's reader builds values in parser actions, not from a tree: same values, intervals included, same
     * errors.
     */
    @Test
    void stateReader_readsAsTheTreeWalk() {
        String text = "/\\ a = -1..1\n/\\ b = 3..2\n/\\ c = << 7, 1..2 >>";
        StateReader reader = new StateReader("s");
        TlaState state = reader.state(ascii(text), text.length());
        assertEquals(TlaValueReader.state("s", text), state);
        assertEquals(new TlaSet(List.of()), state.get("b").orElseThrow());
        String cut = "/\\ a = 1..\n";
        ParseException e = assertThrows(ParseException.class, () -> reader.state(ascii(cut), cut.length()));
        assertEquals("s:2:1: expected an integer after \"..\", found end of input", e.getMessage());
    }

    /**
     * The state graph's reader hands out one object per recurring integer, string and model value; values that share a
     * slot of its small tables must still read as themselves.
     */
    @Test
    void stateReader_sharesRecurringValuesAndKeepsDistinctOnes() {
        StringBuilder text = new StringBuilder("/\\ n = <<");
        for (int i = -3000; i < 3000; i += 3) {
            text.append(i == -3000 ? "" : ", ")
                    .append(i)
                    .append(", \"s")
                    .append(i)
                    .append("\", m")
                    .append(Math.abs(i) % 97);
        }
        String crowded = text.append(">>").toString();
        StateReader reader = new StateReader("s");
        assertEquals(TlaValueReader.state("s", crowded), reader.state(ascii(crowded), crowded.length()));
        String small = "/\\ k = 7 /\\ s = \"x\" /\\ m = M";
        TlaState first = reader.state(ascii(small), small.length());
        TlaState second = reader.state(ascii(small), small.length());
        for (String variable : List.of("k", "s", "m")) {
            assertSame(first.get(variable).orElseThrow(), second.get(variable).orElseThrow(), variable);
        }
    }

    /** A line read before is not parsed again: the next state that has it gets the same value. */
    @Test
    void stateReader_sharesTheValuesOfRecurringLines() {
        StateReader reader = new StateReader("s");
        TlaState first = read(reader, "/\\ p = [a |-> <<1, \"x\">>, b |-> {M}]\n/\\ q = 1");
        TlaState second = read(reader, "/\\ p = [a |-> <<1, \"x\">>, b |-> {M}]\n/\\ q = 2");
        assertEquals(TlaValueReader.state("s", "/\\ p = [a |-> <<1, \"x\">>, b |-> {M}]\n/\\ q = 2"), second);
        assertSame(first.get("p").orElseThrow(), second.get("p").orElseThrow());
        assertEquals(new TlaInt(2), second.get("q").orElseThrow());
        assertEquals(List.of("p", "q"), List.copyOf(second.vars().keySet()));
    }

    /**
     * Errors that only the whole state shows (a variable twice, on lines each read before) and errors in a line after
     * lines read before are worded as the exact reader words them.
     */
    @Test
    void stateReader_errorsAcrossRecurringLines_readAsTheExactReaderWordsThem() {
        StateReader reader = new StateReader("s");
        read(reader, "/\\ x = 1\n/\\ y = 2");
        for (String bad :
                List.of(
                        "/\\ x = 1\n/\\ x = 1",
                        "/\\ y = 2\n/\\ x = 1\n/\\ y = 3",
                        "/\\ x = 1\n/\\ y = [a |-> ]",
                        "/\\ x = 1\n/\\ y = \"open\n/\\ z = 1\"")) {
            ParseException exact = assertThrows(ParseException.class, () -> TlaValueReader.state("s", bad), bad);
            ParseException read = assertThrows(ParseException.class, () -> read(reader, bad), bad);
            assertEquals(exact.getMessage(), read.getMessage(), bad);
        }
    }

    /**
     * Past the cache's capacity of distinct lines, states still read right: lines cached before keep their shared
     * values, and new lines are read with their whole state.
     */
    @Test
    void stateReader_pastTheCacheCapacity_readsEveryStateRight() {
        StateReader reader = new StateReader("s");
        TlaValue shared = TlaValueReader.value("p", "[a |-> <<1, 2>>]");
        TlaValue first = null;
        for (int i = 0; i < ConjunctCache.CAPACITY + 500; i++) {
            TlaState state = read(reader, "/\\ p = [a |-> <<1, 2>>]\n/\\ n = " + i);
            assertEquals(List.of("p", "n"), List.copyOf(state.vars().keySet()), "state " + i);
            assertEquals(shared, state.get("p").orElseThrow(), "state " + i);
            assertEquals(new TlaInt(i), state.get("n").orElseThrow(), "state " + i);
            if (i == 0) {
                first = state.get("p").orElseThrow();
            } else if (i < ConjunctCache.CAPACITY - 1) {
                assertSame(first, state.get("p").orElseThrow(), "state " + i);
            } else if (i > ConjunctCache.CAPACITY) {
                assertNotSame(first, state.get("p").orElseThrow(), "state " + i + ", read whole");
            }
        }
        // a line cached before the cache filled is still read from it
        assertEquals(new TlaInt(7), read(reader, "/\\ p = [a |-> <<1, 2>>]\n/\\ n = 7").get("n").orElseThrow());
        assertSame(first, read(reader, "/\\ p = [a |-> <<1, 2>>]\n/\\ n = 7").get("p").orElseThrow());
    }

    /** The byte reader takes ASCII only; other text goes through {@code state(String)}, never misread. */
    @Test
    void stateReader_refusesBytesThatAreNotAscii() {
        StateReader reader = new StateReader("s");
        String text = "/\\ s = \"\u00e9\"\n/\\ n = 1";
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        assertThrows(IllegalArgumentException.class, () -> reader.state(utf8, utf8.length));
        assertEquals(TlaValueReader.state("s", text), reader.state(text));
    }

    private static TlaState read(StateReader reader, String text) {
        return reader.state(ascii(text), text.length());
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
