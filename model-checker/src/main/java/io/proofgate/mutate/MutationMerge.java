package io.proofgate.mutate;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code proofgate merge} for mutation shards: checks that the shards are the N parts of one run
 * (the same module, bytes and all, the same selection and models, every index once) and builds
 * the report one unsharded run would print. A named mistake is checked in every shard; each
 * shard must have found the same outcome for it (TLC, one worker per run, is deterministic).
 */
public final class MutationMerge {

    private MutationMerge() {}

    /**
     * The plan of the whole run, from the module as it is now and the shards' selection; the
     * mistakes file the shards name is read under {@code root}.
     */
    public static MutationPlan plan(List<MutationShard> shards, String text, java.nio.file.Path root) throws MutationException {
        if (shards.isEmpty()) {
            throw new MutationException("no shard files to merge");
        }
        MutationShard first = shards.getFirst();
        for (MutationShard shard : shards) {
            if (!shard.module().equals(first.module()) || !shard.moduleSha256().equals(first.moduleSha256())
                    || !Objects.equals(shard.part(), first.part()) || !Objects.equals(shard.operators(), first.operators())
                    || !Objects.equals(shard.mistakes(), first.mistakes()) || !Objects.equals(shard.only(), first.only())
                    || !shard.models().equals(first.models()) || shard.count() != first.count()) {
                throw new MutationException("shard " + shard.index() + "/" + shard.count() + " is of another run than shard "
                        + first.index() + "/" + first.count() + " (module, selection, models or shard count differ)");
            }
        }
        Set<Integer> seen = new TreeSet<>();
        for (MutationShard shard : shards) {
            if (!seen.add(shard.index())) {
                throw new MutationException("shard " + shard.index() + "/" + shard.count() + " is given twice");
            }
        }
        List<Integer> missing = new ArrayList<>();
        for (int k = 0; k < first.count(); k++) {
            if (!seen.contains(k)) {
                missing.add(k);
            }
        }
        if (!missing.isEmpty()) {
            throw new MutationException("shards missing: " + missing.stream().map(k -> k + "/" + first.count()).toList()
                    + "; a merge needs all " + first.count());
        }
        if (!MutationShard.sha256(text).equals(first.moduleSha256())) {
            throw new MutationException(first.module() + " is not the module the shards checked (its bytes changed since)");
        }
        MutationPlan.Selection selection = first.selection();
        return MutationPlan.of(text, first.module(), new MutationPlan.Selection(selection.part(), selection.operators(),
                selection.mistakes() == null ? null : root.resolve(selection.mistakes()), selection.only(), null));
    }

    /** Every planned mutant with its outcome from the shard that holds it. */
    public static List<MutantResult> results(MutationPlan plan, List<MutationShard> shards) throws MutationException {
        int count = shards.getFirst().count();
        MutationShard[] byIndex = new MutationShard[count];
        shards.forEach(shard -> byIndex[shard.index()] = shard);
        List<MutantResult> results = new ArrayList<>();
        Set<String> planned = new HashSet<>();
        for (Mutation mutation : plan.mutations()) {
            planned.add(mutation.id());
            Outcome outcome;
            if (mutation.kind() == Mutation.Kind.NAMED) {
                // in shard order, so that shard 0, the one compared with, is checked first
                outcome = byIndex[0].outcomes().get(mutation.id());
                for (MutationShard shard : byIndex) {
                    Outcome other = shard.outcomes().get(mutation.id());
                    if (other == null) {
                        throw new MutationException("shard " + shard.index() + "/" + count + " has no result for the named mistake "
                                + mutation.operator());
                    }
                    if (!other.equals(outcome)) {
                        throw new MutationException("the shards disagree on the named mistake " + mutation.operator() + ": "
                                + MutationRun.describe(outcome) + " in shard 0, " + MutationRun.describe(other) + " in shard "
                                + shard.index());
                    }
                }
            } else {
                int index = MutationPlan.Shard.owner(mutation, count);
                outcome = byIndex[index].outcomes().get(mutation.id());
                if (outcome == null) {
                    throw new MutationException("shard " + index + "/" + count + " has no result for mutant " + mutation.id());
                }
            }
            results.add(new MutantResult(mutation, outcome));
        }
        for (MutationShard shard : shards) {
            for (String id : shard.outcomes().keySet()) {
                if (!planned.contains(id)) {
                    throw new MutationException("shard " + shard.index() + "/" + count + " holds mutant " + id
                            + ", which this run does not plan");
                }
            }
        }
        return results;
    }
}
