package io.proofgate.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.store.cuda.CudaDriver;
import io.proofgate.store.cuda.CudaException;
import io.proofgate.store.cuda.CudaUnavailableException;

import org.junit.jupiter.api.Test;

/** The parts of the CUDA store that need no GPU: error text and the skip reason. */
class CudaExceptionTest {

    @Test
    void message_namesSymbolErrorCodeWorkAndDescription() {
        CudaException e =
                new CudaException(
                        "cuMemcpyHtoD_v2",
                        1,
                        "CUDA_ERROR_INVALID_VALUE",
                        "copying page 17 to device 0",
                        "invalid argument");
        assertEquals(
                "cuMemcpyHtoD_v2: CUDA_ERROR_INVALID_VALUE (1) copying page 17 to device 0: invalid argument",
                e.getMessage());
    }

    @Test
    void unavailableReason_isEmptyOrSaysWhy() {
        var reason = io.proofgate.store.CudaPageStore.unavailableReason(0);
        try {
            CudaDriver.load();
            reason.ifPresent(why -> assertTrue(why.startsWith("no "), why));
        } catch (CudaUnavailableException e) {
            assertTrue(e.getMessage().startsWith("no " + CudaDriver.LIBRARY + ": "), e.getMessage());
            assertEquals(e.getMessage(), reason.orElseThrow());
        }
    }
}
