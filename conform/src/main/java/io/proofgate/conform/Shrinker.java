package io.proofgate.conform;

import java.util.Optional;

/**
 * The shortest prefix of a scenario that still shows what its whole run showed, found by running its prefixes shortest
 * first: conform shrinks a failure so, and the connector audit a class's witness, so that both report the same kind of
 * shortest example.
 */
public final class Shrinker {

    private Shrinker() {}

    /** One run of a prefix: what it showed, or empty when it shows nothing of what is looked for. */
    @FunctionalInterface
    public interface Attempt<T, E extends Exception> {
        Optional<T> run(int events) throws E;
    }

    /** What a prefix of {@code events} events showed. */
    public record Shrunk<T>(int events, T shown) {}

    /**
     * The first prefix, from {@code from} to {@code upTo} events, whose run shows something; empty when none of them
     * does (the whole scenario is then its own shortest example).
     */
    public static <T, E extends Exception> Optional<Shrunk<T>> shortest(int from, int upTo, Attempt<T, E> attempt)
            throws E {
        for (int events = from; events <= upTo; events++) {
            Optional<T> shown = attempt.run(events);
            if (shown.isPresent()) {
                return Optional.of(new Shrunk<>(events, shown.get()));
            }
        }
        return Optional.empty();
    }
}
