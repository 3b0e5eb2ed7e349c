package io.proofgate.conform;

import io.proofgate.format.ReplaySummary;
import io.proofgate.format.StateLine;
import io.proofgate.words.Capability;
import io.proofgate.words.Counter;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Names a first difference by the rule it breaks, in words that do not depend on the scenario's request ids or numbers,
 * so that failures of one mistake group together: {@code rejected future_boundary -> no verdict}, {@code plan:
 * recurrent differs}, {@code state: pending latch differs}, {@code summary: store_skipped_quorum differs}.
 */
public final class Rules {

    private Rules() {}

    public static String ofVerdicts(
            List<Line.VerdictLine> expected, List<Line.VerdictLine> actual, Set<Capability> capabilities) {
        int i = 0;
        while (i < expected.size()
                && i < actual.size()
                && expected.get(i).words(capabilities).equals(actual.get(i).words(capabilities))) {
            i++;
        }
        Line.VerdictLine want = i < expected.size() ? expected.get(i) : null;
        Line.VerdictLine got = i < actual.size() ? actual.get(i) : null;
        if (want != null && got != null && want.id().equals(got.id())) {
            switch (want) {
                case Line.Plan plan when got instanceof Line.Plan other -> {
                    return "plan: "
                            + differing(
                                    List.of(
                                            "step",
                                            plan.step(),
                                            other.step(),
                                            "digest",
                                            plan.digest(),
                                            other.digest(),
                                            "span",
                                            plan.span(),
                                            other.span(),
                                            "blocks_by_group",
                                            plan.blocksByGroup(),
                                            other.blocksByGroup(),
                                            "recurrent",
                                            plan.recurrent(),
                                            other.recurrent()));
                }
                case Line.Rejected rejected when got instanceof Line.Rejected other -> {
                    if (rejected.code().equals(other.code())) {
                        return "rejected "
                                + rejected.code()
                                + (rejected.step().equals(other.step()) ? ": reason facts differ" : ": step differs");
                    }
                    return "rejected " + rejected.code() + " -> rejected " + word(other.code());
                }
                case Line.Hit hit when got instanceof Line.Hit other -> {
                    return "hit: tokens " + (hit.tokens().equals(other.tokens()) ? "the same, step differs" : "differ");
                }
                case Line.Load load when got instanceof Line.Load other -> {
                    return "load: "
                            + differing(
                                    List.of(
                                            "step",
                                            load.step(),
                                            other.step(),
                                            "digest",
                                            load.digest(),
                                            other.digest(),
                                            "span",
                                            load.span(),
                                            other.span(),
                                            "blocks",
                                            load.blocksByGroup(),
                                            other.blocksByGroup()));
                }
                case Line.Retired retired when got instanceof Line.Retired other -> {
                    return "retired "
                            + retired.cause()
                            + (retired.cause().equals(other.cause())
                                    ? ": step differs"
                                    : " -> retired " + word(other.cause()));
                }
                default -> {}
            }
        }
        String rule = outcome(want) + " -> " + outcome(got);
        return want != null && got != null && !want.id().equals(got.id()) ? rule + " (another request first)" : rule;
    }

    private static String outcome(Line.VerdictLine verdict) {
        return switch (verdict) {
            case null -> "no verdict";
            case Line.Plan plan -> "plan";
            case Line.Rejected rejected -> "rejected " + word(rejected.code());
            case Line.Retired retired -> "retired " + word(retired.cause());
            case Line.Hit hit -> hit.tokens().equals("0") ? "hit of 0 tokens" : "hit";
            case Line.Load load -> "load";
        };
    }

    /** A code or cause as the adapter gave it: as is when it is a word, quoted otherwise (it is outside text). */
    private static String word(String text) {
        return text.matches("[a-z_]{1,40}") ? text : Json.excerpt(text);
    }

