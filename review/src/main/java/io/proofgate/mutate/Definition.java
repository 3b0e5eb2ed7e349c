package io.proofgate.mutate;

import java.util.List;

/**
 * A top-level operator definition of a module: {@code Name == ...} or {@code Name(a, b) == ...}, from its name to the
 * last token before the next top-level line.
 *
 * @param tokens the definition's tokens, comments left out, name first
 */
public record Definition(String name, List<TlaToken> tokens) {

    public Definition {
        tokens = List.copyOf(tokens);
    }

    public int start() {
        return tokens.getFirst().start();
    }

    /** The definition's text with its layout reduced to single spaces: what its mutants' identities hash. */
    public String normalized() {
        StringBuilder s = new StringBuilder();
        for (TlaToken t : tokens) {
            if (!s.isEmpty()) {
                s.append(' ');
            }
            s.append(t.text());
        }
        return s.toString();
    }
}
