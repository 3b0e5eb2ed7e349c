package io.proofgate.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.store.cuda.CudaException;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The page-store contract on CUDA device memory. Where {@code libcuda.so.1} or a device is missing, every test is
 * skipped with the reason, which is also printed.
 */
class CudaPageStoreTest extends PageStoreContract {

    private static Optional<String> reason;

    @BeforeAll
    static void probe() {
        reason = CudaPageStore.unavailableReason(CudaPageStore.defaultOrdinal());
        reason.ifPresent(why -> System.out.println("CudaPageStoreTest skipped: " + why));
    }

    /** Per test, so that the report counts each test as skipped, with the reason. */
    @BeforeEach
    void needsADevice() {
        Assumptions.assumeTrue(reason.isEmpty(), () -> "CUDA store skipped: " + reason.orElse(""));
    }

    @Override
    PageStore open(StoreLayout layout) throws Exception {
        return CudaPageStore.open(layout, CudaPageStore.defaultOrdinal());
    }

    @Test
    void describe_namesTheDevice() throws Exception {
        try (PageStore store = open(LAYOUT)) {
            System.out.println(store.describe());
            assertTrue(store.describe().startsWith("cuda store: device "), store.describe());
        }
    }

    @Test
    void copies_areByKernelUnlessAskedOtherwise() throws Exception {
        try (CudaPageStore store = CudaPageStore.open(LAYOUT, CudaPageStore.defaultOrdinal())) {
            assertEquals(CudaPageStore.Copies.KERNEL, store.copies());
            assertTrue(store.describe().endsWith("copies by kernel"), store.describe());
        }
    }

    @Test
    void virtualThreads_areRefusedBecauseContextsAreCurrentPerOsThread() throws Exception {
        try (PageStore store = open(LAYOUT)) {
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread.ofVirtual()
                    .start(
                            () -> {
                                try {
                                    store.read(0, 0, MemorySegment.ofArray(new byte[8192]));
                                } catch (Throwable e) {
                                    thrown.set(e);
                                }
                            })
                    .join();
            assertTrue(thrown.get() instanceof IllegalStateException, String.valueOf(thrown.get()));
        }
    }

    @Test
    void anotherPlatformThread_canUseTheStore() throws Exception {
        try (PageStore store = open(LAYOUT)) {
            fill(store, 11);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread worker =
                    Thread.ofPlatform()
                            .start(
                                    () -> {
                                        try {
                                            assertEquals(content(LAYOUT, 2, 3, 11)[0], read(store, 2, 3)[0]);
                                        } catch (Throwable e) {
                                            thrown.set(e);
                                        }
                                    });
            worker.join();
            assertEquals(null, thrown.get());
        }
    }

    @Test
    void hugeAllocations_failWithTheSymbolAndTheErrorName() {
        StoreLayout absurd = StoreLayout.uniform(1, 1, 1L << 40, 64); // 64 TiB
        CudaException e = assertThrows(CudaException.class, () -> open(absurd).close());
        assertEquals("cuMemAlloc_v2", e.symbol());
        assertTrue(
                e.getMessage().startsWith("cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY (2) allocating "), e.getMessage());
    }
}
