package io.proofgate.store;

import io.proofgate.store.cuda.CudaUnavailableException;

import java.util.Optional;

/** The page stores by the name that {@code -Dproofgate.store} and {@code --store} take. */
public enum StoreKind {
    HOST("host"),
    CUDA("cuda");

    /** The system property that tests read to choose a store. */
    public static final String PROPERTY = "proofgate.store";

    private final String wireName;

    StoreKind(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** The kind named {@code name}, or empty when there is none. */
    public static Optional<StoreKind> of(String name) {
        for (StoreKind kind : values()) {
            if (kind.wireName.equals(name)) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }

    /** The kind that {@code -Dproofgate.store} names, {@link #HOST} by default. */
    public static StoreKind fromSystemProperty() {
        String name = System.getProperty(PROPERTY, "host");
        return of(name).orElseThrow(
                        () ->
                                new IllegalArgumentException(
                                        "-D" + PROPERTY + "=" + name + " is not a store (expected host or cuda)"));
    }

    /** Why this kind cannot run here, or empty when it can. */
    public Optional<String> unavailableReason() {
        return switch (this) {
            case HOST -> Optional.empty();
            case CUDA -> CudaPageStore.unavailableReason(CudaPageStore.defaultOrdinal());
        };
    }

    /** Opens a store of this kind. */
    public PageStore open(StoreLayout layout) throws CudaUnavailableException {
        return switch (this) {
            case HOST -> new HostPageStore(layout);
            case CUDA -> CudaPageStore.open(layout, CudaPageStore.defaultOrdinal());
        };
    }
}
