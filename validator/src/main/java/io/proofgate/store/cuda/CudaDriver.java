package io.proofgate.store.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * The CUDA driver API entry points that the CUDA page store uses, bound with the FFM API from {@code libcuda.so.1}: one
 * downcall per symbol, the {@code _v2} symbols where {@code cuda.h} maps the plain name to one. No JNI and no CUDA
 * toolkit: only the driver library is needed.
 *
 * <p>Types: {@code CUresult}, {@code CUdevice} and flags are {@code int}; {@code CUdeviceptr}, {@code size_t}, {@code
 * CUcontext} and {@code CUstream} are passed as {@code long}. Host pointers that the copies read or write are passed as
 * raw addresses ({@code long}) too: on the 64-bit System V and AAPCS64 ABIs a pointer and a 64-bit integer travel in
 * the same register, and a raw address spares the hot copy paths a {@link MemorySegment} object per page.
 * Out-parameters are {@link MemorySegment}s that the caller allocates in its own {@link Arena}.
 *
 * <p>Every method returns the raw {@code CUresult}; {@link #check} turns a failure into a {@link CudaException} with
 * the name and text from {@code cuGetErrorName}/{@code cuGetErrorString}. The library handle lives in {@link
 * Arena#global()}: libcuda is never unloaded.
 */
public final class CudaDriver {

    /** The library name the loader looks for. */
    public static final String LIBRARY = "libcuda.so.1";

    public static final int CUDA_SUCCESS = 0;

    /** {@code CU_STREAM_NON_BLOCKING}: no implicit synchronization with the legacy default stream. */
    public static final int CU_STREAM_NON_BLOCKING = 0x1;

    /** {@code CU_MEMCPY_SRC_ACCESS_ORDER_STREAM}: a batch reads its sources in stream order. */
    public static final int CU_MEMCPY_SRC_ACCESS_ORDER_STREAM = 0x1;

    /**
     * {@code sizeof(CUmemcpyAttributes)}: {@code srcAccessOrder} (int), two {@code CUmemLocation} hints ({@code {int
     * type; int id;}} each) and {@code flags} (unsigned int).
     */
    public static final long MEMCPY_ATTRIBUTES_BYTES = 24;

    private static volatile Object loaded;

    private final MethodHandle cuInit;
    private final MethodHandle cuDeviceGetCount;
    private final MethodHandle cuDeviceGet;
    private final MethodHandle cuDeviceGetName;
    private final MethodHandle cuDevicePrimaryCtxRetain;
    private final MethodHandle cuDevicePrimaryCtxRelease;
    private final MethodHandle cuCtxSetCurrent;
    private final MethodHandle cuMemAlloc;
    private final MethodHandle cuMemFree;
    private final MethodHandle cuMemHostAlloc;
    private final MethodHandle cuMemFreeHost;
    private final MethodHandle cuMemcpyHtoDAsync;
    private final MethodHandle cuMemcpyDtoHAsync;
    private final MethodHandle cuMemcpyDtoDAsync;

    /** Null where the driver predates CUDA 13's {@code cuMemcpyBatchAsync_v2}. */
    private final MethodHandle cuMemcpyBatchAsync;

    private final MethodHandle cuModuleLoadDataEx;
    private final MethodHandle cuModuleGetFunction;
    private final MethodHandle cuLaunchKernel;
    private final MethodHandle cuStreamCreate;
    private final MethodHandle cuStreamSynchronize;
    private final MethodHandle cuStreamDestroy;
    private final MethodHandle cuGetErrorName;
    private final MethodHandle cuGetErrorString;

    private CudaDriver(SymbolLookup library) {
        Linker linker = Linker.nativeLinker();
        Binder bind =
                (name, descriptor) ->
                        linker.downcallHandle(
                                library.find(name)
                                        .orElseThrow(
                                                () ->
                                                        new UnsatisfiedLinkError(
                                                                LIBRARY
                                                                        + " has no symbol "
                                                                        + name
                                                                        + " (driver too old?)")),
                                descriptor);
        cuInit = bind.handle("cuInit", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        cuDeviceGetCount = bind.handle("cuDeviceGetCount", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        cuDeviceGet = bind.handle("cuDeviceGet", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        cuDeviceGetName = bind.handle("cuDeviceGetName", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
        cuDevicePrimaryCtxRetain =
                bind.handle("cuDevicePrimaryCtxRetain", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        cuDevicePrimaryCtxRelease =
                bind.handle("cuDevicePrimaryCtxRelease_v2", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        cuCtxSetCurrent = bind.handle("cuCtxSetCurrent", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
        cuMemAlloc = bind.handle("cuMemAlloc_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        cuMemFree = bind.handle("cuMemFree_v2", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
        cuMemHostAlloc = bind.handle("cuMemHostAlloc", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
        cuMemFreeHost = bind.handle("cuMemFreeHost", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
        cuMemcpyHtoDAsync =
                bind.handle(
                        "cuMemcpyHtoDAsync_v2",
                        FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
        cuMemcpyDtoHAsync =
                bind.handle(
                        "cuMemcpyDtoHAsync_v2",
                        FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
        cuMemcpyDtoDAsync =
                bind.handle(
                        "cuMemcpyDtoDAsync_v2",
                        FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
        // Optional: CUDA 12.8's cuMemcpyBatchAsync had a failIdx parameter; only the _v2 signature is bound.
        cuMemcpyBatchAsync =
                library.find("cuMemcpyBatchAsync_v2")
                        .map(
                                symbol ->
                                        linker.downcallHandle(
                                                symbol,
                                                FunctionDescriptor.of(
                                                        JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG,
                                                        JAVA_LONG, JAVA_LONG, JAVA_LONG)))
                        .orElse(null);
        cuModuleLoadDataEx =
                bind.handle(
                        "cuModuleLoadDataEx",
                        FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS));
        cuModuleGetFunction =
                bind.handle("cuModuleGetFunction", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS));
        cuLaunchKernel =
                bind.handle(
                        "cuLaunchKernel",
                        FunctionDescriptor.of(
                                JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT,
                                JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG));
        cuStreamCreate = bind.handle("cuStreamCreate", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        cuStreamSynchronize = bind.handle("cuStreamSynchronize", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
        cuStreamDestroy = bind.handle("cuStreamDestroy_v2", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
        cuGetErrorName = bind.handle("cuGetErrorName", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
        cuGetErrorString = bind.handle("cuGetErrorString", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
    }

    @FunctionalInterface
    private interface Binder {
        MethodHandle handle(String name, FunctionDescriptor descriptor);
    }

    /**
     * The driver, loaded once per JVM, or a {@link CudaUnavailableException} whose message says why not (e.g. {@code no
     * libcuda.so.1: ...}). The same answer is given on every later call.
     */
    public static CudaDriver load() throws CudaUnavailableException {
        Object state = loaded;
        if (state == null) {
            synchronized (CudaDriver.class) {
                state = loaded;
                if (state == null) {
                    state = tryLoad();
                    loaded = state;
                }
            }
        }
        if (state instanceof CudaDriver driver) {
            return driver;
        }
        throw new CudaUnavailableException((String) state);
    }

    private static Object tryLoad() {
        SymbolLookup library;
        try {
            library = SymbolLookup.libraryLookup(LIBRARY, Arena.global());
        } catch (IllegalArgumentException | IllegalCallerException e) {
            return "no " + LIBRARY + ": " + e.getMessage();
        }
        try {
            return new CudaDriver(library);
        } catch (UnsatisfiedLinkError e) {
            return e.getMessage();
        }
    }

    /** Throws a {@link CudaException} for {@code result} unless it is {@code CUDA_SUCCESS}. */
    public void check(int result, String symbol, String work) {
        if (result != CUDA_SUCCESS) {
            throw error(result, symbol, work);
        }
    }

    /** The exception for a failed call; {@code work} says what was being done ("copying page 17 to device 0"). */
    public CudaException error(int result, String symbol, String work) {
        return new CudaException(
                symbol,
                result,
                errorText(cuGetErrorName, result, "CUDA_ERROR_UNKNOWN_CODE"),
                work,
                errorText(cuGetErrorString, result, ""));
    }

    private static String errorText(MethodHandle handle, int result, String fallback) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment text = arena.allocate(ADDRESS);
            int status = (int) handle.invokeExact(result, text);
            MemorySegment pointer = text.get(ADDRESS, 0);
            if (status != CUDA_SUCCESS || pointer.equals(MemorySegment.NULL)) {
                return fallback;
            }
            // The driver owns the string (static storage); it is read, never freed.
            return pointer.reinterpret(4096).getString(0);
        } catch (Throwable e) {
            return fallback;
        }
    }

    /** {@code cuInit(flags)}; flags must be 0. No memory. */
    public int cuInit(int flags) {
        try {
            return (int) cuInit.invokeExact(flags);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /** {@code cuDeviceGetCount(int* count)}; {@code count} (4 bytes) is owned by the caller's Arena. */
    public int cuDeviceGetCount(MemorySegment count) {
        try {
            return (int) cuDeviceGetCount.invokeExact(count);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /** {@code cuDeviceGet(CUdevice* device, int ordinal)}; {@code device} is owned by the caller's Arena. */
    public int cuDeviceGet(MemorySegment device, int ordinal) {
        try {
            return (int) cuDeviceGet.invokeExact(device, ordinal);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /** {@code cuDeviceGetName(char* name, int len, CUdevice dev)}; {@code name} is owned by the caller's Arena. */
    public int cuDeviceGetName(MemorySegment name, int length, int device) {
        try {
            return (int) cuDeviceGetName.invokeExact(name, length, device);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /**
     * {@code cuDevicePrimaryCtxRetain(CUcontext* pctx, CUdevice dev)}; {@code context} is owned by the caller's Arena,
     * the context itself by the driver until {@link #cuDevicePrimaryCtxRelease}.
     */
    public int cuDevicePrimaryCtxRetain(MemorySegment context, int device) {
        try {
            return (int) cuDevicePrimaryCtxRetain.invokeExact(context, device);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /** {@code cuDevicePrimaryCtxRelease_v2(CUdevice dev)}. No memory. */
    public int cuDevicePrimaryCtxRelease(int device) {
        try {
            return (int) cuDevicePrimaryCtxRelease.invokeExact(device);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /** {@code cuCtxSetCurrent(CUcontext ctx)}: binds the context to the calling OS thread. No memory. */
    public int cuCtxSetCurrent(long context) {
        try {
            return (int) cuCtxSetCurrent.invokeExact(context);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /**
     * {@code cuMemAlloc_v2(CUdeviceptr* dptr, size_t bytesize)}; {@code pointer} is owned by the caller's Arena; the
     * device memory belongs to the current context, in no Arena, until {@link #cuMemFree}.
     */
    public int cuMemAlloc(MemorySegment pointer, long bytes) {
        try {
            return (int) cuMemAlloc.invokeExact(pointer, bytes);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /** {@code cuMemFree_v2(CUdeviceptr dptr)}. Frees device memory; no Arena involved. */
    public int cuMemFree(long devicePointer) {
        try {
            return (int) cuMemFree.invokeExact(devicePointer);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /**
     * {@code cuMemHostAlloc(void** pp, size_t bytesize, unsigned int flags)}: page-locked host memory. {@code pointer}
     * is owned by the caller's Arena; the pinned memory belongs to the driver, in no Arena, until {@link
     * #cuMemFreeHost}: callers reinterpret it without a cleanup.
     */
    public int cuMemHostAlloc(MemorySegment pointer, long bytes, int flags) {
        try {
            return (int) cuMemHostAlloc.invokeExact(pointer, bytes, flags);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /** {@code cuMemFreeHost(void* p)}: frees memory from {@link #cuMemHostAlloc}. */
    public int cuMemFreeHost(long hostAddress) {
        try {
            return (int) cuMemFreeHost.invokeExact(hostAddress);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /**
     * {@code cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void* src, size_t n, CUstream s)}; {@code hostAddress} must be
     * pinned memory from {@link #cuMemHostAlloc} (no Arena) that stays untouched until the stream is synchronized.
     */
    public int cuMemcpyHtoDAsync(long devicePointer, long hostAddress, long bytes, long stream) {
        try {
            return (int) cuMemcpyHtoDAsync.invokeExact(devicePointer, hostAddress, bytes, stream);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /**
     * {@code cuMemcpyDtoHAsync_v2(void* dst, CUdeviceptr src, size_t n, CUstream s)}; {@code hostAddress} must be
     * pinned memory from {@link #cuMemHostAlloc} (no Arena), read only after the stream is synchronized.
     */
    public int cuMemcpyDtoHAsync(long hostAddress, long devicePointer, long bytes, long stream) {
        try {
            return (int) cuMemcpyDtoHAsync.invokeExact(hostAddress, devicePointer, bytes, stream);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /** {@code cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)}. Device memory only. */
    public int cuMemcpyDtoDAsync(long destination, long source, long bytes, long stream) {
        try {
            return (int) cuMemcpyDtoDAsync.invokeExact(destination, source, bytes, stream);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /** {@code CU_JIT_ERROR_LOG_BUFFER}: a {@code char*} the JIT writes its error log into. */
    public static final int CU_JIT_ERROR_LOG_BUFFER = 5;

    /** {@code CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES}: that buffer's size, passed as the pointer-sized value itself. */
    public static final int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;

    /**
     * {@code cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned int numOptions, CUjit_option* options,
     * void** optionValues)}: loads (for PTX, JIT-compiles) a module into the current context. Every segment is owned by
     * the caller's Arena; the module by the context.
     */
    public int cuModuleLoadDataEx(
            MemorySegment module,
            MemorySegment image,
            int optionCount,
            MemorySegment options,
            MemorySegment optionValues) {
        try {
            return (int) cuModuleLoadDataEx.invokeExact(module, image, optionCount, options, optionValues);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /**
     * {@code cuModuleGetFunction(CUfunction* function, CUmodule module, const char* name)}; segments in the caller's
     * Arena.
     */
    public int cuModuleGetFunction(MemorySegment function, long module, MemorySegment name) {
        try {
            return (int) cuModuleGetFunction.invokeExact(function, module, name);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /**
     * {@code cuLaunchKernel(CUfunction f, unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
     * unsigned sharedMemBytes, CUstream s, void** kernelParams, void** extra)}. {@code kernelParams} is the raw address
     * of native memory holding one pointer per kernel parameter, each to that parameter's value; the driver copies the
     * values before it returns.
     */
    public int cuLaunchKernel(
            long function,
            int gridX,
            int gridY,
            int gridZ,
            int blockX,
            int blockY,
            int blockZ,
            int sharedBytes,
            long stream,
            long kernelParams,
            long extra) {
        try {
            return (int)
                    cuLaunchKernel.invokeExact(
                            function,
                            gridX,
                            gridY,
                            gridZ,
                            blockX,
                            blockY,
                            blockZ,
                            sharedBytes,
                            stream,
                            kernelParams,
                            extra);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /** Whether the driver has {@code cuMemcpyBatchAsync_v2} (CUDA 13 and later). */
    public boolean hasBatchCopies() {
        return cuMemcpyBatchAsync != null;
    }

    /**
     * {@code cuMemcpyBatchAsync_v2(CUdeviceptr* dsts, CUdeviceptr* srcs, size_t* sizes, size_t count,
     * CUmemcpyAttributes* attrs, size_t* attrsIdxs, size_t numAttrs, CUstream hStream)}. Every array argument is the
     * raw address of native memory that the caller owns and keeps unchanged until the call returns; {@code stream} must
     * not be the legacy stream. Only where {@link #hasBatchCopies()}.
     */
    public int cuMemcpyBatchAsync(
            long destinations,
            long sources,
            long sizes,
            long count,
            long attributes,
            long attributeIndices,
            long attributeCount,
            long stream) {
        if (cuMemcpyBatchAsync == null) {
            throw new UnsupportedOperationException(LIBRARY + " has no cuMemcpyBatchAsync_v2");
        }
        try {
            return (int)
                    cuMemcpyBatchAsync.invokeExact(
                            destinations, sources, sizes, count, attributes, attributeIndices, attributeCount, stream);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /**
     * {@code cuStreamCreate(CUstream* phStream, unsigned int flags)}; {@code stream} is owned by the caller's Arena.
     */
    public int cuStreamCreate(MemorySegment stream, int flags) {
        try {
            return (int) cuStreamCreate.invokeExact(stream, flags);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /** {@code cuStreamSynchronize(CUstream s)}. No memory. */
    public int cuStreamSynchronize(long stream) {
        try {
            return (int) cuStreamSynchronize.invokeExact(stream);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /** {@code cuStreamDestroy_v2(CUstream s)}. No memory. */
    public int cuStreamDestroy(long stream) {
        try {
            return (int) cuStreamDestroy.invokeExact(stream);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /** {@code cuGetErrorName(CUresult e, const char** name)}; {@code name} is owned by the caller's Arena. */
    public int cuGetErrorName(int result, MemorySegment name) {
        try {
            return (int) cuGetErrorName.invokeExact(result, name);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /** {@code cuGetErrorString(CUresult e, const char** text)}; {@code text} is owned by the caller's Arena. */
    public int cuGetErrorString(int result, MemorySegment text) {
        try {
            return (int) cuGetErrorString.invokeExact(result, text);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    private static RuntimeException rethrow(Throwable e) {
        if (e instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (e instanceof Error error) {
            throw error;
        }
        throw new IllegalStateException("downcall failed", e);
    }
}
