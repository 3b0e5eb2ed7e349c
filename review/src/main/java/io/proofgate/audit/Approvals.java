package io.proofgate.audit;

import java.util.List;
import java.util.Set;

/**
 * Which differences reviewers accepted. Acceptances are read from the base revision: a change cannot approve itself.
 * What the head's file adds is listed apart ("accepted by this change, needs a reviewer") and still counts as
 * unaccepted, unless {@code fromHead} (the reviewer's {@code --accept-from-head}) says the head's file has been
 * reviewed.
 */
public record Approvals(Accepted base, Accepted head, boolean fromHead) {

    public static final Approvals NONE = new Approvals(Accepted.NONE, Accepted.NONE, false);

    /** Where a difference stands. */
    public sealed interface Status {}

    /** Accepted at the base, with the reviewers' reason. */
    public record ByBase(String justification) implements Status {}

    /** Accepted only by the head's own file. */
    public record ByChange(String justification) implements Status {}

    public record Open() implements Status {}

    public Status of(String fingerprint) {
        if (base.justification(fingerprint) != null) {
            return new ByBase(base.justification(fingerprint));
        }
        if (head.justification(fingerprint) != null) {
            return new ByChange(head.justification(fingerprint));
        }
        return new Open();
    }

    /** Whether the difference still needs a reviewer's acceptance. */
    public boolean open(String fingerprint) {
        return switch (of(fingerprint)) {
            case ByBase b -> false;
            case ByChange c -> !fromHead;
            case Open o -> true;
        };
    }

    /** The base's entries no difference has: stale (after a merge, by design), a warning. */
    public List<String> stale(Set<String> fingerprints) {
        return base.stale(fingerprints);
    }
}
