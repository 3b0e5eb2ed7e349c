package io.proofgate.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The UTF-8 check accepts exactly what the JDK's strict decoder accepts, however the bytes are read. */
class Utf8CheckTest {

    private static final int[] INTERESTING = {
        0x0a, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee,
        0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff
    };

    private static boolean strict(byte[] bytes) {
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    private static boolean checked(byte[] bytes, int chunk) {
        try (InputStream in = new Utf8Check(new ByteArrayInputStream(bytes))) {
            byte[] buffer = new byte[Math.max(1, chunk)];
            if (chunk == 0) {
                while (in.read() >= 0) {
                    // byte by byte
                }
            } else {
                while (in.read(buffer, 0, buffer.length) >= 0) {
                    // in chunks that split sequences anywhere
                }
            }
            return true;
        } catch (Utf8Check.Malformed e) {
            return false;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void agreesWithTheStrictDecoderOnRandomBytes() {
        qt().withExamples(20_000)
                .forAll(
                        lists().of(integers().between(0, INTERESTING.length - 1)).ofSizeBetween(0, 12),
                        integers().between(0, 5))
                .checkAssert(
                        (picks, chunk) -> {
                            byte[] bytes = new byte[picks.size()];
                            for (int i = 0; i < bytes.length; i++) {
                                bytes[i] = (byte) INTERESTING[picks.get(i)];
                            }
                            assertEquals(
                                    strict(bytes),
                                    checked(bytes, chunk),
                                    () -> java.util.HexFormat.of().formatHex(bytes));
                        });
    }

    @Test
    void validTextOfEveryLengthPasses() {
        for (String text : List.of("", "r1", "ä", "€", "𝄞", "a\nä\n€𝄞")) {
            assertEquals(true, checked(text.getBytes(StandardCharsets.UTF_8), 1), text);
        }
    }

    private static final int[] CHUNKS = {0, 1, 2, 3, 5, 7, 8, 9, 16, 4096};

    /**
     * Text before the bad byte: ASCII runs long enough for the eight-byte path, newlines, and valid multi-byte
     * characters.
     */
    private static final String[] PIECES = {"a", "\n", "ä", "€", "request-0001", "\n\n", "𝄞"};

    /**
     * Bad bytes, each reported at its first byte: never UTF-8, an overlong start, a lone continuation, a broken
     * sequence.
     */
    private static final byte[][] BAD = {{(byte) 0xff}, {(byte) 0xc0, (byte) 0xb1}, {(byte) 0x80}, {(byte) 0xe2, 'x'}};

    @Test
    void namesTheLineAndColumnOfTheFirstBadByteHoweverTheBytesAreRead() {
        qt().withExamples(5_000)
                .forAll(
                        lists().of(integers().between(0, PIECES.length - 1)).ofSizeBetween(0, 30),
                        integers().between(0, CHUNKS.length - 1),
                        integers().between(0, BAD.length - 1))
                .checkAssert(
                        (picks, chunk, bad) -> {
                            StringBuilder prefix = new StringBuilder();
                            picks.forEach(p -> prefix.append(PIECES[p]));
                            byte[] head = prefix.toString().getBytes(StandardCharsets.UTF_8);
                            long line = 1;
                            long column = 1;
                            for (byte b : head) {
                                if (b == '\n') {
                                    line++;
                                    column = 1;
                                } else {
                                    column++;
                                }
                            }
                            byte[] bytes = java.util.Arrays.copyOf(head, head.length + BAD[bad].length + 9);
                            System.arraycopy(BAD[bad], 0, bytes, head.length, BAD[bad].length);
                            java.util.Arrays.fill(bytes, head.length + BAD[bad].length, bytes.length, (byte) 'z');
                            Utf8Check.Malformed found = malformed(bytes, CHUNKS[chunk]);
                            String where =
                                    prefix
                                            + " + "
                                            + java.util.HexFormat.of().formatHex(BAD[bad])
                                            + " in chunks of "
                                            + CHUNKS[chunk];
                            assertEquals(
                                    line + ":" + column,
                                    found == null ? "passed" : found.line + ":" + found.column,
                                    where);
                        });
    }

    private static Utf8Check.Malformed malformed(byte[] bytes, int chunk) {
        try (InputStream in = new Utf8Check(new ByteArrayInputStream(bytes))) {
            byte[] buffer = new byte[Math.max(1, chunk)];
            while ((chunk == 0 ? in.read() : in.read(buffer, 0, buffer.length)) >= 0) {
                // read on
            }
            return null;
        } catch (Utf8Check.Malformed e) {
            return e;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
