package io.proofgate.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * The whole contract again with the kernel cutting copies at 1 KiB instead of 64 KiB, so that every page of the
 * contract's layouts is split, some into unaligned pieces. Skipped, with the reason, where there is no CUDA device.
 */
class CudaPageStoreSmallChunksTest extends CudaPageStoreTest {

    @Override
    PageStore open(StoreLayout layout) throws Exception {
        return CudaPageStore.open(
                layout,
                CudaPageStore.defaultOrdinal(),
                CudaPageStore.DEFAULT_STAGING_BYTES,
                CudaPageStore.Copies.KERNEL,
                1024);
    }

    @Test
    @Override
    void copies_areByKernelUnlessAskedOtherwise() throws Exception {
        try (CudaPageStore store = (CudaPageStore) open(LAYOUT)) {
            assertEquals(CudaPageStore.Copies.KERNEL, store.copies());
        }
    }

    @Test
    void chunkSizes_mustBePositiveMultiplesOf16() {
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                CudaPageStore.open(
                                        LAYOUT,
                                        CudaPageStore.defaultOrdinal(),
                                        CudaPageStore.DEFAULT_STAGING_BYTES,
                                        CudaPageStore.Copies.KERNEL,
                                        1000));
        assertEquals("kernelChunkBytes must be a positive multiple of 16, got 1000", e.getMessage());
    }
}
