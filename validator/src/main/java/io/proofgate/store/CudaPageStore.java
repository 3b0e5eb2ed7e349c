package io.proofgate.store;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.proofgate.store.cuda.CudaDriver;
import io.proofgate.store.cuda.CudaException;
import io.proofgate.store.cuda.CudaUnavailableException;
import io.proofgate.store.cuda.PrimaryContext;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Pages in CUDA device memory, through the driver API ({@link CudaDriver}, FFM downcalls into {@code libcuda.so.1}).
 * Each group's pool is one {@code cuMemAlloc_v2} allocation laid out {@code [layer][block][page]}, like {@link
 * HostPageStore}. Host traffic goes through one pinned staging buffer from {@code cuMemHostAlloc}; every copy is queued
 * on the store's own non-blocking stream, and an operation synchronizes that stream once, after queueing all its
 * copies. A gather or scatter of {@code n} blocks is {@code n x layers} device-to-device copies (fewer where block ids
 * run consecutively). By default one kernel launch runs them all ({@code copy.ptx}, JIT-compiled by the driver); {@link
 * Copies} also offers CUDA 13's {@code cuMemcpyBatchAsync_v2} and one {@code cuMemcpyDtoDAsync_v2} per copy, which on
 * an H200 cost about 5 us per copy ({@link DeviceCopies}). Either way, one wait.
 *
 * <p>The store uses the device's primary context, retained once per process ({@link PrimaryContext}), and makes it
 * current on the calling thread at the start of every operation ({@code cuCtxSetCurrent} binds to the OS thread, so
 * virtual threads are refused). Every {@code CUresult} is checked; a failure is a {@link CudaException} naming the
 * symbol, the error and the work.
 */
public final class CudaPageStore implements PageStore {

    /** How a gather or scatter hands its device-to-device copies to the driver. */
    public enum Copies {
        /**
         * One launch of {@code copy.ptx}'s kernel per gather or scatter, after one host-to-device copy of the copy list
         * (destination, source, bytes per copy; copies cut at {@value #DEFAULT_KERNEL_CHUNK_BYTES} bytes by default so
         * that large pages still spread over the GPU).
         */
        KERNEL,
        /** One {@code cuMemcpyBatchAsync_v2} call per gather or scatter (CUDA 13 drivers). */
        BATCHED,
        /** One {@code cuMemcpyDtoDAsync_v2} call per run of consecutive block ids. */
        ONE_BY_ONE
    }

    /** By default, the longest copy one kernel thread block takes; longer runs are cut into several. */
    public static final long DEFAULT_KERNEL_CHUNK_BYTES = 64 * 1024;

    /** Default pinned staging size: enough to keep the copy engine busy between waits. */
    public static final long DEFAULT_STAGING_BYTES = 8L << 20;

    private final CudaDriver driver;
    private final StoreLayout layout;
    private final int ordinal;
    private final PrimaryContext primary;
    private long stream;
    private final long[] pools;
    private long stagingAddress;
    private final MemorySegment staging;
    private final List<DeviceSnapshot> snapshots = new ArrayList<>();
    private final Copies copies;
    private final long kernelChunkBytes;

    /** The gathers' and scatters' way to the driver; made with the stream. */
    private DeviceCopies deviceCopies;

    private boolean closed;

