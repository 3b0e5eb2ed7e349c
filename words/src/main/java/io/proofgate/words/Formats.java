package io.proofgate.words;

/**
 * The names of the protocol's formats, as their first lines declare them (docs/protocol.md §5, docs/conformance.md).
 */
public final class Formats {

    /** A replay log's {@code schema}: the topology line, then one event per line. */
    public static final String EVENTS = "proofgate-events/v1";

    /**
     * {@link #EVENTS} and the restore half: the {@code lookup} event and a new request's {@code external} tokens. A
     * reader of this version reads the first too.
     */
    public static final String EVENTS_V2 = "proofgate-events/v2";

    /** What an adapter and the kit say to each other, named in the adapter's {@code hello}. */
    public static final String ADAPTER = "proofgate-adapter/v1";

    /** The namespace probe set: the requests whose answers make a revision's namespace (docs/conformance.md). */
    public static final String NAMESPACE = "proofgate-namespace/v1";

    private Formats() {}
}
