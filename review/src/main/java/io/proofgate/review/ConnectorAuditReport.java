package io.proofgate.review;

import io.proofgate.audit.Approvals;
import io.proofgate.words.ConnectorPolicy;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * An audit of a connector change: the two revisions (a commit, or {@code worktree}), their adapter commands, the run,
 * its difference classes and where each stands with the reviewers.
 */
public record ConnectorAuditReport(
        Side base,
        Side head,
        ConnectorAudit.Run run,
        Rerun.Result rerun,
        List<DifferenceClass> classes,
        NamespaceRun.Result namespace,
        Approvals approvals,
        List<String> changedFiles) {

    /**
     * One revision: how the report names it, its commit where it has one, its adapter command, its uncommitted files.
     */
    public record Side(String name, String commit, String command, List<String> uncommitted) {
        public Side {
            uncommitted = List.copyOf(uncommitted);
        }
    }

    /**
     * @param rerun the differing scenarios run again: a difference whose answers do not repeat is no finding, and the
     *     audit cannot judge
     * @param changedFiles the files that differ between the two revisions (sorted, at most {@link
     *     Checkout#MAX_CHANGED}), where code scanning shows the findings
     */
    public ConnectorAuditReport {
        classes = List.copyOf(classes);
        changedFiles = List.copyOf(changedFiles);
    }

    /** Exit codes, as every proofgate command has them. */
    public static final int CLEAN = 0;

    public static final int DIFFERENCES = 1;
    public static final int NOT_JUDGED = 2;

    public List<DifferenceClass> open() {
        return classes.stream().filter(c -> open(c.fingerprint())).toList();
    }

    /**
     * A finding's acceptance. A safety regression has none, whatever audit-accepted.json says: no acceptance removes a
     * plan that publishes a page not holding its prefix, as none removes a broken invariant in the spec audit.
     */
    public Approvals.Status approval(String fingerprint) {
        return isSafetyRegression(fingerprint) ? new Approvals.Open() : approvals.of(fingerprint);
    }

    /** Whether a finding is not accepted: see {@link #approval}. */
    public boolean open(String fingerprint) {
        return isSafetyRegression(fingerprint) || approvals.open(fingerprint);
    }

    public boolean isSafetyRegression(String fingerprint) {
        return classes.stream()
                .anyMatch(
                        c ->
                                c.fingerprint().equals(fingerprint)
                                        && c.first().judgement() == ModelJudgement.SAFETY_REGRESSION);
    }

    /**
     * A declaration the base makes and the head does not, so that the head is checked on less: a capability (its
     * scenarios not run, its facts, states or names not compared), or the connector policy the kit compares answers
     * with (the head declares a policy of its own, judged on safety alone). A change that drops one switches off its
     * own checks, so each is a difference to accept like any other, even where every answer is the same.
     *
     * @param field the hello's field ({@code capability} for an item of {@code capabilities}, or {@code
     *     connector_policy})
     * @param wireName what the base declares there
     */
    public record Dropped(String field, String wireName) {
        public String fingerprint() {
            return io.proofgate.audit.Fingerprints.of(field, "dropped", wireName);
        }

        /** As the reports name it: {@code capability sliding}, {@code connector_policy latch-at-target}. */
        public String text() {
            return field + " " + wireName;
        }
    }

    /** The base's declarations the head drops: its capabilities in the protocol's order, then its connector policy. */
    public List<Dropped> dropped() {
        List<Dropped> dropped = new java.util.ArrayList<>();
        run.base().capabilities().stream()
                .filter(c -> !run.head().capabilities().contains(c))
                .sorted()
                .forEach(c -> dropped.add(new Dropped("capability", c.wireName())));
        if (run.base().policy() != ConnectorPolicy.OWN && run.head().policy() == ConnectorPolicy.OWN) {
            dropped.add(new Dropped("connector_policy", run.base().policy().wireName()));
        }
        return dropped;
    }

    /** Dropped declarations no acceptance at the base covers. */
    public List<String> openDropped() {
        return dropped().stream().map(Dropped::fingerprint).filter(this::open).toList();
    }

    /** Changed namespace names no acceptance at the base covers. */
    public List<String> openNamespace() {
        return namespace.changed().stream().map(NamespaceRun.Result::fingerprint).filter(this::open).toList();
    }

    public List<Outcome.Errored> errors() {
        return run.outcomes().stream()
                .filter(Outcome.Errored.class::isInstance)
                .map(Outcome.Errored.class::cast)
                .toList();
    }

    /** Scenarios one revision refused where the other answered. */
    public List<Outcome.Compared> refusedByOne() {
        return compared(Comparison.OneRefused.class);
    }

    /** Scenarios both revisions refused: alike, and compared nowhere after the refusal. */
    public List<Outcome.Compared> refusedByBoth() {
        return compared(Comparison.BothRefused.class);
    }

    /** The scenarios whose comparison is of {@code kind}, in scenario order. */
    private List<Outcome.Compared> compared(Class<? extends Comparison> kind) {
        return run.outcomes().stream()
                .filter(o -> o instanceof Outcome.Compared c && kind.isInstance(c.comparison()))
                .map(Outcome.Compared.class::cast)
                .toList();
    }

    public boolean judged() {
        return errors().isEmpty()
                && refusedByOne().isEmpty()
                && refusedByBoth().isEmpty()
                && run.stoppedAfter() == 0
                && namespace.refusedByOne().isEmpty()
                && namespace.refusedByBoth().isEmpty()
                && reproducible()
                && same() + differing() > 0; // an audit that compared nothing has shown nothing the same
    }

    /** Whether the answers the comparison rests on repeated when asked again (scenarios and namespace probes). */
    public boolean reproducible() {
        return rerun.repeated() && namespace.repeated();
    }

    /** The first answer that did not repeat, in words; null when all did. */
    public String notReproducible() {
        return rerun.repeated() ? namespace.notRepeated() : rerun.notRepeated();
    }

    public int exitCode() {
        if (!judged()) {
            return NOT_JUDGED;
        }
        return open().isEmpty() && openNamespace().isEmpty() && openDropped().isEmpty() ? CLEAN : DIFFERENCES;
    }

    /** The one line a report leads with. */
    public String verdict() {
        if (!judged()) {
            List<String> why = new java.util.ArrayList<>();
            if (!reproducible()) {
                why.add("answers are not reproducible (" + notReproducible() + ")");
            }
            if (!errors().isEmpty()) {
                why.add(errors().size() + " scenario" + (errors().size() == 1 ? "" : "s") + " with adapter errors");
            }
            if (!refusedByOne().isEmpty()) {
                why.add(
                        refusedByOne().size()
                                + " scenario"
                                + (refusedByOne().size() == 1 ? "" : "s")
                                + " one revision refused and the other answered");
            }
            if (!refusedByBoth().isEmpty()) {
                why.add(
                        refusedByBoth().size()
                                + " scenario"
                                + (refusedByBoth().size() == 1 ? "" : "s")
                                + " both revisions refused (nothing compared after the refusal)");
            }
            if (!namespace.refusedByOne().isEmpty()) {
                why.add(
                        namespace.refusedByOne().size()
                                + " namespace probes one revision refused and the other answered");
            }
            if (!namespace.refusedByBoth().isEmpty()) {
                why.add(namespace.refusedByBoth().size() + " namespace probes both revisions refused");
            }
            if (run.stoppedAfter() > 0) {
                why.add("the run stopped after " + run.stoppedAfter() + " adapter errors (--max-errors)");
            }
            if (same() + differing() == 0) {
                why.add("no scenario was compared (none was given, or each needs a capability a revision lacks)");
            }
            return "could not be judged: " + String.join("; ", why);
        }
        int open = open().size();
        int names = openNamespace().size();
        int dropped = openDropped().size();
        if (open == 0 && names == 0 && dropped == 0) {
            return "no unaccepted difference";
        }
        List<String> parts = new java.util.ArrayList<>();
        if (open > 0) {
            parts.add(open + " unaccepted difference class" + (open == 1 ? "" : "es"));
        }
        if (names > 0) {
            parts.add(names + " unaccepted namespace change" + (names == 1 ? "" : "s"));
        }
        if (dropped > 0) {
            parts.add(dropped + " unaccepted declaration" + (dropped == 1 ? "" : "s") + " the head drops");
        }
        return String.join(", ", parts);
    }

    public long differing() {
        return compared(Comparison.Differs.class).size();
    }

    public long same() {
        return compared(Comparison.Same.class).size();
    }

    /** "2 not run (a revision lacks wide_integers)": scenarios not run and the capabilities they lacked. */
    public String notRun() {
        List<Outcome.NotRun> notRun =
                run.outcomes().stream()
                        .filter(Outcome.NotRun.class::isInstance)
                        .map(Outcome.NotRun.class::cast)
                        .toList();
        int inapplicable = compared(Comparison.NotApplicable.class).size();
        List<String> why = new java.util.ArrayList<>();
        if (!notRun.isEmpty()) {
            Set<String> missing =
                    notRun.stream()
                            .flatMap(n -> n.missing().stream())
                            .map(c -> c.wireName())
                            .collect(Collectors.toCollection(java.util.TreeSet::new));
            why.add("a revision lacks " + String.join(", ", missing));
        }
        if (inapplicable > 0) {
            why.add(String.format("%,d", inapplicable) + " not applicable to either revision");
        }
        return String.format("%,d", notRun.size() + inapplicable)
                + " not run"
                + (why.isEmpty() ? "" : " (" + String.join("; ", why) + ")");
    }

    public long count(ModelJudgement judgement) {
        return classes.stream().filter(c -> c.first().judgement() == judgement).count();
    }

    /** Accepted fingerprints at the base that no difference has. */
    public List<String> stale() {
        Set<String> all = classes.stream().map(DifferenceClass::fingerprint).collect(Collectors.toSet());
        namespace.changed().forEach(n -> all.add(NamespaceRun.Result.fingerprint(n)));
        dropped().forEach(d -> all.add(d.fingerprint()));
        return approvals.stale(all);
    }
}
