package io.proofgate.audit;

import io.proofgate.words.Sha256;

/** A finding's identity: SHA-256 over its parts, so it survives edits that do not change the finding. */
public final class Fingerprints {

    private static final int HEX_DIGITS = 16;

    private Fingerprints() {}

    public static String of(String... parts) {
        StringBuilder text = new StringBuilder();
        for (String part : parts) {
            text.append(part).append('\0'); // each part ends with a zero byte, so parts cannot run together
        }
        return Sha256.of(text.toString()).substring(0, HEX_DIGITS);
    }
}
