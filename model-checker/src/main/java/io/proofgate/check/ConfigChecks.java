package io.proofgate.check;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What a TLC config makes TLC check: the names under its INVARIANT(S) and PROPERTY(IES) sections, and whether deadlock
 * is checked (TLC's default, unless {@code CHECK_DEADLOCK FALSE}). A merge of mutation shards uses it to refuse a kill
 * by something the model does not check.
 */
public record ConfigChecks(List<String> invariants, List<String> properties, boolean deadlock) {

    /** TLC's config keywords: each ends the section before it. */
    static final Set<String> KEYWORDS =
            Set.of(
                    "CONSTANT",
                    "CONSTANTS",
                    "INIT",
                    "NEXT",
                    "SPECIFICATION",
                    "INVARIANT",
                    "INVARIANTS",
                    "PROPERTY",
                    "PROPERTIES",
                    "CONSTRAINT",
                    "CONSTRAINTS",
                    "ACTION_CONSTRAINT",
                    "ACTION_CONSTRAINTS",
                    "SYMMETRY",
                    "VIEW",
                    "CHECK_DEADLOCK",
                    "POSTCONDITION",
                    "ALIAS");

    public ConfigChecks {
        invariants = List.copyOf(invariants);
        properties = List.copyOf(properties);
    }

    /** The checks of a config's text; comments ({@code \*} to the end of a line, {@code (* *)}) are skipped. */
    public static ConfigChecks parse(String config) {
        List<String> invariants = new ArrayList<>();
        List<String> properties = new ArrayList<>();
        boolean deadlock = true;
        String section = "";
        for (String word : words(config)) {
            if (KEYWORDS.contains(word)) {
                section = word;
            } else if (section.startsWith("INVARIANT")) {
                invariants.add(word);
            } else if (section.startsWith("PROPERT")) {
                properties.add(word);
            } else if (section.equals("CHECK_DEADLOCK")) {
                deadlock = !word.equals("FALSE");
            }
        }
        return new ConfigChecks(invariants, properties, deadlock);
    }

    /**
     * The words of a config's sections of the given kinds (keywords of {@link #KEYWORDS}), in order, comments skipped:
     * what a model runs ({@code INIT}, {@code NEXT}, ...) or replaces ({@code CONSTANTS}). {@code <-} and {@code =} are
     * words of their own, written with spaces around them or not.
     */
    public static List<String> sectionWords(String config, Set<String> kinds) {
        List<String> words = new ArrayList<>();
        boolean in = false;
        for (String word : words(config.replace("<-", " <- ").replace("=", " = "))) {
            if (KEYWORDS.contains(word)) {
                in = kinds.contains(word);
            } else if (in) {
                words.add(word);
            }
        }
        return words;
    }

    private static List<String> words(String config) {
        StringBuilder text = new StringBuilder();
        int depth = 0;
        for (int i = 0; i < config.length(); i++) {
            if (config.startsWith("(*", i)) {
                depth++;
                i++;
            } else if (depth > 0 && config.startsWith("*)", i)) {
                depth--;
                i++;
                text.append(' ');
            } else if (depth == 0 && config.startsWith("\\*", i)) {
                int end = config.indexOf('\n', i);
                i = end < 0 ? config.length() : end;
                text.append('\n');
            } else if (depth == 0) {
                text.append(config.charAt(i));
            }
        }
        return List.of(text.toString().strip().split("\\s+")).stream().filter(w -> !w.isEmpty()).toList();
    }

    /**
     * Whether a mutant can have been killed on this model by {@code by}, as {@code MutationRun} names a kill: a name
     * the config checks, TLC's words for a violation it did not name (only where the config checks that kind), deadlock
     * where it is checked, or an evaluation error.
     */
    public boolean canKill(String by) {
        return switch (by) {
            case "evaluation error" -> true;
            case "deadlock" -> deadlock;
            case "an invariant" -> !invariants.isEmpty();
            case "a property", "an action property", "a temporal property" -> !properties.isEmpty();
            default -> invariants.contains(by) || properties.contains(by);
        };
    }
}