    /**
     * Why the CUDA store cannot run on this machine, or empty when it can: no {@code libcuda.so.1}, a driver that fails
     * {@code cuInit}, or no device at {@code ordinal}.
     */
    public static Optional<String> unavailableReason(int ordinal) {
        try {
            CudaDriver driver = CudaDriver.load();
            int init = driver.cuInit(0);
            if (init != CudaDriver.CUDA_SUCCESS) {
                return Optional.of(
                        "no usable CUDA driver: "
                                + driver.error(init, "cuInit", "initializing the driver").getMessage());
            }
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment count = arena.allocate(JAVA_INT);
                driver.check(driver.cuDeviceGetCount(count), "cuDeviceGetCount", "counting devices");
                if (ordinal < 0 || ordinal >= count.get(JAVA_INT, 0)) {
                    return Optional.of(
                            "no CUDA device "
                                    + ordinal
                                    + ": the driver reports "
                                    + count.get(JAVA_INT, 0)
                                    + " devices");
                }
            }
            return Optional.empty();
        } catch (CudaUnavailableException e) {
            return Optional.of(e.getMessage());
        } catch (CudaException e) {
            return Optional.of("no usable CUDA device: " + e.getMessage());
        }
    }

    /** The device ordinal from {@code -Dproofgate.cuda.device}, 0 by default. */
    public static int defaultOrdinal() {
        return Integer.getInteger("proofgate.cuda.device", 0);
    }

    /** Opens a store on device {@code ordinal} with the default staging size and kernel copies. */
    public static CudaPageStore open(StoreLayout layout, int ordinal) throws CudaUnavailableException {
        return open(layout, ordinal, DEFAULT_STAGING_BYTES);
    }

    /**
     * Opens a store; {@code stagingBytes} is lowered to the pools' total size when larger (pinned memory is costly to
     * allocate, and small stores open often in tests) and raised to the largest block when smaller. Copies by kernel,
     * which any driver can JIT-compile.
     */
    public static CudaPageStore open(StoreLayout layout, int ordinal, long stagingBytes)
            throws CudaUnavailableException {
        return open(layout, ordinal, stagingBytes, Copies.KERNEL);
    }

    /**
     * Opens a store that queues its gathers and scatters as {@code copies} says. {@link Copies#BATCHED} on a driver
     * without {@code cuMemcpyBatchAsync_v2} is a {@link CudaUnavailableException}; {@link Copies#KERNEL} where the
     * driver could not compile the kernel is a {@link CudaException} with the JIT's log.
     */
    public static CudaPageStore open(StoreLayout layout, int ordinal, long stagingBytes, Copies copies)
            throws CudaUnavailableException {
        return open(layout, ordinal, stagingBytes, copies, DEFAULT_KERNEL_CHUNK_BYTES);
    }

    /**
     * As {@link #open(StoreLayout, int, long, Copies)}, with the longest copy one kernel thread block takes (a positive
     * multiple of 16; used by {@link Copies#KERNEL} only).
     */
    public static CudaPageStore open(
            StoreLayout layout, int ordinal, long stagingBytes, Copies copies, long kernelChunkBytes)
            throws CudaUnavailableException {
        if (kernelChunkBytes < 16 || kernelChunkBytes % 16 != 0) {
            throw new IllegalArgumentException(
                    "kernelChunkBytes must be a positive multiple of 16, got " + kernelChunkBytes);
        }
        Optional<String> reason = unavailableReason(ordinal);
        if (reason.isPresent()) {
            throw new CudaUnavailableException(reason.get());
        }
        CudaDriver driver = CudaDriver.load();
        if (copies == Copies.BATCHED && !driver.hasBatchCopies()) {
            throw new CudaUnavailableException(
                    "batched copies need cuMemcpyBatchAsync_v2 (a CUDA 13 driver); "
                            + CudaDriver.LIBRARY
                            + " has none");
        }
        long staging = Math.max(Math.min(stagingBytes, layout.poolBytes()), layout.maxBlockBytes());
        return new CudaPageStore(
                driver, layout, ordinal, staging, Objects.requireNonNull(copies, "copies"), kernelChunkBytes);
    }

    private CudaPageStore(
            CudaDriver driver,
            StoreLayout layout,
            int ordinal,
            long stagingBytes,
            Copies copies,
            long kernelChunkBytes) {
        this.driver = driver;
        this.kernelChunkBytes = kernelChunkBytes;
        this.layout = layout;
        this.ordinal = ordinal;
        this.copies = copies;
        this.pools = new long[layout.groups().size()];
        this.primary = PrimaryContext.of(driver, ordinal);
        if (copies == Copies.KERNEL && primary.copyFunction() == 0) {
            throw new CudaException(
                    "cuModuleLoadDataEx",
                    0,
                    "no copy kernel",
                    "opening a store with kernel copies on device " + ordinal,
                    primary.kernelError());
        }
        boolean built = false;
        // Out-parameters live in this confined arena only for the constructor.
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_LONG);
            try {
                primary.makeCurrent(driver);
                driver.check(
                        driver.cuStreamCreate(out, CudaDriver.CU_STREAM_NON_BLOCKING),
                        "cuStreamCreate",
                        "creating a stream on device " + ordinal);
                this.stream = out.get(JAVA_LONG, 0);
                this.deviceCopies =
                        switch (copies) {
                            case KERNEL ->
                                    new KernelCopies(
                                            driver, stream, ordinal, layout, primary.copyFunction(), kernelChunkBytes);
                            case BATCHED -> new BatchedCopies(driver, stream, ordinal, layout);
                            case ONE_BY_ONE -> new OneByOneCopies(driver, stream, ordinal);
                        };
                for (int g = 0; g < pools.length; g++) {
                    out.set(JAVA_LONG, 0, 0);
                    long bytes = layout.group(g).poolBytes();
                    driver.check(
                            driver.cuMemAlloc(out, bytes),
                            "cuMemAlloc_v2",
                            "allocating " + bytes + " bytes for group " + g + " on device " + ordinal);
                    pools[g] = out.get(JAVA_LONG, 0);
                }
                out.set(JAVA_LONG, 0, 0);
                driver.check(
                        driver.cuMemHostAlloc(out, stagingBytes, 0),
                        "cuMemHostAlloc",
                        "allocating " + stagingBytes + " pinned staging bytes for device " + ordinal);
                this.stagingAddress = out.get(JAVA_LONG, 0);
                // Pinned memory belongs to the driver, not to an Arena: no cleanup action, freed in close().
                this.staging = MemorySegment.ofAddress(stagingAddress).reinterpret(stagingBytes);
                built = true;
            } finally {
                if (!built) {
                    release();
                }
            }
        }
    }

    @Override
    public StoreLayout layout() {
        return layout;
    }

    @Override
    public String describe() {
        return "cuda store: device "
                + ordinal
                + " ("
                + primary.name()
                + "), "
                + pools.length
                + " groups, "
                + layout.poolBytes()
                + " bytes of device memory, "
                + staging.byteSize()
                + " pinned staging bytes, "
                + switch (copies) {
                    case KERNEL -> "copies by kernel";
                    case BATCHED -> "batched copies";
                    case ONE_BY_ONE -> "one copy call per run";
                };
    }

    /** How this store's gathers and scatters reach the driver. */
    public Copies copies() {
        return copies;
    }

    /** The pinned staging buffer's size. */
    public long stagingBytes() {
        return staging.byteSize();
    }

    @Override
    public void write(int group, long block, MemorySegment source) {
        enter();
        layout.checkBlock(group, block);
        StoreLayout.GroupLayout geometry = layout.group(group);
        HostPageStore.checkSize("source", source, geometry.blockBytes());
        MemorySegment.copy(source, 0, staging, 0, geometry.blockBytes());
        long page = geometry.pageBytes();
        long stride = page * geometry.blocks();
        for (int layer = 0; layer < geometry.layers(); layer++) {
            int result =
                    driver.cuMemcpyHtoDAsync(
                            pools[group] + layer * stride + block * page, stagingAddress + layer * page, page, stream);
            if (result != CudaDriver.CUDA_SUCCESS) {
                throw driver.error(
                        result,
                        "cuMemcpyHtoDAsync_v2",
                        "copying page " + block + " of group " + group + " layer " + layer + " to device " + ordinal);
            }
        }
        synchronize("writing block " + block + " of group " + group);
    }

    @Override
    public void read(int group, long block, MemorySegment destination) {
        enter();
        layout.checkBlock(group, block);
        StoreLayout.GroupLayout geometry = layout.group(group);
        HostPageStore.checkSize("destination", destination, geometry.blockBytes());
        long page = geometry.pageBytes();
        long stride = page * geometry.blocks();
        for (int layer = 0; layer < geometry.layers(); layer++) {
            int result =
                    driver.cuMemcpyDtoHAsync(
                            stagingAddress + layer * page, pools[group] + layer * stride + block * page, page, stream);
            if (result != CudaDriver.CUDA_SUCCESS) {
                throw driver.error(
                        result,
                        "cuMemcpyDtoHAsync_v2",
                        "copying page " + block + " of group " + group + " layer " + layer + " from device " + ordinal);
            }
        }
        synchronize("reading block " + block + " of group " + group);
        MemorySegment.copy(staging, 0, destination, 0, geometry.blockBytes());
    }

    @Override
    public Snapshot newSnapshot(long capacity) {
        enter();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_LONG);
            driver.check(
                    driver.cuMemAlloc(out, Math.max(1, capacity)),
                    "cuMemAlloc_v2",
                    "allocating a " + capacity + "-byte snapshot on device " + ordinal);
            DeviceSnapshot snapshot = new DeviceSnapshot(this, out.get(JAVA_LONG, 0), capacity);
            snapshots.add(snapshot);
            return snapshot;
        }
    }

    @Override
    public long gather(long[][] blocksByGroup, Snapshot into) {
        DeviceSnapshot snapshot = own(into);
        long bytes = layout.snapshotBytes(blocksByGroup);
        layout.checkSelection(blocksByGroup);
        HostPageStore.checkCapacity(snapshot, bytes);
        copy(blocksByGroup, snapshot.pointer, true);
        synchronize("gathering " + bytes + " bytes");
        snapshot.size = bytes;
        return bytes;
    }

    @Override
    public void scatter(Snapshot from, long[][] blocksByGroup) {
        DeviceSnapshot snapshot = own(from);
        long bytes = layout.snapshotBytes(blocksByGroup);
        layout.checkScatterTargets(blocksByGroup);
        if (bytes != snapshot.size) {
            throw new IllegalArgumentException(
                    "the selection needs " + bytes + " bytes, the snapshot holds " + snapshot.size);
        }
        copy(blocksByGroup, snapshot.pointer, false);
        synchronize("scattering " + bytes + " bytes");
    }

    /**
     * Queues the device-to-device copies of a gather or scatter, one per run of consecutive ids in a layer: as one
     * kernel launch, one batch, or call by call.
     */
    private void copy(long[][] blocksByGroup, long snapshot, boolean gather) {
        try {
            queueCopies(blocksByGroup, snapshot, gather);
        } catch (RuntimeException e) {
            // Copies queued before the failure (the copy list's upload, say) may still be running:
            // wait for them, so that the next operation does not rewrite or free memory they read.
            driver.cuStreamSynchronize(stream);
            throw e;
        }
    }

    private void queueCopies(long[][] blocksByGroup, long snapshot, boolean gather) {
        deviceCopies.begin(blocksByGroup);
        long offset = 0;
        for (int g = 0; g < blocksByGroup.length; g++) {
            long[] blocks = blocksByGroup[g];
            StoreLayout.GroupLayout geometry = layout.group(g);
            long page = geometry.pageBytes();
            long stride = page * geometry.blocks();
            for (int layer = 0; layer < geometry.layers(); layer++) {
                long base = pools[g] + layer * stride;
                int i = 0;
                while (i < blocks.length) {
                    int run = 1;
                    while (i + run < blocks.length && blocks[i + run] == blocks[i] + run) {
                        run++;
                    }
                    long bytes = run * page;
                    long pool = base + blocks[i] * page;
                    long destination = gather ? snapshot + offset : pool;
                    long source = gather ? pool : snapshot + offset;
                    deviceCopies.add(destination, source, bytes, gather, g, layer, blocks[i]);
                    offset += bytes;
                    i += run;
                }
            }
        }
        deviceCopies.submit(gather, offset);
    }

    @Override
    public void copyOut(Snapshot from, long offset, MemorySegment destination) {
        DeviceSnapshot snapshot = own(from);
        long length = destination.byteSize();
        if (offset < 0 || offset + length > snapshot.capacity) {
            throw new IndexOutOfBoundsException(
                    "bytes "
                            + offset
                            + ".."
                            + (offset + length)
                            + " are outside a "
                            + snapshot.capacity
                            + "-byte snapshot");
        }
        for (long done = 0; done < length; ) {
            long chunk = Math.min(staging.byteSize(), length - done);
            toStaging(snapshot, offset + done, chunk);
            MemorySegment.copy(staging, 0, destination, done, chunk);
            done += chunk;
        }
    }

    @Override
    public byte[] sha256(Snapshot of) {
        DeviceSnapshot snapshot = own(of);
        MessageDigest digest = Digests.newSha256();
        for (long done = 0; done < snapshot.size; ) {
            long chunk = Math.min(staging.byteSize(), snapshot.size - done);
            toStaging(snapshot, done, chunk);
            digest.update(staging.asSlice(0, chunk).asByteBuffer());
            done += chunk;
        }
        return digest.digest();
    }

    private void toStaging(DeviceSnapshot snapshot, long offset, long bytes) {
        int result = driver.cuMemcpyDtoHAsync(stagingAddress, snapshot.pointer + offset, bytes, stream);
        if (result != CudaDriver.CUDA_SUCCESS) {
            throw driver.error(
                    result,
                    "cuMemcpyDtoHAsync_v2",
                    "copying snapshot bytes " + offset + ".." + (offset + bytes) + " from device " + ordinal);
        }
        synchronize("copying snapshot bytes to the host");
    }

    /** Benchmark baseline: one device-to-device copy of {@code bytes} between two snapshots, then a wait. */
    public void deviceCopy(Snapshot to, Snapshot from, long bytes) {
        DeviceSnapshot destination = own(to);
        DeviceSnapshot source = own(from);
        HostPageStore.checkCapacity(destination, bytes);
        HostPageStore.checkCapacity(source, bytes);
        driver.check(
                driver.cuMemcpyDtoDAsync(destination.pointer, source.pointer, bytes, stream),
                "cuMemcpyDtoDAsync_v2",
                "copying " + bytes + " bytes on device " + ordinal);
        synchronize("copying " + bytes + " bytes on device " + ordinal);
    }

    /** Benchmark: {@code bytes} (at most {@link #stagingBytes()}) from pinned staging to a snapshot, or back. */
    public void pinnedTransfer(Snapshot snapshot, long bytes, boolean toDevice) {
        DeviceSnapshot device = own(snapshot);
        HostPageStore.checkCapacity(device, bytes);
        if (bytes > staging.byteSize()) {
            throw new IllegalArgumentException(
                    bytes + " bytes exceed the " + staging.byteSize() + "-byte staging buffer");
        }
        int result =
                toDevice
                        ? driver.cuMemcpyHtoDAsync(device.pointer, stagingAddress, bytes, stream)
                        : driver.cuMemcpyDtoHAsync(stagingAddress, device.pointer, bytes, stream);
        if (result != CudaDriver.CUDA_SUCCESS) {
            throw driver.error(
                    result,
                    toDevice ? "cuMemcpyHtoDAsync_v2" : "cuMemcpyDtoHAsync_v2",
                    "copying " + bytes + " pinned bytes " + (toDevice ? "to" : "from") + " device " + ordinal);
        }
        synchronize("copying " + bytes + " pinned bytes");
    }

    private void synchronize(String work) {
        int result = driver.cuStreamSynchronize(stream);
        if (result != CudaDriver.CUDA_SUCCESS) {
            throw driver.error(result, "cuStreamSynchronize", work + " on device " + ordinal);
        }
    }

    /** Every operation starts here: open store, platform thread, primary context current on it. */
    private void enter() {
        if (closed) {
            throw new IllegalStateException("the CUDA store is closed");
        }
        if (Thread.currentThread().isVirtual()) {
            throw new IllegalStateException(
                    "the CUDA store needs a platform thread: a CUDA context is current per OS thread");
        }
        primary.makeCurrent(driver);
    }

    private DeviceSnapshot own(Snapshot snapshot) {
        enter();
        if (!(snapshot instanceof DeviceSnapshot device) || device.store != this) {
            throw new IllegalArgumentException("the snapshot belongs to another store");
        }
        if (device.closed) {
            throw new IllegalStateException("the snapshot is closed");
        }
        return device;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        enter();
        closed = true;
        try {
            for (DeviceSnapshot snapshot : List.copyOf(snapshots)) {
                snapshot.free();
            }
        } finally {
            release();
        }
    }

    /** Frees what was acquired, in reverse order; reports the first failure after trying everything. */
    private void release() {
        CudaException first = null;
        first =
                DeviceCopies.keep(
                        driver,
                        first,
                        driver.cuCtxSetCurrent(primary.context()),
                        "cuCtxSetCurrent",
                        "closing the store on device " + ordinal);
        if (stream != 0) {
            first =
                    DeviceCopies.keep(
                            driver,
                            first,
                            driver.cuStreamSynchronize(stream),
                            "cuStreamSynchronize",
                            "closing the store on device " + ordinal);
        }
        if (stagingAddress != 0) {
            first =
                    DeviceCopies.keep(
                            driver,
                            first,
                            driver.cuMemFreeHost(stagingAddress),
                            "cuMemFreeHost",
                            "freeing pinned staging for device " + ordinal);
            stagingAddress = 0;
        }
        for (int g = pools.length - 1; g >= 0; g--) {
            if (pools[g] != 0) {
                first =
                        DeviceCopies.keep(
                                driver,
                                first,
                                driver.cuMemFree(pools[g]),
                                "cuMemFree_v2",
                                "freeing group " + g + " on device " + ordinal);
                pools[g] = 0;
            }
        }
        if (stream != 0) {
            first =
                    DeviceCopies.keep(
                            driver,
                            first,
                            driver.cuStreamDestroy(stream),
                            "cuStreamDestroy_v2",
                            "destroying the stream on device " + ordinal);
            stream = 0;
        }
        if (deviceCopies != null) {
            first = deviceCopies.free(first);
        }
        // The primary context stays retained for the process (PrimaryContext says why).
        if (first != null) {
            throw first;
        }
    }

    /** A snapshot in device memory from {@code cuMemAlloc_v2}; no Arena owns it, {@link #close} frees it. */
    public static final class DeviceSnapshot implements Snapshot {
        private final CudaPageStore store;
        private final long pointer;
        private final long capacity;
        private long size;
        private boolean closed;

        private DeviceSnapshot(CudaPageStore store, long pointer, long capacity) {
            this.store = store;
            this.pointer = pointer;
            this.capacity = capacity;
        }

        @Override
        public long capacity() {
            return capacity;
        }

        @Override
        public long size() {
            return size;
        }

        @Override
        public void close() {
            if (!closed && !store.closed) {
                store.enter();
                free();
            }
        }

        private void free() {
            if (!closed) {
                closed = true;
                store.snapshots.remove(this);
                store.driver.check(
                        store.driver.cuMemFree(pointer),
                        "cuMemFree_v2",
                        "freeing a " + capacity + "-byte snapshot on device " + store.ordinal);
            }
        }
    }
}
