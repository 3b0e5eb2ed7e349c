package io.proofgate.check;

import io.proofgate.tlc.TlcCommand;
import io.proofgate.tlc.TlcProcess;
import io.proofgate.tlc.TlcResult;
import io.proofgate.tlc.TlcStatistics;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/** Runs TLC on a model in a child JVM, reporting progress as TLC prints it. */
public final class ModelCheck {

    private ModelCheck() {}

    public static CheckReport run(Model model, CheckOptions options, PrintStream progress)
            throws IOException, InterruptedException {
        Path dir = options.outputDir();
        Files.createDirectories(dir);
        TlcCommand command = TlcCommand.of(model.module(), dir)
                .withConfig(model.config())
                .withLibraries(java.util.List.of(model.specDir()))
                .withWorkers(options.workers())
                .withMaxHeap(options.maxHeap())
                .withoutDeadlockCheck()
                .withTimeout(options.timeout());
        long start = System.nanoTime();
        TlcResult result = TlcProcess.run(command, message -> TlcStatistics.counts(message)
                .filter(p -> message.code() == TlcStatistics.PROGRESS)
                .ifPresent(p -> progress.println(progressLine(p, Duration.ofNanos(System.nanoTime() - start)))));
        return new CheckReport(model, result, Duration.ofNanos(System.nanoTime() - start));
    }

    static String progressLine(TlcStatistics.Progress p, Duration elapsed) {
        double seconds = Math.max(1e-3, elapsed.toMillis() / 1000.0);
        return String.format(Locale.ROOT, "  %6.0f s  %,d distinct states, %,d generated, queue %,d, %,.0f states/s",
                seconds, p.distinctStates(), p.generatedStates(), p.queueSize(), p.generatedStates() / seconds);
    }
}
