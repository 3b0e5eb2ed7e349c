package io.proofgate.check;

import io.proofgate.tlc.TlcEnding;
import io.proofgate.tlc.TlcResult;
import io.proofgate.tlc.TlcRun;

import java.time.Duration;

/** The outcome of checking one model under its options: TLC's parsed run plus what proofgate measured around it. */
public record CheckReport(Model model, CheckOptions options, TlcResult result, Duration wallTime) {

    public TlcRun run() {
        return result.run();
    }

    public TlcEnding ending() {
        return result.unfinished() ? TlcEnding.ERROR : result.run().ending();
    }

    /** Whether how TLC ended (and violated property, if any) is what the model's entry expects. */
    public boolean asExpected() {
        return switch (model.expected()) {
            case Model.Expected.Ok ok -> ending() == TlcEnding.OK;
            case Model.Expected.Violation violation ->
                    ending() == TlcEnding.VIOLATION
                            && result.run().violatedName().equals(java.util.Optional.of(violation.property()));
            // checked one run per invariant (ModelCheck.runEach), each run against Violation
            case Model.Expected.EachViolated each -> false;
        };
    }
}
