package io.proofgate.bytecheck;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The bytes of a simulated page: a function of group, block id, the block's {@link BlockContent} and the layer, filled
 * word by word from a SplitMix64 stream. Two pages share bytes only if all four agree, so a gather that reads the wrong
 * block, group, layer or state version shows.
 */
final class PageBytes {

    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private PageBytes() {}

    /** Writes the page of {@code layer} into {@code page} (its whole size). */
    static void fill(MemorySegment page, int group, long block, BlockContent content, int layer) {
        long seed = seed(group, block, content, layer);
        long size = page.byteSize();
        long words = size / 8;
        for (long w = 0; w < words; w++) {
            page.set(WORD, w * 8, mix(seed + w * 0x9E3779B97F4A7C15L));
        }
        long tail = mix(seed + words * 0x9E3779B97F4A7C15L);
        for (long i = words * 8; i < size; i++) {
            page.set(ValueLayout.JAVA_BYTE, i, (byte) (tail >>> (8 * (i - words * 8))));
        }
    }

    static long seed(int group, long block, BlockContent content, int layer) {
        return mix(mix(mix(content.key() ^ group * 0xC2B2AE3D27D4EB4FL) ^ block) ^ layer * 0x165667B19E3779F9L);
    }

    /** SplitMix64's finalizer. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** FNV-1a over UTF-8, so a digest's bytes do not depend on {@link String#hashCode}. */
    static long fnv(String text) {
        long hash = 0xCBF29CE484222325L;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            hash = (hash ^ (b & 0xFF)) * 0x100000001B3L;
        }
        return hash;
    }
}
