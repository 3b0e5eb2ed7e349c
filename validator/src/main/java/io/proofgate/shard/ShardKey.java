package io.proofgate.shard;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.function.Function;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The optional key that signs shard files ({@code PROOFGATE_SHARD_KEY}): with it, a shard carries an HMAC-SHA256 of its
 * content, and a merge refuses a shard whose HMAC does not verify. Without it, nothing stops a hand-edited shard that
 * is consistent in itself (docs/scale.md says what the other checks still catch).
 */
public final class ShardKey {

    public static final String ENVIRONMENT = "PROOFGATE_SHARD_KEY";

    /** Fewer characters than this are refused: a short key is guessed, and then signs anything. */
    public static final int MIN_LENGTH = 32;

    private static final String ALGORITHM = "HmacSHA256";

    private final SecretKeySpec secret;

    private ShardKey(byte[] secret) {
        this.secret = new SecretKeySpec(secret, ALGORITHM);
    }

    /** A key refused: too short. */
    public static final class Refused extends Exception {
        Refused(String message) {
            super(message);
        }
    }

    /**
     * The key the environment holds, or none when the variable is unset. Set but empty is refused: that is what a CI
     * secret that is missing expands to, and read as "no key" it let a merge accept unsigned (forged) shards where the
     * workflow meant every one to be verified.
     */
    public static Optional<ShardKey> from(Function<String, String> environment) throws Refused {
        String value = environment.apply(ENVIRONMENT);
        if (value == null) {
            return Optional.empty();
        }
        if (value.isEmpty()) {
            throw new Refused(
                    ENVIRONMENT
                            + " is set but empty (a secret that is missing?): unset it to run without"
                            + " signatures, or set it to a key of at least "
                            + MIN_LENGTH
                            + " characters");
        }
        if (value.length() < MIN_LENGTH) {
            throw new Refused(
                    ENVIRONMENT
                            + " holds "
                            + value.length()
                            + " characters; a key needs at least "
                            + MIN_LENGTH
                            + " (for example the output of `openssl rand -hex 32`)");
        }
        return Optional.of(new ShardKey(value.getBytes(StandardCharsets.UTF_8)));
    }

    /** A fresh MAC under this key, for content that is streamed. */
    public Mac mac() {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(secret);
            return mac;
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("every JDK has HmacSHA256 and takes any key bytes", e);
        }
    }

    /** The HMAC of {@code content}'s UTF-8 bytes, as 64 lower-case hex digits. */
    public String sign(String content) {
        return HexFormat.of().formatHex(mac().doFinal(content.getBytes(StandardCharsets.UTF_8)));
    }

    /** Whether {@code hmac} (hex) is this key's HMAC of what {@code mac} has seen; compared in constant time. */
    /**
     * Why a shard may not merge under this merge's key ({@code key}), or null: with a key, the shard must be signed
     * ({@code hmac}) and verify ({@code verifies}, asked only then); without one, a signed shard cannot be verified, so
     * it is refused too. {@code signed} says where the shard's signature is.
     */
    public static String refusal(
            Optional<ShardKey> key, String hmac, String signed, java.util.function.Predicate<ShardKey> verifies) {
        if (key.isEmpty()) {
            return hmac == null
                    ? null
                    : "the shard is signed ("
                            + signed
                            + "), but "
                            + ENVIRONMENT
                            + " is not set here, so its signature cannot be verified; set it to the key the shards"
                            + " were run with";
        }
        if (hmac == null) {
            return "the shard is not signed, and " + ENVIRONMENT + " is set: run the shards with the key set";
        }
        return verifies.test(key.get())
                ? null
                : "its HMAC does not verify with "
                        + ENVIRONMENT
                        + " (the file was edited after it was written, or signed with another key)";
    }

    public static boolean verifies(Mac mac, String hmac) {
        byte[] given;
        try {
            given = HexFormat.of().parseHex(hmac);
        } catch (IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(mac.doFinal(), given);
    }

    /** Whether {@code hmac} is this key's HMAC of {@code content}. */
    public boolean verifies(String content, String hmac) {
        Mac mac = mac();
        mac.update(content.getBytes(StandardCharsets.UTF_8));
        return verifies(mac, hmac);
    }
}
