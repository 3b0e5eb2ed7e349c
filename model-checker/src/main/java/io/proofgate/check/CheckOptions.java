package io.proofgate.check;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How to run TLC for {@code proofgate check}.
 *
 * @param workers TLC worker threads
 * @param maxHeap the child JVM's -Xmx, e.g. "2g"
 * @param outputDir where the raw TLC output, TLC's metadir and dumps go
 * @param timeout the run is stopped after this long
 */
public record CheckOptions(int workers, String maxHeap, Path outputDir, Duration timeout) {

    /** All cores, a 4 GiB heap (the ci model needs far less), 30 minutes. */
    public static CheckOptions defaults(Path outputDir) {
        return new CheckOptions(Runtime.getRuntime().availableProcessors(), "4g", outputDir, Duration.ofMinutes(30));
    }
}
