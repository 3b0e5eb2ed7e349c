package io.proofgate.tlc;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The counts a run reports: 2199 (final generated, distinct, queue; or the last 2200 progress report when the run
 * stopped early), 2194 depth and 2186 elapsed time. Distinct states are exact and reproducible; depth is not with more
 * than one worker.
 */
public record TlcStatistics(
        OptionalLong generatedStates,
        OptionalLong distinctStates,
        OptionalLong queueSize,
        OptionalLong depth,
        Optional<Duration> elapsed) {

    public static final int STATS = 2199;
    public static final int PROGRESS = 2200;
    public static final int SEARCH_DEPTH = 2194;
    public static final int FINISHED = 2186;

    // 2199 "31 states generated, 13 distinct states found, 0 states left on queue."; 2200 adds rates
    // "(2,285 s/min)" and TLC groups digits with commas in large numbers.
    private static final Pattern COUNTS =
            Pattern.compile(
                    "([\\d,]+) states generated(?: \\([^)]*\\))?, ([\\d,]+) distinct states found(?: \\([^)]*\\))?,"
                            + " ([\\d,]+) states left on queue");
    private static final Pattern DEPTH = Pattern.compile("The depth of the complete state graph search is ([\\d,]+)");
    private static final Pattern FINISHED_IN = Pattern.compile("Finished in (.*?) at ");
    private static final Pattern DURATION_PART = Pattern.compile("(\\d+)(ms|min|h|s)");

    public static TlcStatistics of(List<TlcMessage> messages) {
        Optional<Progress> counts =
                last(messages, STATS)
                        .flatMap(TlcStatistics::counts)
                        .or(() -> last(messages, PROGRESS).flatMap(TlcStatistics::counts));
        OptionalLong depth =
                last(messages, SEARCH_DEPTH)
                        .map(m -> DEPTH.matcher(m.text()))
                        .filter(Matcher::find)
                        .map(m -> fits(m.group(1)) ? OptionalLong.of(number(m.group(1))) : OptionalLong.empty())
                        .orElse(OptionalLong.empty());
        Optional<Duration> elapsed = last(messages, FINISHED).flatMap(m -> elapsed(m.text()));
        return new TlcStatistics(
                counts.map(p -> OptionalLong.of(p.generatedStates())).orElse(OptionalLong.empty()),
                counts.map(p -> OptionalLong.of(p.distinctStates())).orElse(OptionalLong.empty()),
                counts.map(p -> OptionalLong.of(p.queueSize())).orElse(OptionalLong.empty()),
                depth,
                elapsed);
    }

    /** The counts of a 2199 or 2200 message ("Progress(5) at ...: 6 states generated, ..."). */
    public static Optional<Progress> counts(TlcMessage message) {
        Matcher m = COUNTS.matcher(message.text());
        if (!m.find() || !fits(m.group(1)) || !fits(m.group(2)) || !fits(m.group(3))) {
            return Optional.empty();
        }
        return Optional.of(new Progress(number(m.group(1)), number(m.group(2)), number(m.group(3))));
    }

    /** "822ms", "05s", "01min 02s", "01h 02min 03s" as TLC writes them in 2186. */
    static Optional<Duration> elapsed(String text) {
        Matcher m = FINISHED_IN.matcher(text);
        if (!m.find()) {
            return Optional.empty();
        }
        Duration total = Duration.ZERO;
        Matcher part = DURATION_PART.matcher(m.group(1));
        boolean any = false;
        while (part.find()) {
            any = true;
            if (!fits(part.group(1)) || part.group(1).length() > 12) {
                return Optional.empty(); // no run of TLC lasts that long
            }
            long n = Long.parseLong(part.group(1));
            total =
                    total.plus(
                            switch (part.group(2)) {
                                case "ms" -> Duration.ofMillis(n);
                                case "s" -> Duration.ofSeconds(n);
                                case "min" -> Duration.ofMinutes(n);
                                case "h" -> Duration.ofHours(n);
                                default -> throw new IllegalStateException(part.group(2));
                            });
        }
        return any ? Optional.of(total) : Optional.empty();
    }

    private static Optional<TlcMessage> last(List<TlcMessage> messages, int code) {
        return messages.reversed().stream().filter(m -> m.code() == code).findFirst();
    }

    private static long number(String digits) {
        return Long.parseLong(digits.replace(",", ""));
    }

    /**
     * Whether TLC's figure fits in a long. A figure that does not (only garbage output has one) is reported as unknown,
     * never as a number, so a check comparing it fails closed.
     */
    private static boolean fits(String digits) {
        try {
            number(digits);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** One progress report: states generated, distinct states found, states left on queue. */
    public record Progress(long generatedStates, long distinctStates, long queueSize) {}
}
