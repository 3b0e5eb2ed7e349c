package io.proofgate.conform;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Runs one scenario, or a prefix of it, through an adapter and finds the first difference. What
 * is compared follows the adapter's capabilities: verdicts after every event and the summary
 * always; the facts of reasons with {@code reason_facts}; the state after every event with
 * {@code state}. A hand-written scenario's verdicts are compared as one list, prefix by prefix, so
 * a difference is still placed at the event after which the adapter printed it. Both sides of a
 * difference are shown as {@code replay} prints them.
 */
final class ScenarioRun {

    private final AdapterClient client;
    private final Set<Capability> capabilities;

    ScenarioRun(AdapterClient client) {
        this.client = client;
        this.capabilities = client.capabilities();
    }

    /** Answers read of the messages sent for the current run. */
    private int answered;

    /** The first difference of the scenario's first {@code prefix} events, if any. */
    Optional<Result.Mismatch> run(Scenario scenario, int prefix) throws AdapterException {
        List<String> messages = new ArrayList<>(prefix + 2);
        messages.add(scenario.topology());
        scenario.events().subList(0, prefix).forEach(event -> messages.add(event.line()));
        messages.add(AdapterClient.SUMMARY);
        answered = 0;
        client.send(messages);
        Optional<Result.Mismatch> mismatch = compare(scenario, prefix);
        // the answers to what was sent after the difference, so that the next run reads its own
        for (int k = answered; k < messages.size(); k++) {
            answer(scenario, k == messages.size() - 1 ? SUMMARY_REQUEST : k);
        }
        return mismatch;
    }

    private Optional<Result.Mismatch> compare(Scenario scenario, int prefix) throws AdapterException {
        List<Line> topology = answer(scenario, 0);
        for (Line line : topology) {
            if (line instanceof Line.Refused refused) {
                return Optional.of(new Result.Mismatch(0, "refused the topology", List.of("(accepted)"),
                        List.of(refused.words(capabilities))));
            }
            throw located(scenario, 0, "answered the topology with a " + kind(line) + " line (only an error line may answer it)");
        }
        List<Line.Verdict> printed = new ArrayList<>();
        for (int k = 0; k < prefix; k++) {
            Scenario.Event event = scenario.events().get(k);
            List<Line> answer = answer(scenario, k + 1);
            List<Line.Verdict> verdicts = new ArrayList<>();
            Line.State state = null;
            for (Line line : answer) {
                switch (line) {
                    case Line.Refused refused -> {
                        return Optional.of(new Result.Mismatch(k + 1, "refused an event", expectedAt(scenario, k, printed.size()),
                                List.of(refused.words(capabilities))));
                    }
                    case Line.Verdict verdict -> {
                        if (state != null) {
                            throw located(scenario, k + 1, "printed a verdict after its state line");
                        }
                        if (!event.ids().contains(verdict.id())) {
                            throw located(scenario, k + 1, "printed a verdict for request " + Json.quote(verdict.id())
                                    + ", which no event of the scenario has named so far");
                        }
                        verdicts.add(verdict);
                    }
                    case Line.State s -> {
                        if (!capabilities.contains(Capability.STATE)) {
                            throw located(scenario, k + 1, "printed a state line without declaring the state capability");
                        }
                        if (state != null) {
                            throw located(scenario, k + 1, "printed two state lines");
                        }
                        for (String id : s.pendingIds()) {
                            if (!event.ids().contains(id)) {
                                throw located(scenario, k + 1, "printed a state with a pending store of request "
                                        + Json.quote(id) + ", which no event of the scenario has named so far");
                            }
                        }
                        state = s;
                    }
                    default -> throw located(scenario, k + 1, "answered an event with a " + kind(line) + " line"
                            + (line instanceof Line.Summary ? " (an answer ends with {\"kind\":\"end\"}: was one left out?)" : ""));
                }
            }
            if (capabilities.contains(Capability.STATE) && state == null) {
                throw located(scenario, k + 1, "declared the state capability but printed no state line");
            }
            switch (scenario.expected()) {
                case Scenario.PerEvent perEvent -> {
                    Scenario.After after = perEvent.after().get(k);
                    if (!words(after.verdicts()).equals(words(verdicts))) {
                        return Optional.of(new Result.Mismatch(k + 1, Rules.ofVerdicts(after.verdicts(), verdicts, capabilities),
                                json(after.verdicts()), json(verdicts)));
                    }
                    if (state != null && !after.state().words(capabilities).equals(state.words(capabilities))) {
                        return Optional.of(new Result.Mismatch(k + 1, Rules.ofState(after.state(), state),
                                after.state().lines(), state.lines()));
                    }
                }
                case Scenario.WholeLog whole -> {
                    List<Line.Verdict> expected = whole.verdicts();
                    int from = printed.size();
                    printed.addAll(verdicts);
                    List<String> expectedWords = words(expected.subList(0, Math.min(expected.size(), printed.size())));
                    if (printed.size() > expected.size() || !expectedWords.equals(words(printed))) {
                        List<Line.Verdict> wanted = expected.subList(Math.min(from, expected.size()),
                                Math.min(expected.size(), printed.size()));
                        return Optional.of(new Result.Mismatch(k + 1, Rules.ofVerdicts(wanted, verdicts, capabilities),
                                wanted.isEmpty() ? List.of("(no verdict)") : json(wanted), json(verdicts)));
                    }
                }
            }
        }
        List<Line> answer = answer(scenario, SUMMARY_REQUEST);
        if (answer.size() == 1 && answer.getFirst() instanceof Line.Refused refused) {
            return Optional.of(new Result.Mismatch(prefix + 1, "refused the summary request", List.of("(a summary)"),
                    List.of(refused.words(capabilities))));
        }
        if (answer.size() != 1 || !(answer.getFirst() instanceof Line.Summary summary)) {
            throw located(scenario, SUMMARY_REQUEST, "answered the summary request without exactly one summary line");
        }
        Set<String> named = prefix == 0 ? Set.of() : scenario.events().get(prefix - 1).ids();
        for (String id : summary.pending()) {
            if (!named.contains(id)) {
                throw located(scenario, SUMMARY_REQUEST, "printed a summary with pending request " + Json.quote(id)
                        + ", which no event of the scenario has named");
            }
        }
        for (String id : summary.latched().keySet()) {
            if (!named.contains(id)) {
                throw located(scenario, SUMMARY_REQUEST, "printed a summary with a latch of request " + Json.quote(id)
                        + ", which no event of the scenario has named");
            }
        }
        if (scenario.expected() instanceof Scenario.WholeLog whole && prefix == scenario.events().size()
                && printed.size() < whole.verdicts().size()) {
            List<Line.Verdict> missing = whole.verdicts().subList(printed.size(), whole.verdicts().size());
            return Optional.of(new Result.Mismatch(prefix, Rules.ofVerdicts(missing, List.of(), capabilities),
                    json(missing), List.of("(no more verdicts by the end of the log)")));
        }
        Line.Summary expected = switch (scenario.expected()) {
            case Scenario.PerEvent perEvent -> perEvent.after().get(prefix - 1).summary();
            // a hand-written log's summary is known only at its end
            case Scenario.WholeLog whole -> prefix < scenario.events().size() ? null : whole.summary();
        };
        if (expected != null && !expected.words(capabilities).equals(summary.words(capabilities))) {
            return Optional.of(new Result.Mismatch(prefix + 1, Rules.ofSummary(expected, summary), List.of(expected.json()),
                    List.of(summary.json())));
        }
        return Optional.empty();
    }

