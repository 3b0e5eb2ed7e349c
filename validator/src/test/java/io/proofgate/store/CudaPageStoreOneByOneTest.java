package io.proofgate.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The whole contract again on the fallback that drivers without {@code cuMemcpyBatchAsync_v2} get: one {@code
 * cuMemcpyDtoDAsync_v2} per run of consecutive block ids. Skipped, with the reason, where there is no CUDA device.
 */
class CudaPageStoreOneByOneTest extends CudaPageStoreTest {

    @Override
    PageStore open(StoreLayout layout) throws Exception {
        return CudaPageStore.open(
                layout,
                CudaPageStore.defaultOrdinal(),
                CudaPageStore.DEFAULT_STAGING_BYTES,
                CudaPageStore.Copies.ONE_BY_ONE);
    }

    @Test
    @Override
    void copies_areByKernelUnlessAskedOtherwise() throws Exception {
        try (CudaPageStore store = (CudaPageStore) open(LAYOUT)) {
            assertEquals(CudaPageStore.Copies.ONE_BY_ONE, store.copies());
        }
    }
}
