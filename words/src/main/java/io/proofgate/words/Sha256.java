package io.proofgate.words;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 as 64 lower-case hex digits, as the formats write it: what shard files record of each input, and what
 * fingerprints and identities are made of.
 */
public final class Sha256 {

    private Sha256() {}

    public static String of(String text) {
        return HexFormat.of().formatHex(digest().digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** The hash of a file's bytes, read in chunks (a log may be larger than the heap). */
    public static String of(Path file) throws IOException {
        MessageDigest digest = digest();
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            int read;
            while ((read = in.read(buffer)) >= 0) {
                digest.update(buffer, 0, read);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /**
     * A hash of a sequence of fields, each length-prefixed, so that two different sequences never hash alike however
     * their bytes run together: for keys made of several parts (a cache key of a tool, a model and a folder's files).
     */
    public static Fields fields() {
        return new Fields(digest());
    }

    /** The fields of one hash, in order; {@link #hex} ends it. */
    public static final class Fields {
        private final MessageDigest digest;

        private Fields(MessageDigest digest) {
            this.digest = digest;
        }

        public Fields add(byte[] bytes) {
            digest.update(java.nio.ByteBuffer.allocate(Long.BYTES).putLong(bytes.length).array());
            digest.update(bytes);
            return this;
        }

        public Fields add(String text) {
            return add(text.getBytes(StandardCharsets.UTF_8));
        }

        /** The 64 hex digits of the fields added. */
        public String hex() {
            return HexFormat.of().formatHex(digest.digest());
        }
    }

    /** Whether {@code text} has the form of a hash this class writes. */
    public static boolean isHash(String text) {
        return text != null && text.matches("[0-9a-f]{64}");
    }

    private static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
