package io.proofgate.words;

/** The names of the protocol's formats, as their first lines declare them (docs/protocol.md §5, docs/conformance.md). */
public final class Formats {

    /** A replay log's {@code schema}: the topology line, then one event per line. */
    public static final String EVENTS = "proofgate-events/v1";
    /** What an adapter and the kit say to each other, named in the adapter's {@code hello}. */
    public static final String ADAPTER = "proofgate-adapter/v1";

    private Formats() {}
}
