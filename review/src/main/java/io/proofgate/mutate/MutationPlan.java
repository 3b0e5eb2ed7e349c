package io.proofgate.mutate;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which mutants a mutation run checks: the module's definitions in a part (or named operators), their generated
 * mutants, the named mistakes, then the selection of {@code --shard} and {@code --only}. {@code proofgate mutate} and
 * {@code proofgate merge-mutate} both plan with it, so a merge of shards expects exactly the mutants one unsharded run
 * would have checked.
 *
 * @param source the module's path as the report names it
 * @param part the part's words for the report ("Connector", or "operators A,B")
 * @param allIds every mutant of every definition of the module, run or not
 */
public record MutationPlan(
        String source,
        String text,
        String part,
        List<Definition> definitions,
        List<Mutation> mutations,
        Map<String, String> firstModels,
        Set<String> allIds) {

    /** How to choose: null fields are the defaults (the part, no mistakes file, all mutants). */
    public record Selection(String part, String operators, Path mistakes, List<String> only, Shard shard) {}

    /**
     * Shard {@code index} of {@code count}: the generated mutants whose id, read as a number, is index modulo count.
     */
    public record Shard(int index, int count) {
        public boolean holds(Mutation mutation) {
            return mutation.kind() == Mutation.Kind.NAMED || owner(mutation, count) == index;
        }

        /** The shard of {@code count} that checks a generated mutant. */
        static int owner(Mutation mutation, int count) {
            return (int) (Long.parseLong(mutation.id().substring(0, 8), 16) % count);
        }
    }

    public static MutationPlan of(String text, String source, Selection selection) throws MutationException {
        TlaModule module = TlaModule.parse(text, source);
        String part = selection.operators() != null ? "operators " + selection.operators() : selection.part();
        List<Definition> definitions = definitions(module, selection.operators(), selection.part(), source);
        List<Mutation> mutations = new ArrayList<>();
        Map<String, String> firstModels = Map.of();
        if (selection.mistakes() != null) {
            Mistakes.Named named = Mistakes.read(selection.mistakes(), text, source);
            mutations.addAll(named.mutations());
            firstModels = named.firstModels();
        }
        for (Definition d : definitions) {
            mutations.addAll(Mutator.mutations(d, text));
        }
        // every mutant of every definition of the module: a judgement naming none is of a mutant gone
        Set<String> allIds = new LinkedHashSet<>(mutations.stream().map(Mutation::id).toList());
        for (Definition d : module.definitions()) {
            Mutator.mutations(d, text).forEach(m -> allIds.add(m.id()));
        }
        if (selection.only() != null) {
            // checked against every mutant, so that the shards of an --only run each take their part of it
            Set<String> only = new LinkedHashSet<>(selection.only());
            Set<String> known = new LinkedHashSet<>(mutations.stream().map(Mutation::id).toList());
            for (String id : only) {
                if (!known.contains(id)) {
                    throw new MutationException("--only: no mutant " + id + " in " + part + " of " + source);
                }
            }
            mutations = mutations.stream().filter(m -> only.contains(m.id())).toList();
        }
        if (selection.shard() != null) {
            Shard shard = selection.shard();
            mutations = mutations.stream().filter(shard::holds).toList();
            part = part + ", shard " + shard.index() + "/" + shard.count();
        }
        return new MutationPlan(source, text, part, definitions, List.copyOf(mutations), firstModels, allIds);
    }

    private static List<Definition> definitions(TlaModule module, String operators, String part, String source)
            throws MutationException {
        if (operators != null) {
            List<Definition> out = new ArrayList<>();
            for (String name : operators.split(",")) {
                out.add(
                        module.definitions().stream()
                                .filter(d -> d.name().equals(name))
                                .findFirst()
                                .orElseThrow(
                                        () ->
                                                new MutationException(
                                                        source + ": no definition named \"" + name + "\"")));
            }
            return out;
        }
        List<Definition> inPart = module.part(part);
        if (inPart == null) {
            throw new MutationException(
                    source
                            + ": no part \""
                            + part
                            + "\": mark it with the comments"
                            + " \"\\* mutate-begin: "
                            + part
                            + "\" and \"\\* mutate-end: "
                            + part
                            + "\""
                            + (module.parts().isEmpty() ? "" : " (marked: " + String.join(", ", module.parts()) + ")"));
        }
        if (inPart.isEmpty()) {
            throw new MutationException(source + ": the part \"" + part + "\" holds no definition");
        }
        return inPart;
    }
}
