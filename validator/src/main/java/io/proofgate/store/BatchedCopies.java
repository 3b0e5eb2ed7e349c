package io.proofgate.store;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.proofgate.store.cuda.CudaDriver;
import io.proofgate.store.cuda.CudaException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * {@link CudaPageStore.Copies#BATCHED}: one {@code cuMemcpyBatchAsync_v2} call per gather or scatter (CUDA 13 drivers).
 */
final class BatchedCopies implements DeviceCopies {
    private final CudaDriver driver;
    private final long stream;
    private final int ordinal;
    private final StoreLayout layout;

    /** The batch's native arrays, reused across operations; grown (never shrunk) by {@link #begin}. */
    private Arena batchArena;

    private MemorySegment batch;
    private long batchCapacity;
    private long count;

    BatchedCopies(CudaDriver driver, long stream, int ordinal, StoreLayout layout) {
        this.driver = driver;
        this.stream = stream;
        this.ordinal = ordinal;
        this.layout = layout;
    }

    /**
     * Makes room for a batch of at most one copy per selected block and layer: three arrays (destinations, sources,
     * sizes) of {@code batchCapacity} longs, then one {@code CUmemcpyAttributes} that applies to every copy, then its
     * start index, 0.
     */
    @Override
    @SuppressWarnings("MustBeClosedChecker") // the arrays' arena is kept, and closed when replaced or in close()
    public void begin(long[][] blocksByGroup) {
        count = 0;
        long needed = 0;
        for (int g = 0; g < blocksByGroup.length; g++) {
            needed += (long) blocksByGroup[g].length * layout.group(g).layers();
        }
        if (needed <= batchCapacity) {
            return;
        }
        long capacity = Math.max(needed, 2 * batchCapacity);
        Arena arena = Arena.ofShared();
        MemorySegment arrays =
                arena.allocate(3 * capacity * Long.BYTES + CudaDriver.MEMCPY_ATTRIBUTES_BYTES + Long.BYTES, Long.BYTES);
        long attributes = 3 * capacity * Long.BYTES;
        // srcAccessOrder = stream order; no location hints (plain device pointers); no flags; index 0.
        arrays.asSlice(attributes, CudaDriver.MEMCPY_ATTRIBUTES_BYTES + Long.BYTES).fill((byte) 0);
        arrays.set(JAVA_INT, attributes, CudaDriver.CU_MEMCPY_SRC_ACCESS_ORDER_STREAM);
        if (batchArena != null) {
            batchArena.close();
        }
        batchArena = arena;
        batch = arrays;
        batchCapacity = capacity;
    }

    @Override
    public void add(long destination, long source, long bytes, boolean gather, int group, int layer, long block) {
        batch.setAtIndex(JAVA_LONG, count, destination);
        batch.setAtIndex(JAVA_LONG, batchCapacity + count, source);
        batch.setAtIndex(JAVA_LONG, 2 * batchCapacity + count, bytes);
        count++;
    }

    @Override
    public void submit(boolean gather, long bytes) {
        if (count == 0) {
            return;
        }
        long arrays = batch.address();
        long attributes = arrays + 3 * batchCapacity * Long.BYTES;
        long attributeIndex = attributes + CudaDriver.MEMCPY_ATTRIBUTES_BYTES;
        int result =
                driver.cuMemcpyBatchAsync(
                        arrays,
                        arrays + batchCapacity * Long.BYTES,
                        arrays + 2 * batchCapacity * Long.BYTES,
                        count,
                        attributes,
                        attributeIndex,
                        1,
                        stream);
        if (result != CudaDriver.CUDA_SUCCESS) {
            throw driver.error(
                    result,
                    "cuMemcpyBatchAsync_v2",
                    DeviceCopies.work(gather, count, bytes, ordinal) + " in one batch");
        }
    }

    @Override
    public CudaException free(CudaException first) {
        if (batchArena != null) {
            batchArena.close();
            batchArena = null;
        }
        return first;
    }
}