    /** The expected verdicts at event {@code k} (0-based), for the report of a refusal. */
    private static List<String> expectedAt(Scenario scenario, int k, int printedSoFar) {
        return switch (scenario.expected()) {
            case Scenario.PerEvent perEvent -> perEvent.after().get(k).verdicts().isEmpty() ? List.of("(no verdict)")
                    : json(perEvent.after().get(k).verdicts());
            case Scenario.WholeLog whole -> printedSoFar < whole.verdicts().size()
                    ? List.of(whole.verdicts().get(printedSoFar).json()) : List.of("(no verdict)");
        };
    }

    /** The message number of the summary request in {@link #located}. */
    private static final int SUMMARY_REQUEST = -1;


    /** The answer to the message sent for {@code event} (0 the topology). */
    private List<Line> answer(Scenario scenario, int event) throws AdapterException {
        try {
            answered++;
            return client.answer();
        } catch (AdapterException e) {
            throw located(scenario, event, e.getMessage());
        }
    }

    /** A protocol error, placed: the scenario, and which message the adapter was answering. */
    private static AdapterException located(Scenario scenario, int event, String problem) {
        String what;
        if (event == 0) {
            what = "the topology";
        } else if (event == SUMMARY_REQUEST) {
            what = "the summary request";
        } else {
            what = "event " + event + " (" + scenario.file() + ":" + scenario.events().get(event - 1).fileLine() + ")";
        }
        return new AdapterException("scenario " + scenario.id() + ", " + what + ": the adapter " + problem);
    }

    private List<String> words(List<? extends Line.Compared> lines) {
        return lines.stream().map(line -> line.words(capabilities)).toList();
    }

    private static List<String> json(List<Line.Verdict> verdicts) {
        return verdicts.isEmpty() ? List.of("(no verdict)") : verdicts.stream().map(Line.Verdict::json).toList();
    }

    private static String kind(Line line) {
        return switch (line) {
            case Line.Plan p -> "plan";
            case Line.Rejected r -> "rejected";
            case Line.Retired r -> "retired";
            case Line.State s -> "state";
            case Line.Summary s -> "summary";
            case Line.Refused r -> "error";
            case Line.End e -> "end";
            case Line.Hello h -> "hello";
        };
    }
}
