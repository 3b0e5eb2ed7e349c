package io.proofgate.tlc;

import io.proofgate.value.TlaState;
import io.proofgate.value.TlaValueReader;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The summary of one TLC run: how it ended, what was violated, the counterexample, and counts.
 *
 * @param trace the first counterexample (or the "behavior up to this point" of an evaluation error), ending with a
 *     {@link TraceStep.Stuttering} or {@link TraceStep.BackTo} entry for a liveness lasso; empty when TLC printed none
 * @param errors messages of severity ERROR or TLC_BUG other than the violation and the trace headers
 * @param freeText lines TLC printed outside frames (SANY's semantic errors land here)
 */
public record TlcRun(
        TlcEnding ending,
        Optional<Violation> violation,
        List<TraceState> trace,
        TlcStatistics statistics,
        List<TlcMessage> errors,
        List<String> freeText) {

    public static final int SUCCESS = 2193;
    public static final int INVARIANT_VIOLATED_INITIAL = 2107;
    public static final int PROPERTY_VIOLATED_INITIAL = 2108;
    public static final int INVARIANT_VIOLATED = 2110;
    public static final int ACTION_PROPERTY_VIOLATED = 2112;
    public static final int DEADLOCK_REACHED = 2114;
    public static final int TEMPORAL_PROPERTY_VIOLATED = 2116;
    public static final int BEHAVIOR_UP_TO_THIS_POINT = 2121;
    public static final int COUNTER_EXAMPLE = 2264;
    public static final int STATE = 2217;
    public static final int STUTTERING = 2218;
    public static final int BACK_TO_STATE = 2122;

    private static final Pattern NAMED = Pattern.compile("^(?:Invariant|Property|Action property) (\\S+) is violated");

    public TlcRun {
        trace = List.copyOf(trace);
        errors = List.copyOf(errors);
        freeText = List.copyOf(freeText);
    }

    public static TlcRun of(TlcOutput output) {
        List<TlcMessage> messages = output.messages();
        Optional<Violation> violation = messages.stream().flatMap(m -> violation(m).stream()).findFirst();
        TlcEnding ending =
                violation.isPresent()
                        ? TlcEnding.VIOLATION
                        : messages.stream().anyMatch(m -> m.code() == SUCCESS) ? TlcEnding.OK : TlcEnding.ERROR;
        List<TlcMessage> errors =
                messages.stream()
                        .filter(m -> m.severity().isError())
                        // 2121 and 2264 only announce the trace that follows; TLC marks them ERROR too.
                        .filter(m -> m.code() != BEHAVIOR_UP_TO_THIS_POINT && m.code() != COUNTER_EXAMPLE)
                        .filter(m -> violation.map(v -> v.message() != m).orElse(true))
                        .toList();
        return new TlcRun(
                ending, violation, trace(messages, violation), TlcStatistics.of(messages), errors, output.freeText());
    }

    private static final Pattern AT = Pattern.compile("at line (\\d+), column (\\d+)");
    private static final Pattern SANY_PLACE =
            Pattern.compile("line (\\d+), col (\\d+) to line \\d+, col \\d+ of module (\\w+)");
    private static final Pattern MODULE = Pattern.compile("^(?:In module|Could not parse module) (\\w+)");

    /**
     * SANY's own words for a module it refused ("Encountered ... at line 7, column 32", "Unknown operator: ...",
     * "Precedence conflict ..."), from the frames and the free text, with the module's file and the place in front
     * ({@code Publication.tla:7:32: ...}) when SANY names them.
     */
    public Optional<String> parseProblem() {
        List<String> lines = new ArrayList<>();
        errors.forEach(m -> m.text().lines().forEach(lines::add));
        lines.addAll(freeText);
        lines.replaceAll(String::strip);
        lines.removeIf(String::isEmpty);
        Optional<String> problem = Optional.empty();
        for (int i = 0; i < lines.size() && problem.isEmpty(); i++) {
            if (lines.get(i).startsWith("***Parse Error***") && i + 1 < lines.size()) {
                problem = Optional.of(lines.get(i + 1));
            }
        }
        for (int i = 0; i < lines.size() && problem.isEmpty(); i++) {
            // "Semantic errors:" heads a list: "*** Errors: N", then each error's place and its words
            if (lines.get(i).startsWith("Semantic error")) {
                for (int j = i + 1; j + 1 < lines.size() && problem.isEmpty(); j++) {
                    Matcher place = SANY_PLACE.matcher(lines.get(j));
                    if (place.matches()) {
                        problem =
                                Optional.of(
                                        place.group(3)
                                                + ".tla:"
                                                + place.group(1)
                                                + ":"
                                                + place.group(2)
                                                + ": "
                                                + lines.get(j + 1));
                    }
                }
            }
        }
        if (problem.isEmpty()) {
            problem =
                    lines.stream()
                            .filter(
                                    s ->
                                            s.startsWith("Lexical error")
                                                    || s.startsWith("Encountered")
                                                    || s.contains("Unknown operator")
                                                    || s.startsWith("Semantic error"))
                            .findFirst();
        }
        return problem.map(
                text -> {
                    Matcher at = AT.matcher(text);
                    String module =
                            lines.stream()
                                    .map(MODULE::matcher)
                                    .filter(Matcher::find)
                                    .map(m -> m.group(1))
                                    .findFirst()
                                    .orElse(null);
                    return module != null && at.find()
                            ? module + ".tla:" + at.group(1) + ":" + at.group(2) + ": " + text
                            : text;
                });
    }

    /** The name of the violated invariant or property, when TLC names it. */
    public Optional<String> violatedName() {
        return violation.flatMap(Violation::name);
    }

    private static Optional<Violation> violation(TlcMessage m) {
        Violation.Kind kind =
                switch (m.code()) {
                    case INVARIANT_VIOLATED_INITIAL, INVARIANT_VIOLATED -> Violation.Kind.INVARIANT;
                    case PROPERTY_VIOLATED_INITIAL -> Violation.Kind.PROPERTY;
                    case ACTION_PROPERTY_VIOLATED -> Violation.Kind.ACTION_PROPERTY;
                    case TEMPORAL_PROPERTY_VIOLATED -> Violation.Kind.TEMPORAL_PROPERTY;
                    case DEADLOCK_REACHED -> Violation.Kind.DEADLOCK;
                    default -> null;
                };
        if (kind == null) {
            return Optional.empty();
        }
        Matcher named = NAMED.matcher(m.text());
        return Optional.of(new Violation(kind, named.find() ? Optional.of(named.group(1)) : Optional.empty(), m));
    }

    /**
     * The trace-state frames of the first trace: they run from state 1 until a state numbered 1 starts another trace
     * (TLC's {@code -continue}) or a lasso closes it.
     */
    private static List<TraceState> trace(List<TlcMessage> messages, Optional<Violation> violation) {
        List<TraceState> trace = new ArrayList<>();
        for (TlcMessage m : messages) {
            if (m.traceState().isEmpty()) {
                continue;
            }
            TraceState s = m.traceState().get();
            boolean restarts = !trace.isEmpty() && s.step() instanceof TraceStep.Initial;
            if (restarts) {
                break;
            }
            trace.add(s);
            if (s.step() instanceof TraceStep.Stuttering || s.step() instanceof TraceStep.BackTo) {
                break;
            }
        }
        if (trace.isEmpty() && violation.isPresent()) {
            initialStateOf(violation.get().message()).ifPresent(trace::add);
        }
        return trace;
    }

    /** 2107 and 2108 print the offending initial state inside their text, after the first line. */
    private static Optional<TraceState> initialStateOf(TlcMessage m) {
        if (m.code() != INVARIANT_VIOLATED_INITIAL && m.code() != PROPERTY_VIOLATED_INITIAL) {
            return Optional.empty();
        }
        int newline = m.text().indexOf('\n');
        if (newline < 0) {
            return Optional.empty();
        }
        // The text starts on the line after the opening marker, the state on the line after that.
        TlaState state = TlaValueReader.state("TLC message " + m.code(), m.text().substring(newline + 1), m.line() + 2);
        return Optional.of(new TraceState(1, new TraceStep.Initial(), state));
    }
}
