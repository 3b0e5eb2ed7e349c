package io.proofgate.store;

import io.proofgate.store.cuda.CudaDriver;
import io.proofgate.store.cuda.CudaException;

/** {@link CudaPageStore.Copies#ONE_BY_ONE}: one {@code cuMemcpyDtoDAsync_v2} call per copy, queued as it is added. */
final class OneByOneCopies implements DeviceCopies {
    private final CudaDriver driver;
    private final long stream;
    private final int ordinal;

    OneByOneCopies(CudaDriver driver, long stream, int ordinal) {
        this.driver = driver;
        this.stream = stream;
        this.ordinal = ordinal;
    }

    @Override
    public void begin(long[][] blocksByGroup) {}

    @Override
    public void add(long destination, long source, long bytes, boolean gather, int group, int layer, long block) {
        int result = driver.cuMemcpyDtoDAsync(destination, source, bytes, stream);
        if (result != CudaDriver.CUDA_SUCCESS) {
            throw driver.error(
                    result,
                    "cuMemcpyDtoDAsync_v2",
                    (gather ? "gathering page " : "scattering page ")
                            + block
                            + " of group "
                            + group
                            + " layer "
                            + layer
                            + " on device "
                            + ordinal);
        }
    }

    @Override
    public void submit(boolean gather, long bytes) {}

    @Override
    public CudaException free(CudaException first) {
        return first;
    }
}
