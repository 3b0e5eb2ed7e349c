package io.proofgate.benchmarks;

import io.proofgate.store.CudaPageStore;
import io.proofgate.store.HostPageStore;
import io.proofgate.store.PageStore;
import io.proofgate.store.Snapshot;
import io.proofgate.store.StoreLayout;
import io.proofgate.store.cuda.CudaDriver;
import io.proofgate.store.cuda.CudaUnavailableException;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The page-store claims (docs/performance.md, "Page stores on the host" and "Page stores on an H200 (CUDA)"). Every
 * operation moves {@value #TOTAL_BYTES} bytes: a gather (or scatter) of {@code TOTAL_BYTES / pageBytes} blocks of one
 * page each, picked from a pool four times that size as every fourth block in shuffled order, so no two selected ids
 * are consecutive and every page is its own copy. Baselines move the same bytes in one copy, in the same run: host
 * {@code hostGather}/{@code hostScatter} against one {@link MemorySegment#copy} ({@code hostBulkCopy}; goal >= 0.8 from
 * 64 KiB pages up); CUDA {@code cudaGather} and {@code cudaScatter} (one kernel launch each, the store's default) and
 * {@code cudaGatherBatched} (one {@code cuMemcpyBatchAsync_v2}) against one {@code cuMemcpyDtoDAsync_v2} ({@code
 * cudaBulkCopy}; goal >= 0.7), and pinned host-device transfers of the same bytes (GB/s = ops/s x 16 MiB). The CUDA
 * benchmarks fail their setup with the reason where there is no GPU. Rerun: {@code benchmarks/run
 * 'PageStoreBenchmark.host' --quick} (CPU) or {@code benchmarks/run PageStoreBenchmark} (GPU machine; scripts/gpu runs
 * it there).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class PageStoreBenchmark {

    static final long TOTAL_BYTES = 16L << 20;

    /** Every fourth block of a pool four times the selection, shuffled: no runs of consecutive ids. */
    static long[][] selection(long pages) {
        long[] blocks = new long[(int) pages];
        for (int i = 0; i < blocks.length; i++) {
            blocks[i] = 4L * i;
        }
        SplittableRandom random = new SplittableRandom(5);
        for (int i = blocks.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            long swap = blocks[i];
            blocks[i] = blocks[j];
            blocks[j] = swap;
        }
        return new long[][] {blocks};
    }

    /** The host store, its selection and a snapshot; two plain segments for the bulk baseline. */
    @State(Scope.Benchmark)
    public static class Host {
        @Param({"4096", "16384", "65536", "262144", "1048576", "2097152"})
        public long pageBytes;

        PageStore store;
        Snapshot snapshot;
        long[][] selected;
        Arena arena;
        MemorySegment source;
        MemorySegment destination;

        @Setup(Level.Trial)
        @SuppressWarnings("MustBeClosedChecker") // the arena lives for the trial; the tear-down closes it
        public void setup() {
            long pages = TOTAL_BYTES / pageBytes;
            store = new HostPageStore(StoreLayout.uniform(1, 1, pageBytes, 4 * pages));
            selected = selection(pages);
            snapshot = store.newSnapshot(TOTAL_BYTES);
            arena = Arena.ofShared();
            source = arena.allocate(TOTAL_BYTES, 64);
            destination = arena.allocate(TOTAL_BYTES, 64);
            source.fill((byte) 7);
            store.gather(selected, snapshot);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            store.close();
            arena.close();
        }
    }

    /**
     * The CUDA store with the same geometry (copies by kernel, the default), the same store with CUDA 13's batch copies
     * for comparison, and a second device buffer for the bulk baseline.
     */
    @State(Scope.Benchmark)
    public static class Cuda {
        @Param({"4096", "16384", "65536", "262144", "1048576", "2097152"})
        public long pageBytes;

        CudaPageStore store;
        CudaPageStore batched;
        Snapshot snapshot;
        Snapshot other;
        Snapshot batchedSnapshot;
        long[][] selected;

        @Setup(Level.Trial)
        public void setup() throws CudaUnavailableException {
            long pages = TOTAL_BYTES / pageBytes;
            StoreLayout layout = StoreLayout.uniform(1, 1, pageBytes, 4 * pages);
            store = CudaPageStore.open(layout, CudaPageStore.defaultOrdinal(), TOTAL_BYTES);
            selected = selection(pages);
            snapshot = store.newSnapshot(TOTAL_BYTES);
            other = store.newSnapshot(TOTAL_BYTES);
            store.gather(selected, snapshot);
            // Drivers before CUDA 13 have no batch copies: only cudaGatherBatched fails there.
            if (CudaDriver.load().hasBatchCopies()) {
                batched =
                        CudaPageStore.open(
                                layout,
                                CudaPageStore.defaultOrdinal(),
                                layout.maxBlockBytes(),
                                CudaPageStore.Copies.BATCHED);
                batchedSnapshot = batched.newSnapshot(TOTAL_BYTES);
                batched.gather(selected, batchedSnapshot);
            }
            System.out.println(store.describe());
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            if (batched != null) {
                batched.close();
            }
            store.close();
        }
    }

    /**
     * The kernel's chunk size (the longest copy one thread block takes) swept at three page sizes. Its setup checks on
     * the GPU that each chunk size gathers the same bytes as one copy call per page. Not a claim in {@code Ratios} (its
     * parameters differ from the baseline's); its scores are read against {@code cudaBulkCopy} of the same run, which
     * does not depend on the page size (docs/performance.md, "What limits small pages").
     */
    @State(Scope.Benchmark)
    public static class CudaChunks {
        @Param({"4096", "65536", "1048576"})
        public long pageBytes;

        @Param({"4096", "16384", "65536"})
        public long chunkBytes;

        CudaPageStore store;
        Snapshot snapshot;
        long[][] selected;

        @Setup(Level.Trial)
        public void setup() throws CudaUnavailableException {
            long pages = TOTAL_BYTES / pageBytes;
            StoreLayout layout = StoreLayout.uniform(1, 1, pageBytes, 4 * pages);
            store =
                    CudaPageStore.open(
                            layout,
                            CudaPageStore.defaultOrdinal(),
                            layout.maxBlockBytes(),
                            CudaPageStore.Copies.KERNEL,
                            chunkBytes);
            selected = selection(pages);
            snapshot = store.newSnapshot(TOTAL_BYTES);
            try (CudaPageStore reference =
                            CudaPageStore.open(
                                    layout,
                                    CudaPageStore.defaultOrdinal(),
                                    layout.maxBlockBytes(),
                                    CudaPageStore.Copies.ONE_BY_ONE);
                    Snapshot expected = reference.newSnapshot(TOTAL_BYTES)) {
                byte[] page = new byte[(int) pageBytes];
                for (long block : selected[0]) {
                    for (int i = 0; i < page.length; i++) {
                        page[i] = (byte) (i * 7 + block * 13 + i / 4096);
                    }
                    store.write(0, block, MemorySegment.ofArray(page));
                    reference.write(0, block, MemorySegment.ofArray(page));
                }
                store.gather(selected, snapshot);
                reference.gather(selected, expected);
                if (!java.util.Arrays.equals(store.sha256(snapshot), reference.sha256(expected))) {
                    throw new IllegalStateException(
                            "the kernel with "
                                    + chunkBytes
                                    + "-byte chunks gathered other bytes than "
                                    + "one copy per page, at "
                                    + pageBytes
                                    + "-byte pages");
                }
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            store.close();
        }
    }

    /** Pinned host-device transfers of 16 MiB, which do not depend on the page size; D2D of 16 MiB for scale. */
    @State(Scope.Benchmark)
    public static class Pinned {
        CudaPageStore store;
        Snapshot snapshot;
        Snapshot other;

        @Setup(Level.Trial)
        public void setup() throws CudaUnavailableException {
            store =
                    CudaPageStore.open(
                            StoreLayout.uniform(1, 1, TOTAL_BYTES, 1), CudaPageStore.defaultOrdinal(), TOTAL_BYTES);
            snapshot = store.newSnapshot(TOTAL_BYTES);
            other = store.newSnapshot(TOTAL_BYTES);
            store.pinnedTransfer(snapshot, TOTAL_BYTES, true);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            store.close();
        }
    }

    @Benchmark
    public long hostGather(Host state) {
        return state.store.gather(state.selected, state.snapshot);
    }

    @Benchmark
    public void hostScatter(Host state) {
        state.store.scatter(state.snapshot, state.selected);
    }

    @Benchmark
    public void hostBulkCopy(Host state) {
        MemorySegment.copy(state.source, 0, state.destination, 0, TOTAL_BYTES);
    }

    @Benchmark
    public long cudaGather(Cuda state) {
        return state.store.gather(state.selected, state.snapshot);
    }

    @Benchmark
    public void cudaScatter(Cuda state) {
        state.store.scatter(state.snapshot, state.selected);
    }

    @Benchmark
    public long cudaGatherBatched(Cuda state) {
        if (state.batched == null) {
            throw new IllegalStateException("this driver has no cuMemcpyBatchAsync_v2 (CUDA 13 drivers have it)");
        }
        return state.batched.gather(state.selected, state.batchedSnapshot);
    }

    @Benchmark
    public long cudaGatherChunked(CudaChunks state) {
        return state.store.gather(state.selected, state.snapshot);
    }

    @Benchmark
    public void cudaBulkCopy(Cuda state) {
        state.store.deviceCopy(state.other, state.snapshot, TOTAL_BYTES);
    }

    @Benchmark
    public void cudaPinnedHostToDevice(Pinned state) {
        state.store.pinnedTransfer(state.other, TOTAL_BYTES, true);
    }

    @Benchmark
    public void cudaPinnedDeviceToHost(Pinned state) {
        state.store.pinnedTransfer(state.other, TOTAL_BYTES, false);
    }

    @Benchmark
    public void cudaPinnedScale(Pinned state) {
        state.store.deviceCopy(state.other, state.snapshot, TOTAL_BYTES);
    }
}
