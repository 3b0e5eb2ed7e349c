package io.proofgate.store;

/**
 * A buffer that a store gathers selected blocks into and scatters them from. It belongs to the store that made it
 * ({@link PageStore#newSnapshot}) and lives where that store keeps pages: host memory for {@link HostPageStore}, device
 * memory for {@link CudaPageStore}.
 *
 * <p>Layout after {@link PageStore#gather}: groups in order; within a group, layers in order; within a layer, the
 * selected blocks' pages in selection order. Keeping a layer's pages together lets a run of consecutive block ids move
 * as one copy.
 */
public sealed interface Snapshot extends AutoCloseable
        permits HostPageStore.HostSnapshot, CudaPageStore.DeviceSnapshot {

    /** The bytes this snapshot can hold. */
    long capacity();

    /** The bytes the last gather put in it (0 before the first). */
    long size();

    /** Frees the buffer; closing the store frees it as well. */
    @Override
    void close();
}
