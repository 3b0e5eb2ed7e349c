package io.proofgate.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.strings;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** {@link AsciiRanges#parseLong} reads what {@code Long.parseLong} reads, or declines. */
class AsciiRangesTest {

    @Test
    void everyLong_readsBack() {
        qt().withExamples(20_000)
                .forAll(longs().all())
                .checkAssert(
                        n -> {
                            String text = Long.toString(n);
                            assertEquals(n == Long.MIN_VALUE ? AsciiRanges.NOT_A_LONG : n, parse(text), text);
                        });
    }

    /** The edges: 18, 19 and 20 digits, the ends of the range, leading zeros, stray characters. */
    @Test
    void edgesOfTheRange_readAsLongParseLongReadsThem() {
        for (String text :
                List.of(
                        "9223372036854775807",
                        "9223372036854775808",
                        "-9223372036854775807",
                        "-9223372036854775808",
                        "999999999999999999",
                        "-999999999999999999",
                        "9999999999999999999",
                        "10000000000000000000",
                        "0000000000000000000000012",
                        "-00000000000000000000009223372036854775807",
                        "922337203685477580",
                        "9223372036854775800",
                        "9223372036854775799",
                        "1x",
                        "-",
                        "",
                        "12345678901234567a",
                        "123456789012345678a",
                        "+1",
                        "--1",
                        "0",
                        "-0")) {
            assertEquals(expected(text), parse(text), text);
        }
    }

    @Test
    void digitStrings_readAsLongParseLongReadsThem() {
        qt().withExamples(20_000)
                .forAll(strings().betweenCodePoints('-', '9').ofLengthBetween(0, 24))
                .checkAssert(text -> assertEquals(expected(text), parse(text), text));
    }

    /** Eight bytes a step, then one by one: one byte above 0x7f anywhere, in any length, is found. */
    @Test
    void isAscii_findsAByteAbove0x7fAnywhere() {
        for (int length = 0; length < 40; length++) {
            byte[] bytes = "x".repeat(length + 3).getBytes(StandardCharsets.US_ASCII);
            assertTrue(AsciiRanges.isAscii(bytes, length), "length " + length);
            for (int at = 0; at < length; at++) {
                for (int high : new int[] {0x80, 0xc3, 0xff}) {
                    byte[] copy = bytes.clone();
                    copy[at] = (byte) high;
                    assertFalse(AsciiRanges.isAscii(copy, length), "length " + length + ", at " + at);
                }
            }
            // beyond length does not count
            bytes[length] = (byte) 0xff;
            assertTrue(AsciiRanges.isAscii(bytes, length), "length " + length + ", 0xff after it");
        }
    }

    private static long parse(String text) {
        byte[] padded = ("<" + text + ">").getBytes(StandardCharsets.US_ASCII);
        return AsciiRanges.parseLong(padded, 1, padded.length - 1);
    }

    /** Long.parseLong's answer, or NOT_A_LONG where it throws (and for Long.MIN_VALUE, the marker itself). */
    private static long expected(String text) {
        if (text.startsWith("+")) {
            return AsciiRanges.NOT_A_LONG;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return AsciiRanges.NOT_A_LONG;
        }
    }
}
