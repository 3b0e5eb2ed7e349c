package io.proofgate.store.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * A device's primary context, retained once per process and never released, with the page store's copy kernel ({@code
 * copy.ptx}) loaded into it once.
 *
 * <p>Why never released: the driver creates the primary context when its retain count goes from 0 to 1 and destroys it
 * when it drops back to 0. A store that retained and released it around its own life made every store open and close
 * create and destroy a context; on an H200 the 3,497 generated conformance tests (one store each) did not finish in 150
 * s that way. The driver releases everything at process exit.
 *
 * <p>{@code copyFunction} is 0 where the driver could not JIT-compile the kernel; {@code kernelError} then says why,
 * with the JIT's log, and stores that need the kernel refuse to open.
 */
public record PrimaryContext(int ordinal, String name, long context, long copyFunction, String kernelError) {

    /** The kernel's entry point in {@code copy.ptx}. */
    public static final String COPY_KERNEL = "proofgate_copy";

    private static final Map<Integer, PrimaryContext> RETAINED = new HashMap<>();

    /** Device {@code ordinal}'s primary context, retained on first use; {@code cuInit} must have succeeded. */
    public static synchronized PrimaryContext of(CudaDriver driver, int ordinal) {
        PrimaryContext known = RETAINED.get(ordinal);
        if (known == null) {
            known = retain(driver, ordinal);
            RETAINED.put(ordinal, known);
        }
        return known;
    }

    private static PrimaryContext retain(CudaDriver driver, int ordinal) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_LONG);
            driver.check(driver.cuDeviceGet(out, ordinal), "cuDeviceGet", "opening device " + ordinal);
            int device = out.get(JAVA_INT, 0);
            MemorySegment name = arena.allocate(256);
            driver.check(driver.cuDeviceGetName(name, 256, device), "cuDeviceGetName", "naming device " + ordinal);
            out.set(JAVA_LONG, 0, 0);
            driver.check(
                    driver.cuDevicePrimaryCtxRetain(out, device),
                    "cuDevicePrimaryCtxRetain",
                    "retaining device " + ordinal + "'s primary context");
            long context = out.get(JAVA_LONG, 0);
            int current = driver.cuCtxSetCurrent(context);
            if (current != CudaDriver.CUDA_SUCCESS) {
                // Not kept, so not retained: the next attempt starts from a count of 0 again.
                driver.cuDevicePrimaryCtxRelease(device);
                throw driver.error(
                        current, "cuCtxSetCurrent", "making device " + ordinal + "'s primary context current");
            }
            long function = 0;
            String kernelError = "";
            try {
                function = loadCopyKernel(driver, arena, ordinal);
            } catch (CudaException | IllegalStateException | UncheckedIOException e) {
                kernelError = e.getMessage();
            }
            return new PrimaryContext(ordinal, name.getString(0), context, function, kernelError);
        }
    }

    /** JIT-compiles copy.ptx into the current context; a failure carries the JIT's error log. */
    private static long loadCopyKernel(CudaDriver driver, Arena arena, int ordinal) {
        String ptx;
        try (InputStream in = PrimaryContext.class.getResourceAsStream("copy.ptx")) {
            if (in == null) {
                throw new IllegalStateException("copy.ptx is missing from the validator jar");
            }
            ptx = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("reading copy.ptx", e);
        }
        // PTX is a NUL-terminated text image.
        MemorySegment image = arena.allocateFrom(ptx);
        int logBytes = 16 * 1024;
        MemorySegment log = arena.allocate(logBytes);
        MemorySegment options = arena.allocate(JAVA_INT, 2);
        options.setAtIndex(JAVA_INT, 0, CudaDriver.CU_JIT_ERROR_LOG_BUFFER);
        options.setAtIndex(JAVA_INT, 1, CudaDriver.CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES);
        MemorySegment values = arena.allocate(ADDRESS, 2);
        values.setAtIndex(ADDRESS, 0, log);
        // The size travels as the pointer-sized value itself, not through a pointer.
        values.setAtIndex(JAVA_LONG, 1, logBytes);
        MemorySegment module = arena.allocate(JAVA_LONG);
        int result = driver.cuModuleLoadDataEx(module, image, 2, options, values);
        if (result != CudaDriver.CUDA_SUCCESS) {
            throw driver.error(
                    result,
                    "cuModuleLoadDataEx",
                    "JIT-compiling the copy kernel for device " + ordinal + " (log: " + log.getString(0).strip() + ")");
        }
        MemorySegment function = arena.allocate(JAVA_LONG);
        driver.check(
                driver.cuModuleGetFunction(function, module.get(JAVA_LONG, 0), arena.allocateFrom(COPY_KERNEL)),
                "cuModuleGetFunction",
                "finding " + COPY_KERNEL + " on device " + ordinal);
        return function.get(JAVA_LONG, 0);
    }

    /** Binds this context to the calling OS thread. */
    public void makeCurrent(CudaDriver driver) {
        int result = driver.cuCtxSetCurrent(context);
        if (result != CudaDriver.CUDA_SUCCESS) {
            throw driver.error(result, "cuCtxSetCurrent", "making device " + ordinal + "'s primary context current");
        }
    }
}
