package io.proofgate.check;

import io.proofgate.tlc.StateBound;

import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalLong;

/**
 * How to run TLC for {@code proofgate check}.
 *
 * @param workers TLC worker threads
 * @param maxHeap the child JVM's -Xmx, e.g. "2g"
 * @param outputDir where the raw TLC output, TLC's metadir and dumps go
 * @param timeout the run is stopped after this long: a guard against a hung run, since how far a run gets in a time
 *     depends on the machine and its load
 * @param maxStates the run is stopped after this many distinct states ({@link StateBound}): the limit that decides the
 *     same way on every machine; empty runs to the end
 */
public record CheckOptions(int workers, String maxHeap, Path outputDir, Duration timeout, OptionalLong maxStates) {

    public CheckOptions(int workers, String maxHeap, Path outputDir, Duration timeout) {
        this(workers, maxHeap, outputDir, timeout, OptionalLong.empty());
    }

    /** These options in {@code dir}. */
    public CheckOptions in(Path dir) {
        return new CheckOptions(workers, maxHeap, dir, timeout, maxStates);
    }

    /** The TLC JVM's heap unless asked otherwise: the largest model here needs far less. */
    public static final String DEFAULT_HEAP = "4g";

    /** How long a run may take unless asked otherwise; the ci model takes under a minute. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(30);

    /** {@code workers} TLC workers, the default heap and timeout. */
    public static CheckOptions defaults(int workers, Path outputDir) {
        return new CheckOptions(workers, DEFAULT_HEAP, outputDir, DEFAULT_TIMEOUT);
    }
}
