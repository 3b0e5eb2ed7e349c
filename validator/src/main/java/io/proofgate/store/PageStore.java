package io.proofgate.store;

import java.lang.foreign.MemorySegment;

/**
 * Block pools per KV-cache group, as a GPU worker holds them, with the copies that publication needs: write and read
 * one block, gather a plan's selected blocks into a {@link Snapshot}, scatter a snapshot into other blocks (restore),
 * and the SHA-256 of a snapshot.
 *
 * <p>Block numbers are pool indices {@code 0 <= block < blocks}; a block's bytes are its pages in layer order. Contents
 * are undefined until written. A store is not thread-safe: use it from one thread at a time. Out-of-range groups or
 * blocks throw {@link IndexOutOfBoundsException} before anything is copied.
 */
public sealed interface PageStore extends AutoCloseable permits HostPageStore, CudaPageStore {

    StoreLayout layout();

    /** A short description for logs: kind, device, sizes. */
    String describe();

    /** Copies {@code block}'s pages from {@code source} ({@code blockBytes} bytes, layer-major). */
    void write(int group, long block, MemorySegment source);

    /** Copies {@code block}'s pages into {@code destination} ({@code blockBytes} bytes, layer-major). */
    void read(int group, long block, MemorySegment destination);

    /** A snapshot buffer of {@code capacity} bytes, owned by this store. */
    Snapshot newSnapshot(long capacity);

    /**
     * Copies every selected block (one array of block numbers per group) into {@code into}, in the {@link Snapshot}
     * layout, and returns the bytes copied.
     */
    long gather(long[][] blocksByGroup, Snapshot into);

    /** The inverse of {@link #gather}: writes the snapshot's pages into the selected blocks. */
    void scatter(Snapshot from, long[][] blocksByGroup);

    /** Copies {@code destination.byteSize()} bytes of the snapshot, from {@code offset}, to host memory. */
    void copyOut(Snapshot from, long offset, MemorySegment destination);

    /** SHA-256 of the snapshot's {@link Snapshot#size()} bytes. */
    byte[] sha256(Snapshot snapshot);

    /** Frees every pool and snapshot of this store. */
    @Override
    void close();
}
