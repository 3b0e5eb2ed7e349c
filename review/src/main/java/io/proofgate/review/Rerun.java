package io.proofgate.review;

import io.proofgate.conform.Conform;
import io.proofgate.conform.ConformException;
import io.proofgate.conform.Scenario;
import io.proofgate.words.Outside;

import java.util.List;

/**
 * Whether the differences of an audit repeat. A difference is a finding only if both revisions give the same answers
 * again: an adapter whose answers change from run to run (a clock, a random choice, a nonce in its namespace) would
 * otherwise be reported as a change to accept, with code that is the same at both revisions. So every scenario whose
 * revisions differed is run again, on fresh adapters of both revisions (a choice made once per process is made anew),
 * and must differ exactly as before: at the same message, with the same answers on both sides.
 */
public final class Rerun {

    /**
     * @param scenarios how many scenarios were run again
     * @param notRepeated the first whose answers did not repeat, in words; null when all did
     */
    public record Result(int scenarios, String notRepeated) {
        static final Result NONE = new Result(0, null);

        public boolean repeated() {
            return notRepeated == null;
        }
    }

    private Rerun() {}

    static Result of(
            ConnectorAudit.Run run,
            Conform.Adapters base,
            Conform.Adapters head,
            ConnectorAudit.Settings settings,
            Conform.Progress progress)
            throws ConformException {
        List<Outcome.Compared> differing =
                run.outcomes().stream()
                        .filter(
                                o ->
                                        o instanceof Outcome.Compared c
                                                && !(c.comparison() instanceof Comparison.Same)
                                                && !(c.comparison() instanceof Comparison.NotApplicable))
                        .map(Outcome.Compared.class::cast)
                        .toList();
        if (differing.isEmpty()) {
            return Result.NONE;
        }
        progress.line(
                String.format(
                        "running the %,d scenarios whose revisions differed again, on fresh adapters,"
                                + " to check that their answers repeat",
                        differing.size()));
        List<Scenario> scenarios = differing.stream().map(Outcome::scenario).toList();
        ConnectorAudit.Run again = ConnectorAudit.run(scenarios, base, head, settings, line -> {});
        if (!again.base().equals(run.base()) || !again.head().equals(run.head())) {
            return new Result(scenarios.size(), "the adapters said a different hello when started again");
        }
        for (int i = 0; i < differing.size(); i++) {
            Outcome.Compared first = differing.get(i);
            Outcome second = again.outcomes().get(i);
            if (!(second instanceof Outcome.Compared c) || !c.comparison().equals(first.comparison())) {
                return new Result(
                        scenarios.size(),
                        "scenario "
                                + first.scenario().id()
                                + ": "
                                + describe(first.comparison())
                                + "; run again, "
                                + describe(second));
            }
        }
        return new Result(scenarios.size(), null);
    }

    private static String describe(Outcome outcome) {
        return switch (outcome) {
            case Outcome.Compared c -> describe(c.comparison());
            case Outcome.Errored e -> "an error: " + e.message();
            case Outcome.NotRun n -> "not run";
        };
    }

    private static String describe(Comparison comparison) {
        return switch (comparison) {
            case Comparison.Same s -> "the revisions answered alike";
            case Comparison.NotApplicable n -> "neither revision applies to it";
            case Comparison.Differs d ->
                    "the revisions differed at message "
                            + d.message()
                            + " (base "
                            + Outside.excerpt(String.join(" ", d.base()))
                            + ", head "
                            + Outside.excerpt(String.join(" ", d.head()))
                            + ")";
            case Comparison.OneRefused r -> "the " + r.side() + " revision refused message " + r.message();
            case Comparison.BothRefused r -> "both revisions refused message " + r.message();
        };
    }
}
