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
        TlcCommand command = command(model, options);
        long start = System.nanoTime();
        TlcResult result = TlcProcess.run(command, message -> TlcStatistics.counts(message)
                .filter(p -> message.code() == TlcStatistics.PROGRESS)
                .ifPresent(p -> progress.println(progressLine(p, Duration.ofNanos(System.nanoTime() - start)))));
        return new CheckReport(model, result, Duration.ofNanos(System.nanoTime() - start));
    }

    /**
     * The TLC run of a model under the options: its module and config, the spec folder as module
     * library (mutants extend the real module from a subfolder), no deadlock check (behaviours
     * end), files under the options' folder, which is created.
     */
    public static TlcCommand command(Model model, CheckOptions options) throws IOException {
        Files.createDirectories(options.outputDir());
        return TlcCommand.of(model.module(), options.outputDir())
                .withConfig(model.config())
                .withLibraries(java.util.List.of(model.specDir()))
                .withWorkers(options.workers())
                .withMaxHeap(options.maxHeap())
                .withoutDeadlockCheck()
                .withTimeout(options.timeout());
    }

    static String progressLine(TlcStatistics.Progress p, Duration elapsed) {
        double seconds = Math.max(1e-3, elapsed.toMillis() / 1000.0);
        return String.format(Locale.ROOT, "  %6.0f s  %,d distinct states, %,d generated, queue %,d, %,.0f states/s",
                seconds, p.distinctStates(), p.generatedStates(), p.queueSize(), p.generatedStates() / seconds);
    }
}
