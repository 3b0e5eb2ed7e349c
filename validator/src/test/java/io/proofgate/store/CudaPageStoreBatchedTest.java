package io.proofgate.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.proofgate.store.cuda.CudaDriver;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The whole contract again with CUDA 13's {@code cuMemcpyBatchAsync_v2}: one batch per gather or scatter. Skipped, with
 * the reason, where there is no CUDA device or the driver has no batch copies.
 */
class CudaPageStoreBatchedTest extends CudaPageStoreTest {

    @BeforeEach
    void needsBatchCopies() throws Exception {
        Assumptions.assumeTrue(
                CudaDriver.load().hasBatchCopies(),
                "batched copies skipped: "
                        + CudaDriver.LIBRARY
                        + " has no cuMemcpyBatchAsync_v2 (CUDA 13 drivers have it)");
    }

    @Override
    PageStore open(StoreLayout layout) throws Exception {
        return CudaPageStore.open(
                layout,
                CudaPageStore.defaultOrdinal(),
                CudaPageStore.DEFAULT_STAGING_BYTES,
                CudaPageStore.Copies.BATCHED);
    }

    @Test
    @Override
    void copies_areByKernelUnlessAskedOtherwise() throws Exception {
        try (CudaPageStore store = (CudaPageStore) open(LAYOUT)) {
            assertEquals(CudaPageStore.Copies.BATCHED, store.copies());
        }
    }
}
