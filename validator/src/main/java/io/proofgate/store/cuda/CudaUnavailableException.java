package io.proofgate.store.cuda;

/** The CUDA store cannot run here; the message is the reason (e.g. {@code no libcuda.so.1: ...}). */
public final class CudaUnavailableException extends Exception {

    private static final long serialVersionUID = 1L;

    public CudaUnavailableException(String reason) {
        super(reason);
    }
}
