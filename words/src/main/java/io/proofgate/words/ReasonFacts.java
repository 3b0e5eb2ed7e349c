package io.proofgate.words;

import java.util.List;

/**
 * The facts of a rejection's reason (docs/protocol.md §6, "Reasons"): the {@code name=value} words that end it. The
 * sentence before them is prose, which no comparison reads; every reader of a reason (the kit, the audits, the
 * namespace answers) takes the facts here.
 */
public final class ReasonFacts {

    private ReasonFacts() {}

    /** The trailing {@code name=value} words of {@code reason}, in order. */
    public static List<String> of(String reason) {
        String[] words = reason.split(" ");
        int first = words.length;
        while (first > 0 && words[first - 1].matches("[a-z_]+=\\S*")) {
            first--;
        }
        return List.of(words).subList(first, words.length);
    }

    /** The facts as the words that end a verdict's words: each after a space; empty when there are none. */
    public static String words(String reason) {
        StringBuilder facts = new StringBuilder();
        for (String fact : of(reason)) {
            facts.append(' ').append(fact);
        }
        return facts.toString();
    }
}
