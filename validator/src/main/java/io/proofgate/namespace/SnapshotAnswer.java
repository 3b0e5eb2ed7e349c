package io.proofgate.namespace;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The snapshot probe's answer, through a validator's page store classes by name ({@link RevisionCall}: the same calls
 * for this validator and for any revision's).
 */
final class SnapshotAnswer {

    private SnapshotAnswer() {}

    /**
     * The snapshot byte layout: the validator's host page store (three groups of two layers of 64-byte pages, 16 blocks
     * each) filled with the same bytes for every validator (byte i of group g, block b is {@code (g * 131 + b * 31 + i)
     * mod 251}), then the plan gathered into a snapshot: its size and SHA-256. A store the audit cannot drive answers
     * so, which differs from any computed answer (fail closed).
     */
    static String of(ReferenceNamespace.Types types, long[][] plan) {
        try {
            Object layout = RevisionCall.UNIFORM_LAYOUT.call(types, null, 3, 2, 64L, 16L);
            try (AutoCloseable store = (AutoCloseable) RevisionCall.NEW_STORE.call(types, null, layout);
                    Arena arena = Arena.ofConfined()) {
                Method write = (Method) RevisionCall.WRITE.in(types); // found once for its 48 pages
                for (int g = 0; g < 3; g++) {
                    for (long b = 0; b < 16; b++) {
                        MemorySegment page = arena.allocate(128);
                        for (int i = 0; i < 128; i++) {
                            page.set(ValueLayout.JAVA_BYTE, i, (byte) ((g * 131 + b * 31 + i) % 251));
                        }
                        write.invoke(store, g, b, page);
                    }
                }
                long bytes = (long) RevisionCall.SNAPSHOT_BYTES.call(types, layout, (Object) plan);
                Object snapshot = RevisionCall.NEW_SNAPSHOT.call(types, store, bytes);
                RevisionCall.GATHER.call(types, store, plan, snapshot);
                byte[] digest = (byte[]) RevisionCall.SHA256.call(types, store, snapshot);
                return "bytes=" + bytes + " sha256=" + HexFormat.of().formatHex(digest);
            }
        } catch (InvocationTargetException e) {
            return "the store refused the plan " + Arrays.deepToString(plan) + ": " + e.getCause();
        } catch (Exception e) {
            return "the store's API is not the one the audit drives (RevisionCall): " + e;
        }
    }
}
