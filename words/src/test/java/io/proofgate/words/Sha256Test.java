package io.proofgate.words;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class Sha256Test {

    @Test
    void aTextHashesAsTheKnownDigest() {
        // FIPS 180-2's example: SHA-256("abc")
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", Sha256.of("abc"));
        assertTrue(Sha256.isHash(Sha256.of("")));
    }

    @Test
    void fieldsThatRunTogetherAlikeStillHashApart() {
        // without a length before each field, ("ab", "c") and ("a", "bc") would hash alike
        String abC = Sha256.fields().add("ab").add("c").hex();
        assertNotEquals(abC, Sha256.fields().add("a").add("bc").hex());
        assertNotEquals(abC, Sha256.fields().add("abc").hex());
        assertNotEquals(Sha256.fields().add("").hex(), Sha256.fields().hex(), "an empty field is a field");
        assertEquals(abC, Sha256.fields().add("ab").add("c".getBytes(java.nio.charset.StandardCharsets.UTF_8)).hex());
        assertTrue(Sha256.isHash(abC));
    }
}
