package io.proofgate.store;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.proofgate.store.cuda.CudaDriver;
import io.proofgate.store.cuda.CudaException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * {@link CudaPageStore.Copies#KERNEL}: one launch of {@code copy.ptx}'s kernel per gather or scatter, after one
 * host-to-device copy of the copy list (destination, source, bytes per copy; copies cut at the chunk size so that large
 * pages still spread over the GPU).
 */
final class KernelCopies implements DeviceCopies {
    private static final int KERNEL_THREADS = 256;
    private static final int KERNEL_MAX_BLOCKS = 65535;
    private static final long DESCRIPTOR_BYTES = 3 * Long.BYTES;

    private final CudaDriver driver;
    private final long stream;
    private final int ordinal;
    private final StoreLayout layout;
    private final long copyFunction;
    private final long kernelChunkBytes;

    /** The kernel's copy list: written in pinned memory, copied to device memory; grown by {@link #begin}. */
    private long listHostAddress;

    private MemorySegment listHost;

    /** The list is built here first: plain array stores, then one copy into pinned memory. */
    private long[] list = new long[0];

    private long listDevice;
    private long listCapacity;
    private long count;

    /** The kernel's two parameter values, then the two pointers to them that cuLaunchKernel takes. */
    private final Arena launchArena;

    private final MemorySegment launch;

    /**
     * @param copyFunction the kernel, from {@code PrimaryContext.copyFunction}
     */
    @SuppressWarnings("MustBeClosedChecker") // the launch arena lives as long as this, and close() closes it
    KernelCopies(
            CudaDriver driver, long stream, int ordinal, StoreLayout layout, long copyFunction, long kernelChunkBytes) {
        this.driver = driver;
        this.stream = stream;
        this.ordinal = ordinal;
        this.layout = layout;
        this.copyFunction = copyFunction;
        this.kernelChunkBytes = kernelChunkBytes;
        this.launchArena = Arena.ofShared();
        this.launch = launchArena.allocate(4 * Long.BYTES, Long.BYTES);
        // cuLaunchKernel's void** kernelParams: one pointer to each of the two values before it.
        launch.set(JAVA_LONG, 2 * Long.BYTES, launch.address());
        launch.set(JAVA_LONG, 3 * Long.BYTES, launch.address() + Long.BYTES);
    }

    /**
     * Makes room for the kernel's copy list: at most one entry per chunk of each selected page, in pinned memory and in
     * device memory of the same size.
     */
    @Override
    public void begin(long[][] blocksByGroup) {
        count = 0;
        long needed = 0;
        for (int g = 0; g < blocksByGroup.length; g++) {
            StoreLayout.GroupLayout geometry = layout.group(g);
            long chunksPerPage = (geometry.pageBytes() + kernelChunkBytes - 1) / kernelChunkBytes;
            needed += (long) blocksByGroup[g].length * geometry.layers() * chunksPerPage;
        }
        if (needed <= listCapacity) {
            return;
        }
        long capacity = Math.max(needed, 2 * listCapacity);
        long bytes = capacity * DESCRIPTOR_BYTES;
        CudaException freeing = freeList(null);
        if (freeing != null) {
            throw freeing;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_LONG);
            driver.check(
                    driver.cuMemHostAlloc(out, bytes, 0),
                    "cuMemHostAlloc",
                    "allocating a " + bytes + "-byte pinned copy list on device " + ordinal);
            listHostAddress = out.get(JAVA_LONG, 0);
            listHost = MemorySegment.ofAddress(listHostAddress).reinterpret(bytes);
            out.set(JAVA_LONG, 0, 0);
            driver.check(
                    driver.cuMemAlloc(out, bytes),
                    "cuMemAlloc_v2",
                    "allocating a " + bytes + "-byte copy list on device " + ordinal);
            listDevice = out.get(JAVA_LONG, 0);
        }
        list = new long[Math.toIntExact(3 * capacity)];
        listCapacity = capacity;
    }

    @Override
    public void add(long destination, long source, long bytes, boolean gather, int group, int layer, long block) {
        for (long done = 0; done < bytes; done += kernelChunkBytes) {
            int at = (int) (3 * count++);
            list[at] = destination + done;
            list[at + 1] = source + done;
            list[at + 2] = Math.min(kernelChunkBytes, bytes - done);
        }
    }

    /** Copies the list to the device and launches the kernel on it, both queued on the store's stream. */
    @Override
    public void submit(boolean gather, long bytes) {
        if (count == 0) {
            return;
        }
        MemorySegment.copy(list, 0, listHost, JAVA_LONG, 0, (int) (3 * count));
        int result = driver.cuMemcpyHtoDAsync(listDevice, listHostAddress, count * DESCRIPTOR_BYTES, stream);
        if (result != CudaDriver.CUDA_SUCCESS) {
            throw driver.error(
                    result,
                    "cuMemcpyHtoDAsync_v2",
                    "copying the copy list for " + DeviceCopies.work(gather, count, bytes, ordinal));
        }
        launch.set(JAVA_LONG, 0, listDevice);
        launch.set(JAVA_LONG, Long.BYTES, count);
        int blocks = (int) Math.min(count, KERNEL_MAX_BLOCKS);
        result =
                driver.cuLaunchKernel(
                        copyFunction,
                        blocks,
                        1,
                        1,
                        KERNEL_THREADS,
                        1,
                        1,
                        0,
                        stream,
                        launch.address() + 2 * Long.BYTES,
                        0);
        if (result != CudaDriver.CUDA_SUCCESS) {
            throw driver.error(result, "cuLaunchKernel", DeviceCopies.work(gather, count, bytes, ordinal));
        }
    }

    @Override
    public CudaException free(CudaException first) {
        first = freeList(first);
        launchArena.close();
        return first;
    }

    /** Frees both copies of the list; returns {@code first}, or else the first failure. */
    private CudaException freeList(CudaException first) {
        listCapacity = 0;
        listHost = null;
        if (listHostAddress != 0) {
            first =
                    DeviceCopies.keep(
                            driver,
                            first,
                            driver.cuMemFreeHost(listHostAddress),
                            "cuMemFreeHost",
                            "freeing the pinned copy list on device " + ordinal);
            listHostAddress = 0;
        }
        if (listDevice != 0) {
            first =
                    DeviceCopies.keep(
                            driver,
                            first,
                            driver.cuMemFree(listDevice),
                            "cuMemFree_v2",
                            "freeing the copy list on device " + ordinal);
            listDevice = 0;
        }
        return first;
    }
}
