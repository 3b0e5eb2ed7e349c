package io.proofgate.review;

import java.util.List;

/** How two revisions' answers to one scenario (or a prefix of it) compare. */
public sealed interface Comparison {

    /** Every answer the same. */
    record Same() implements Comparison {}

    /** Both revisions' adapters said the scenario does not apply to their connector: nothing compared. */
    record NotApplicable(String reason) implements Comparison {}

    /**
     * The first message whose answers differ ({@code message}: 1 to n an event, n + 1 the summary request), what
     * differs, and how each side stands against the model.
     *
     * @param base the base's answer, as {@code replay} prints it (the state in the scenarios' words)
     * @param head the head's answer
     * @param model what the model expects of that part, or what it leaves open
     */
    record Differs(
            int message,
            DifferenceKind kind,
            ModelJudgement judgement,
            String rule,
            List<String> base,
            List<String> head,
            List<String> model)
            implements Comparison {
        public Differs {
            base = List.copyOf(base);
            head = List.copyOf(head);
            model = List.copyOf(model);
        }

        /** The class a difference belongs to: its kind, its judgement and its rule. */
        public String classKey() {
            return kind.wireName() + " " + judgement.wireName() + " " + rule;
        }
    }

    /**
     * One side refused a message the other answered: the scenarios hold no event the contract lets an implementation
     * refuse, so the two cannot be compared there (the audit cannot judge).
     */
    record OneRefused(int message, String side, String refusal) implements Comparison {}

    /**
     * Both sides refused a message: they fail alike, but nothing was compared there (a connector that cannot run at
     * either revision, say), so the audit cannot judge it either.
     */
    record BothRefused(int message, String base, String head) implements Comparison {}
}
