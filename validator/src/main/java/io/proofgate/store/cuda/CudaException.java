package io.proofgate.store.cuda;

/**
 * A CUresult other than {@code CUDA_SUCCESS}, reported with the symbol, the name from {@code cuGetErrorName}, the code,
 * the work being done and {@code cuGetErrorString}'s text, e.g. {@code cuMemcpyHtoDAsync_v2: CUDA_ERROR_INVALID_VALUE
 * (1) copying page 17 to device 0: invalid argument}.
 */
public final class CudaException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String symbol;
    private final int result;
    private final String errorName;

    public CudaException(String symbol, int result, String errorName, String work, String description) {
        super(
                symbol
                        + ": "
                        + errorName
                        + " ("
                        + result
                        + ") "
                        + work
                        + (description.isEmpty() ? "" : ": " + description));
        this.symbol = symbol;
        this.result = result;
        this.errorName = errorName;
    }

    /** The driver entry point that failed, e.g. {@code cuMemAlloc_v2}. */
    public String symbol() {
        return symbol;
    }

    /** The raw CUresult. */
    public int result() {
        return result;
    }

    /** {@code cuGetErrorName}'s name for the result, e.g. {@code CUDA_ERROR_OUT_OF_MEMORY}. */
    public String errorName() {
        return errorName;
    }
}
