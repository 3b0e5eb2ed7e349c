package io.proofgate.conform;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

class ShrinkerTest {

    @Test
    void theShortestPrefixThatShowsSomethingWinsAndLongerOnesAreNotRun() {
        List<Integer> tried = new ArrayList<>();
        Optional<Shrinker.Shrunk<String>> shrunk =
                Shrinker.shortest(
                        2,
                        9,
                        events -> {
                            tried.add(events);
                            return events >= 5 ? Optional.of("shown at " + events) : Optional.empty();
                        });
        assertEquals(Optional.of(new Shrinker.Shrunk<>(5, "shown at 5")), shrunk);
        assertEquals(List.of(2, 3, 4, 5), tried);
    }

    @Test
    void noPrefixThatShowsItIsEmpty() {
        List<Integer> tried = new ArrayList<>();
        assertEquals(
                Optional.empty(),
                Shrinker.shortest(
                        1,
                        3,
                        events -> {
                            tried.add(events);
                            return Optional.empty();
                        }));
        assertEquals(List.of(1, 2, 3), tried);
        assertEquals(Optional.empty(), Shrinker.shortest(4, 3, events -> Optional.of("never run")));
    }
}
