package io.proofgate.store;

import java.lang.foreign.MemorySegment;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA-256 of memory segments, the stores' and the harness's one way to fingerprint bytes. */
public final class Digests {
    /** A ByteBuffer view holds at most 2 GiB, so larger segments are digested in slices. */
    private static final long CHUNK = 1L << 30;

    private Digests() {}

    static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this Java runtime has no SHA-256", e);
        }
    }

    /** The SHA-256 of every byte of {@code bytes}. */
    public static byte[] sha256(MemorySegment bytes) {
        MessageDigest digest = newSha256();
        for (long offset = 0; offset < bytes.byteSize(); offset += CHUNK) {
            digest.update(bytes.asSlice(offset, Math.min(CHUNK, bytes.byteSize() - offset)).asByteBuffer());
        }
        return digest.digest();
    }
}
