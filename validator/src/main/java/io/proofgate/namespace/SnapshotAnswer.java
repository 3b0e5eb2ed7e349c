package io.proofgate.namespace;

import io.proofgate.store.HostPageStore;
import io.proofgate.store.Snapshot;
import io.proofgate.store.StoreLayout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The snapshot probe's answer, through a validator's page store classes by name: the calls it makes by reflection are
 * here, once, beside the same calls written against this validator's own classes ({@link #drivenByName}), which the
 * compiler checks. A test drives a pinned older revision through them (the review module's {@code PinnedRevisionTest}).
 */
final class SnapshotAnswer {

    private SnapshotAnswer() {}

    /**
     * The calls the snapshot probe makes by reflection on a revision's store classes, written out against this
     * validator's own. Never run: it is here so that renaming one of these methods, or changing its signature, fails
     * compilation instead of turning every later audit's snapshot answers into refusals.
     */
    @SuppressWarnings("unused")
    private static byte[] drivenByName(MemorySegment page, long[][] plan) {
        StoreLayout layout = StoreLayout.uniform(3, 2, 64L, 16L);
        try (HostPageStore store = new HostPageStore(layout)) {
            store.write(0, 0L, page);
            Snapshot snapshot = store.newSnapshot(layout.snapshotBytes(plan));
            store.gather(plan, snapshot);
            return store.sha256(snapshot);
        }
    }

    /**
     * The snapshot byte layout: the validator's host page store (three groups of two layers of 64-byte pages, 16 blocks
     * each) filled with the same bytes for every validator (byte i of group g, block b is {@code (g * 131 + b * 31 + i)
     * mod 251}), then the plan gathered into a snapshot: its size and SHA-256. A store the audit cannot drive answers
     * so, which differs from any computed answer (fail closed).
     */
    static String of(ReferenceNamespace.Types types, long[][] plan) {
        try {
            Class<?> layoutType = types.type(StoreLayout.class.getName());
            Class<?> storeType = types.type(HostPageStore.class.getName());
            Class<?> snapshotType = types.type(Snapshot.class.getName());
            Object layout =
                    layoutType
                            .getMethod("uniform", int.class, int.class, long.class, long.class)
                            .invoke(null, 3, 2, 64L, 16L);
            try (AutoCloseable store = (AutoCloseable) storeType.getConstructor(layoutType).newInstance(layout);
                    Arena arena = Arena.ofConfined()) {
                Method write = storeType.getMethod("write", int.class, long.class, MemorySegment.class);
                for (int g = 0; g < 3; g++) {
                    for (long b = 0; b < 16; b++) {
                        MemorySegment page = arena.allocate(128);
                        for (int i = 0; i < 128; i++) {
                            page.set(ValueLayout.JAVA_BYTE, i, (byte) ((g * 131 + b * 31 + i) % 251));
                        }
                        write.invoke(store, g, b, page);
                    }
                }
                long bytes = (long) layoutType.getMethod("snapshotBytes", long[][].class).invoke(layout, (Object) plan);
                Object snapshot = storeType.getMethod("newSnapshot", long.class).invoke(store, bytes);
                storeType.getMethod("gather", long[][].class, snapshotType).invoke(store, plan, snapshot);
                byte[] digest = (byte[]) storeType.getMethod("sha256", snapshotType).invoke(store, snapshot);
                return "bytes=" + bytes + " sha256=" + HexFormat.of().formatHex(digest);
            }
        } catch (InvocationTargetException e) {
            return "the store refused the plan " + Arrays.deepToString(plan) + ": " + e.getCause();
        } catch (Exception e) {
            return "the store's API is not the one the audit drives (StoreLayout.uniform, HostPageStore write,"
                    + " newSnapshot, gather, sha256): "
                    + e;
        }
    }
}
