package io.proofgate.store;

import io.proofgate.store.cuda.CudaDriver;
import io.proofgate.store.cuda.CudaException;

/**
 * The device-to-device copies of one gather or scatter of a {@link CudaPageStore}, handed to the driver in one of the
 * ways of {@link CudaPageStore.Copies}. The store walks the selection and adds one copy per run of consecutive block
 * ids in a layer, then submits; every copy is queued on the store's stream, and the store waits once.
 */
sealed interface DeviceCopies permits KernelCopies, BatchedCopies, OneByOneCopies {

    /** Starts a gather or scatter of {@code blocksByGroup}, with room for all its copies. */
    void begin(long[][] blocksByGroup);

    /**
     * One copy of {@code bytes}; {@code gather}, {@code group}, {@code layer} and {@code block} (the run's first block
     * id) only say what was being done if the driver refuses it.
     */
    void add(long destination, long source, long bytes, boolean gather, int group, int layer, long block);

    /** Queues the copies added since {@link #begin}, {@code bytes} in all; nothing if there are none. */
    void submit(boolean gather, long bytes);

    /** Frees what it holds; returns {@code first}, or else its own first failure. */
    CudaException free(CudaException first);

    /** What a failed gather or scatter was doing; built only when one fails, not on every call. */
    static String work(boolean gather, long count, long bytes, int ordinal) {
        return (gather ? "gathering " : "scattering ") + count + " copies (" + bytes + " bytes) on device " + ordinal;
    }

    /** {@code first}, or else the failure {@code result} reports, if any. */
    static CudaException keep(CudaDriver driver, CudaException first, int result, String symbol, String work) {
        if (result == CudaDriver.CUDA_SUCCESS || first != null) {
            return first;
        }
        return driver.error(result, symbol, work);
    }
}
