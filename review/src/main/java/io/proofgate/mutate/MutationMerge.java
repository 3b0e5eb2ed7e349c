package io.proofgate.mutate;

import io.proofgate.words.FileProblems;
import io.proofgate.words.Sha256;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code proofgate merge-mutate} for mutation shards: checks that the shards are the N parts of one run (the same
 * inputs, byte for byte, the same selection, every index once; each result its own shard's and possible on the run's
 * models) and builds the report one unsharded run would print. A named mistake is checked in every shard; each shard
 * must have found the same outcome for it (TLC, one worker per run, is deterministic).
 */
public final class MutationMerge {

    private MutationMerge() {}

    /**
     * The plan of the whole run, from the module as it is now and the shards' selection; the mistakes file the shards
     * name is read under {@code root}. Both are what the merge reads itself, so each must be the one the shards read.
     */
    public static MutationPlan plan(List<MutationShard> shards, String text, Path root) throws MutationException {
        if (shards.isEmpty()) {
            throw new MutationException("no shard files to merge");
        }
        MutationShard first = shards.getFirst();
        for (MutationShard shard : shards) {
            String difference = null;
            if (shard.count() != first.count()) {
                difference = "the shard count differs";
            } else if (!shard.module().equals(first.module())
                    || !Objects.equals(shard.part(), first.part())
                    || !Objects.equals(shard.operators(), first.operators())
                    || !Objects.equals(shard.mistakes(), first.mistakes())
                    || !Objects.equals(shard.only(), first.only())) {
                difference = "the selection differs (module, part, operators, mistakes or --only)";
            } else {
                difference = first.inputs().difference(shard.inputs(), name(first), name(shard)).orElse(null);
            }
            if (difference != null) {
                throw new MutationException(name(shard) + " is of another run than " + name(first) + ": " + difference);
            }
        }
        Set<Integer> seen = new TreeSet<>();
        for (MutationShard shard : shards) {
            if (!seen.add(shard.index())) {
                throw new MutationException(name(shard) + " is given twice");
            }
        }
        List<Integer> missing = new ArrayList<>();
        for (int k = 0; k < first.count(); k++) {
            if (!seen.contains(k)) {
                missing.add(k);
            }
        }
        if (!missing.isEmpty()) {
            throw new MutationException(
                    "shards missing: "
                            + missing.stream().map(k -> k + "/" + first.count()).toList()
                            + "; a merge needs all "
                            + first.count());
        }
        if (!Sha256.of(text).equals(first.moduleSha256())) {
            throw new MutationException(
                    first.module() + " is not the module the shards checked (its bytes changed since)");
        }
        MutationPlan.Selection selection = first.selection();
        Path mistakes = selection.mistakes() == null ? null : root.resolve(selection.mistakes());
        if (mistakes != null) {
            String here;
            try {
                here = Sha256.of(mistakes);
            } catch (IOException e) {
                throw new MutationException(mistakes + ": cannot read it: " + FileProblems.words(e));
            }
            if (!here.equals(first.inputs().files().get(first.mistakes()))) {
                throw new MutationException(
                        first.mistakes() + " is not the mistakes file the shards read (its bytes changed since)");
            }
        }
        return MutationPlan.of(
                text,
                first.module(),
                new MutationPlan.Selection(selection.part(), selection.operators(), mistakes, selection.only(), null));
    }

    /**
     * Every planned mutant with its outcome from the shard that holds it. A shard must hold its own share and nothing
     * else, and each outcome must be one the run could have given.
     */
    public static List<MutantResult> results(MutationPlan plan, List<MutationShard> shards) throws MutationException {
        int count = shards.getFirst().count();
        MutationShard[] byIndex = new MutationShard[count];
        shards.forEach(shard -> byIndex[shard.index()] = shard);
        Map<String, Mutation> planned = new LinkedHashMap<>();
        plan.mutations().forEach(m -> planned.put(m.id(), m));
        for (MutationShard shard : byIndex) {
            for (var entry : shard.outcomes().entrySet()) {
                Mutation mutation = planned.get(entry.getKey());
                if (mutation == null) {
                    throw new MutationException(
                            name(shard) + " holds mutant " + entry.getKey() + ", which this run does not plan");
                }
                if (mutation.kind() != Mutation.Kind.NAMED
                        && MutationPlan.Shard.owner(mutation, count) != shard.index()) {
                    throw new MutationException(
                            name(shard)
                                    + " holds a result for mutant "
                                    + mutation.id()
                                    + ", which belongs to shard "
                                    + MutationPlan.Shard.owner(mutation, count)
                                    + "/"
                                    + count
                                    + " (a shard holds its own mutants only)");
                }
                possible(shard, mutation, entry.getValue());
            }
        }
        List<MutantResult> results = new ArrayList<>();
        for (Mutation mutation : plan.mutations()) {
            Outcome outcome;
            if (mutation.kind() == Mutation.Kind.NAMED) {
                // in shard order, so that shard 0, the one compared with, is checked first
                outcome = byIndex[0].outcomes().get(mutation.id());
                for (MutationShard shard : byIndex) {
                    Outcome other = shard.outcomes().get(mutation.id());
                    if (other == null) {
                        throw new MutationException(
                                name(shard) + " has no result for the named mistake " + mutation.operator());
                    }
                    if (!other.equals(outcome)) {
                        throw new MutationException(
                                "the shards disagree on the named mistake "
                                        + mutation.operator()
                                        + ": "
                                        + MutationRun.describe(outcome)
                                        + " in shard 0, "
                                        + MutationRun.describe(other)
                                        + " in shard "
                                        + shard.index());
                    }
                }
            } else {
                int index = MutationPlan.Shard.owner(mutation, count);
                outcome = byIndex[index].outcomes().get(mutation.id());
                if (outcome == null) {
                    throw new MutationException(
                            "shard " + index + "/" + count + " has no result for mutant " + mutation.id());
                }
            }
            results.add(new MutantResult(mutation, outcome));
        }
        return results;
    }

    /**
     * Refuses an outcome no run on the shard's models could give: a model not in the run, a kill by what it does not
     * check.
     */
    private static void possible(MutationShard shard, Mutation mutation, Outcome outcome) throws MutationException {
        String model =
                switch (outcome) {
                    case Outcome.Killed k -> k.model();
                    case Outcome.Unfinished u -> u.model();
                    case Outcome.Survived s -> null;
                    case Outcome.NotCompilable n -> null;
                };
        if (model == null) {
            return;
        }
        RunInputs.CheckedModel checked =
                shard.inputs()
                        .model(model)
                        .orElseThrow(
                                () ->
                                        new MutationException(
                                                name(shard)
                                                        + ": mutant "
                                                        + mutation.id()
                                                        + " is "
                                                        + MutationRun.describe(outcome)
                                                        + ", but "
                                                        + model
                                                        + " is not a model of the run (models: "
                                                        + String.join(", ", shard.models())
                                                        + ")"));
        if (outcome instanceof Outcome.Killed k && !checked.checks().canKill(k.by())) {
            throw new MutationException(
                    name(shard)
                            + ": mutant "
                            + mutation.id()
                            + " is killed on "
                            + model
                            + " by "
                            + k.by()
                            + ", which "
                            + checked.config()
                            + " does not check (it checks: "
                            + String.join(
                                    ", ",
                                    java.util.stream.Stream.concat(
                                                    checked.checks().invariants().stream(),
                                                    checked.checks().properties().stream())
                                            .toList())
                            + ")");
        }
    }

    private static String name(MutationShard shard) {
        return "shard " + shard.index() + "/" + shard.count();
    }
}