    /** "a, b differ": the names of (name, expected, actual) triples whose values differ. */
    private static String differing(List<String> triples) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < triples.size(); i += 3) {
            if (!triples.get(i + 1).equals(triples.get(i + 2))) {
                names.add(triples.get(i));
            }
        }
        return String.join(", ", names) + (names.size() == 1 ? " differs" : " differ");
    }

    public static String ofState(Line.State expected, Line.State actual) {
        // by what each line is about (a pending store by request id, a held line by digest), so
        // that one store too many or too few is named as such and not as a difference of
        // whatever line follows it
        Map<String, StateLine> want = byKey(expected.lines());
        Map<String, StateLine> got = byKey(actual.lines());
        if (!pendingIds(want).equals(pendingIds(got))) {
            return "state: pending requests differ";
        }
        for (Map.Entry<String, StateLine> entry : want.entrySet()) {
            StateLine other = got.get(entry.getKey());
            if (entry.getValue().equals(other)) {
                continue;
            }
            switch (entry.getValue()) {
                case StateLine.Pending store when other instanceof StateLine.Pending theirs -> {
                    return "state: pending "
                            + differing(
                                    List.of(
                                            "done",
                                            store.done(),
                                            theirs.done(),
                                            "table",
                                            store.table(),
                                            theirs.table(),
                                            "latch",
                                            store.latch(),
                                            theirs.latch()));
                }
                case StateLine.Counters counters when other instanceof StateLine.Counters theirs -> {
                    return "state: counter " + differing(side(counters, theirs));
                }
                default -> {
                    return "state: " + about(entry.getValue()) + " differs";
                }
            }
        }
        return got.keySet().stream()
                .filter(k -> !want.containsKey(k))
                .findFirst()
                .map(k -> "state: " + about(got.get(k)) + " differs")
                .orElse("state: state differs");
    }

    /** A state's lines by what they are about, read by the format's own reader (the kit wrote them with it). */
    private static Map<String, StateLine> byKey(List<StateLine> lines) {
        Map<String, StateLine> byKey = new java.util.LinkedHashMap<>();
        for (StateLine read : lines) {
            byKey.put(
                    switch (read) {
                        case StateLine.Pending store -> "pending " + store.id();
                        case StateLine.Held held -> "held " + held.digest();
                        default -> about(read);
                    },
                    read);
        }
        return byKey;
    }

    /** What a state line is about, as its first word says it. */
    private static String about(StateLine line) {
        return switch (line) {
            case StateLine.NoPending none -> "pending";
            case StateLine.Pending store -> "pending";
            case StateLine.Held held -> "held";
            case StateLine.Counters counters -> "counters";
            case StateLine.Contents contents -> "contents";
            case StateLine.Verdict verdict -> "verdict";
        };
    }

    private static Set<String> pendingIds(Map<String, StateLine> byKey) {
        Set<String> ids = new java.util.HashSet<>();
        byKey.values()
                .forEach(
                        line -> {
                            if (line instanceof StateLine.Pending store) {
                                ids.add(store.id());
                            }
                        });
        return ids;
    }

    /** A refusal of {@code what} (an event, the summary request). */
    public static String ofRefusal(String what, Line.Refused refused) {
        // grouped by what the adapter said, its numbers and ids' digits as N, so that two mistakes are two groups
        String message = refused.message().replaceAll("[0-9]+", "N");
        return "refused "
                + what
                + ": "
                + Json.excerpt(message.length() > 100 ? message.substring(0, 100) + "..." : message);
    }

    public static String ofSummary(Line.Summary expectedLine, Line.Summary actualLine) {
        ReplaySummary expected = expectedLine.said();
        ReplaySummary actual = actualLine.said();
        List<String> sides = side(expected.counters(), actual.counters());
        sides.addAll(
                List.of(
                        Counter.IGNORED_HELD.wireName(),
                        expected.ignoredHeld(),
                        actual.ignoredHeld(),
                        "pending",
                        expected.pending().toString(),
                        actual.pending().toString(),
                        "latched",
                        expected.latched().toString(),
                        actual.latched().toString()));
        return "summary: " + differing(sides);
    }

    /** Each counter's name, then its two counts, as {@link #differing} takes them. */
    private static List<String> side(StateLine.Counters expected, StateLine.Counters actual) {
        Map<String, String> theirs = actual.byName();
        List<String> sides = new ArrayList<>();
        expected.byName().forEach((name, count) -> sides.addAll(List.of(name, count, theirs.get(name))));
        return sides;
    }
}
