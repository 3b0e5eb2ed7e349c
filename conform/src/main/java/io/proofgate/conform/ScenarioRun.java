package io.proofgate.conform;

import io.proofgate.protocol.Event;
import io.proofgate.words.Capability;
import io.proofgate.words.CopyTiming;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Runs one scenario, or a prefix of it, through an adapter and finds the first difference. What is compared follows the
 * adapter's capabilities: verdicts after every event and the summary always; the facts of reasons with {@code
 * reason_facts}; the state after every event with {@code state}. A hand-written scenario's verdicts are compared as one
 * list, prefix by prefix, so a difference is still placed at the event after which the adapter printed it. Both sides
 * of a difference are shown as {@code replay} prints them.
 */
public final class ScenarioRun {

    private final AdapterClient client;
    private final Set<Capability> capabilities;

    public ScenarioRun(AdapterClient client) {
        this.client = client;
        this.capabilities = client.capabilities();
    }

    /** The first difference of the scenario's first {@code prefix} events, if any. */
    Optional<Result.Mismatch> run(Scenario scenario, int prefix) throws AdapterException {
        send(scenario, prefix);
        return compare(scenario, prefix, receive(scenario, prefix));
    }

    /**
     * Sends the scenario's first {@code prefix} events ahead of their answers, with the topology and the summary
     * request; with lookups, up to the first, since what follows depends on its answer ({@link Lookups}): {@link
     * #receive} sends the rest as the answers come.
     */
    public void send(Scenario scenario, int prefix) {
        List<String> messages = new ArrayList<>(prefix + 2);
        messages.add(scenario.topology());
        messages.addAll(segment(scenario, 0, prefix, new java.util.HashMap<>(), new java.util.HashMap<>()));
        client.send(messages);
    }

    /**
     * Whether {@link #send} sends all of the scenario's messages at once: false for one with lookups, whose later
     * events {@link #receive} sends as the hits come, so nothing may be sent to the adapter after it until its answers
     * are read.
     */
    public static boolean sentAtOnce(Scenario scenario) {
        return !scenario.needs().contains(Capability.RESTORE);
    }

    /**
     * The events from {@code from} as sent, up to the first lookup (included) or to {@code prefix} and the summary
     * request.
     */
    private static List<String> segment(
            Scenario scenario,
            int from,
            int prefix,
            java.util.Map<String, Event.Lookup> lookedUp,
            java.util.Map<String, Long> hits) {
        List<String> messages = new ArrayList<>();
        for (int k = from; k < prefix; k++) {
            messages.add(Lookups.sent(scenario, k, lookedUp, hits));
            if (Lookups.lookupAt(scenario, k) != null) {
                return messages;
            }
        }
        messages.add(AdapterClient.SUMMARY);
        return messages;
    }

    /** Sends the scenario's first {@code prefix} events and reads every answer, strictly; nothing is judged. */
    public Transcript record(Scenario scenario, int prefix) throws AdapterException {
        send(scenario, prefix);
        return receive(scenario, prefix);
    }

    /**
     * Reads the answers to what {@link #send} sent, every one of them (so that the next run reads its own), each
     * checked against the protocol: a refusal may answer anything; otherwise the topology gets nothing, an event its
     * verdicts for requests the scenario has named and, with the {@code state} capability, one state line after them,
     * the summary request one summary.
     */
    public Transcript receive(Scenario scenario, int prefix) throws AdapterException {
        List<Line> topology = answer(scenario, 0);
        for (Line line : topology) {
            if (!(line instanceof Line.Refused || line instanceof Line.NotApplicable)) {
                throw located(
                        scenario,
                        0,
                        "answered the topology with a "
                                + kind(line)
                                + " line (only an error or"
                                + " not_applicable line may answer it)");
            }
        }
        List<List<Line>> events = new ArrayList<>(prefix);
        List<Line.Plan> copying = new ArrayList<>(); // asynchronous plans whose saved line has not come
        java.util.Map<String, Event.Lookup> lookedUp = new java.util.HashMap<>();
        java.util.Map<String, Long> hits = new java.util.HashMap<>();
        for (int k = 0; k < prefix; k++) {
            List<Line> answer = answer(scenario, k + 1);
            Line.State state = null;
            boolean refused = false;
            Event.Lookup lookup = Lookups.lookupAt(scenario, k);
            int hitLines = 0;
            for (Line line : answer) {
                switch (line) {
                    case Line.Refused r -> refused = true;
                    case Line.NotApplicable n -> refused = true;
                    case Line.Hit hit when lookup == null || !hit.id().equals(lookup.id()) ->
                            throw located(
                                    scenario,
                                    k + 1,
                                    "printed a hit for request "
                                            + io.proofgate.words.Outside.quoted(hit.id())
                                            + (lookup == null
                                                    ? " in answer to an event that is no lookup"
                                                    : " in answer to the lookup of "
                                                            + io.proofgate.words.Outside.quoted(lookup.id())));
                    case Line.VerdictLine verdict -> {
                        if (verdict instanceof Line.Hit && ++hitLines > 1) {
                            throw located(scenario, k + 1, "printed two hits for one lookup");
                        }
                        if (state != null) {
                            throw located(scenario, k + 1, "printed a verdict after its state line");
                        }
                        if (!scenario.names(verdict.id(), k)) {
                            throw located(
                                    scenario,
                                    k + 1,
                                    "printed a verdict for request "
                                            + io.proofgate.words.Outside.quoted(verdict.id())
                                            + ", which no event of the scenario has named so far");
                        }
                        if (verdict instanceof Line.Plan plan && plan.copy() == CopyTiming.ASYNC) {
                            copying.add(plan);
                        }
                    }
                    case Line.Saved saved -> {
                        if (state != null) {
                            throw located(scenario, k + 1, "printed a saved line after its state line");
                        }
                        // a copy's end the kit cannot place on a plan would let an unpinned block pass unjudged
                        int ended =
                                java.util.stream.IntStream.range(0, copying.size())
                                        .filter(i -> copying.get(i).endsWith(saved))
                                        .findFirst()
                                        .orElse(-1);
                        if (ended >= 0) {
                            copying.remove(ended); // the oldest: one saved line ends one plan
                        } else {
                            throw located(
                                    scenario,
                                    k + 1,
                                    "printed a saved line for request "
                                            + io.proofgate.words.Outside.quoted(saved.id())
                                            + " digest "
                                            + io.proofgate.words.Outside.quoted(saved.digest())
                                            + " span "
                                            + saved.span()
                                            + ", which ends no asynchronous plan of that request, digest and span still"
                                            + " being copied");
                        }
                    }
                    case Line.State s -> {
                        if (!capabilities.contains(Capability.STATE)) {
                            throw located(
                                    scenario, k + 1, "printed a state line without declaring the state capability");
                        }
                        if (state != null) {
                            throw located(scenario, k + 1, "printed two state lines");
                        }
                        for (String id : s.pendingIds()) {
                            if (!scenario.names(id, k)) {
                                throw located(
                                        scenario,
                                        k + 1,
                                        "printed a state with a pending store of request "
                                                + io.proofgate.words.Outside.quoted(id)
                                                + ", which no event of the scenario has named so far");
                            }
                        }
                        state = s;
                    }
                    default ->
                            throw located(
                                    scenario,
                                    k + 1,
                                    "answered an event with a "
                                            + kind(line)
                                            + " line"
                                            + (line instanceof Line.Summary
                                                    ? " (an answer ends with {\"kind\":\"end\"}: was one left out?)"
                                                    : ""));
                }
            }
            if (capabilities.contains(Capability.STATE) && state == null && !refused) {
                throw located(scenario, k + 1, "declared the state capability but printed no state line");
            }
            if (lookup != null && hitLines == 0 && !refused) {
                throw located(
                        scenario,
                        k + 1,
                        "answered a lookup without a hit line (a hit of 0 tokens says it holds nothing)");
            }
            events.add(answer);
            if (lookup != null) {
                // what follows depends on the hit: sent now, up to the next lookup
                lookedUp.put(lookup.id(), lookup);
                hits.put(lookup.id(), Lookups.hitIn(lookup, answer));
                client.send(segment(scenario, k + 1, prefix, lookedUp, hits));
            }
        }
        List<Line> summaryAnswer = answer(scenario, SUMMARY_REQUEST);
        if (summaryAnswer.size() == 1
                && (summaryAnswer.getFirst() instanceof Line.Refused
                        || summaryAnswer.getFirst() instanceof Line.NotApplicable)) {
            return new Transcript(topology, events, summaryAnswer);
        }
        if (summaryAnswer.size() != 1 || !(summaryAnswer.getFirst() instanceof Line.Summary summary)) {
            throw located(scenario, SUMMARY_REQUEST, "answered the summary request without exactly one summary line");
        }
        for (String id : summary.said().pending()) {
            if (!scenario.names(id, prefix - 1)) {
                throw located(
                        scenario,
                        SUMMARY_REQUEST,
                        "printed a summary with pending request "
                                + io.proofgate.words.Outside.quoted(id)
                                + ", which no event of the scenario has named");
            }
        }
        for (String id : summary.said().latched().keySet()) {
            if (!scenario.names(id, prefix - 1)) {
                throw located(
                        scenario,
                        SUMMARY_REQUEST,
                        "printed a summary with a latch of request "
                                + io.proofgate.words.Outside.quoted(id)
                                + ", which no event of the scenario has named");
            }
        }
        return new Transcript(topology, events, summaryAnswer);
    }

    /** The first difference between what the scenario expects of its first {@code prefix} events and {@code said}. */
    public Optional<Result.Mismatch> compare(Scenario scenario, int prefix, Transcript said) {
        for (Line line : said.topology()) {
            if (line instanceof Line.Refused refused) {
                return Optional.of(
                        new Result.Mismatch(
                                0,
                                Rules.ofRefusal("the topology", refused),
                                List.of("(accepted)"),
                                List.of(refused.words(capabilities))));
            }
        }
        List<Line.VerdictLine> printed = new ArrayList<>();
        for (int k = 0; k < prefix; k++) {
            List<Line.VerdictLine> verdicts = new ArrayList<>();
            Line.State state = null;
            for (Line line : said.events().get(k)) {
                switch (line) {
                    case Line.Refused refused -> {
                        return Optional.of(
                                new Result.Mismatch(
                                        k + 1,
                                        Rules.ofRefusal("an event", refused),
                                        expectedAt(scenario, k, printed.size()),
                                        List.of(refused.words(capabilities))));
                    }
                    case Line.VerdictLine verdict -> verdicts.add(verdict);
                    case Line.Saved saved -> {} // how the workers copy: judged for safety only
                    case Line.State s -> state = s;
                    default ->
                            throw new IllegalStateException("receive lets only verdicts, states and refusals through");
                }
            }
            switch (scenario.expected()) {
                case Scenario.PerEvent perEvent -> {
                    Scenario.After after = perEvent.after().get(k);
                    if (!words(after.verdicts()).equals(words(verdicts))) {
                        return Optional.of(
                                new Result.Mismatch(
                                        k + 1,
                                        Rules.ofVerdicts(after.verdicts(), verdicts, capabilities),
                                        json(after.verdicts()),
                                        json(verdicts)));
                    }
                    if (state != null && !after.state().words(capabilities).equals(state.words(capabilities))) {
                        return Optional.of(
                                new Result.Mismatch(
                                        k + 1,
                                        Rules.ofState(after.state(), state),
                                        after.state().texts(),
                                        state.texts()));
                    }
                }
                case Scenario.BlockContents stated -> {} // judged for safety only
                case Scenario.WholeLog whole -> {
                    List<Line.VerdictLine> expected = whole.verdicts();
                    int from = printed.size();
                    printed.addAll(verdicts);
                    // only this event's verdicts are compared: those before it were, after their own
                    boolean differs = printed.size() > expected.size();
                    for (int i = from; i < printed.size() && !differs; i++) {
                        differs = !expected.get(i).words(capabilities).equals(printed.get(i).words(capabilities));
                    }
                    if (differs) {
                        List<Line.VerdictLine> wanted =
                                expected.subList(
                                        Math.min(from, expected.size()), Math.min(expected.size(), printed.size()));
                        return Optional.of(
                                new Result.Mismatch(
                                        k + 1,
                                        Rules.ofVerdicts(wanted, verdicts, capabilities),
                                        wanted.isEmpty() ? List.of("(no verdict)") : json(wanted),
                                        json(verdicts)));
                    }
                }
            }
        }
        if (said.summary().getFirst() instanceof Line.Refused refused) {
            return Optional.of(
                    new Result.Mismatch(
                            prefix + 1,
                            Rules.ofRefusal("the summary request", refused),
                            List.of("(a summary)"),
                            List.of(refused.words(capabilities))));
        }
        Line.Summary summary = (Line.Summary) said.summary().getFirst();
        if (scenario.expected() instanceof Scenario.WholeLog whole
                && prefix == scenario.events().size()
                && printed.size() < whole.verdicts().size()) {
            List<Line.VerdictLine> missing = whole.verdicts().subList(printed.size(), whole.verdicts().size());
            return Optional.of(
                    new Result.Mismatch(
                            prefix,
                            Rules.ofVerdicts(missing, List.of(), capabilities),
                            json(missing),
                            List.of("(no more verdicts by the end of the log)")));
        }
        Line.Summary expected = expectedSummary(scenario, prefix);
        if (expected != null && !expected.words(capabilities).equals(summary.words(capabilities))) {
            return Optional.of(
                    new Result.Mismatch(
                            prefix + 1,
                            Rules.ofSummary(expected, summary),
                            List.of(expected.json()),
                            List.of(summary.json())));
        }
        return Optional.empty();
    }

    /**
     * The first error line of a run, placed as {@link #compare} places it, or a summary whose count of plans is not the
     * plans the adapter printed: what an adapter of a policy of its own fails on, since the kit compares nothing else
     * of its answers.
     */
    public Optional<Result.Mismatch> refusal(Scenario scenario, int prefix, Transcript said) {
        for (int k = 0; k < said.messages(); k++) {
            for (Line line : said.answer(k)) {
                if (line instanceof Line.Refused refused) {
                    String what = k == 0 ? "the topology" : k <= prefix ? "an event" : "the summary request";
                    return Optional.of(
                            new Result.Mismatch(
                                    k,
                                    Rules.ofRefusal(what, refused),
                                    List.of("(accepted)"),
                                    List.of(refused.words(capabilities))));
                }
            }
        }
        // a verdict says the step it was decided in, which is its event's: where nothing else is compared, a plan that
        // says another step would stand in the adapter's log for a publication at a step it was not judged at
        for (int k = 1; k <= Math.min(prefix, said.events().size()); k++) {
            String step = scenario.events().get(k - 1).step();
            for (Line line : said.answer(k)) {
                if (line instanceof Line.VerdictLine verdict && !verdict.step().equals(step)) {
                    return Optional.of(
                            new Result.Mismatch(
                                    k,
                                    "verdict: step is not its event's",
                                    List.of("(a verdict of step " + step + ")"),
                                    List.of(verdict.json())));
                }
            }
        }
        // its own summary counts the plans it printed: a plan counted but not printed was never judged for safety
        if (said.summary().getFirst() instanceof Line.Summary summary) {
            long printed = said.events().stream().flatMap(List::stream).filter(Line.Plan.class::isInstance).count();
            if (!summary.said().counters().plans().equals(String.valueOf(printed))) {
                return Optional.of(
                        new Result.Mismatch(
                                prefix + 1,
                                "summary: plans counts other plans than the adapter printed",
                                List.of("(a summary counting the " + printed + " plans printed)"),
                                List.of(summary.json())));
            }
        }
        return Optional.empty();
    }

    /** The first reason the adapter gave for the scenario not applying to its connector, if it gave one. */
    public static Optional<String> notApplicable(Transcript said) {
        OptionalInt at = notApplicableAt(said);
        return at.isEmpty()
                ? Optional.empty()
                : said.answer(at.getAsInt()).stream()
                        .filter(Line.NotApplicable.class::isInstance)
                        .map(line -> ((Line.NotApplicable) line).reason())
                        .findFirst();
    }

    /** The first message the adapter answered with a not_applicable line, if any. */
    public static OptionalInt notApplicableAt(Transcript said) {
        for (int k = 0; k < said.messages(); k++) {
            if (said.answer(k).stream().anyMatch(Line.NotApplicable.class::isInstance)) {
                return OptionalInt.of(k);
            }
        }
        return OptionalInt.empty();
    }

    /** The summary expected after the scenario's first {@code prefix} events, or null where it is not known. */
    public static Line.Summary expectedSummary(Scenario scenario, int prefix) {
        return switch (scenario.expected()) {
            case Scenario.PerEvent perEvent -> prefix == 0 ? null : perEvent.after().get(prefix - 1).summary();
            // a hand-written log's summary is known only at its end
            case Scenario.WholeLog whole -> prefix < scenario.events().size() ? null : whole.summary();
            case Scenario.BlockContents stated -> null;
        };
    }

    /** The expected verdicts at event {@code k} (0-based), for the report of a refusal. */
    private static List<String> expectedAt(Scenario scenario, int k, int printedSoFar) {
        return switch (scenario.expected()) {
            case Scenario.PerEvent perEvent ->
                    perEvent.after().get(k).verdicts().isEmpty()
                            ? List.of("(no verdict)")
                            : json(perEvent.after().get(k).verdicts());
            case Scenario.WholeLog whole ->
                    printedSoFar < whole.verdicts().size()
                            ? List.of(whole.verdicts().get(printedSoFar).json())
                            : List.of("(no verdict)");
            case Scenario.BlockContents stated -> List.of("(any verdict: judged for safety only)");
        };
    }

    /** The message number of the summary request in {@link #located}. */
    private static final int SUMMARY_REQUEST = -1;

    /** The answer to the message sent for {@code event} (0 the topology). */
    private List<Line> answer(Scenario scenario, int event) throws AdapterException {
        try {
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

    private static List<String> json(List<Line.VerdictLine> verdicts) {
        return verdicts.isEmpty() ? List.of("(no verdict)") : verdicts.stream().map(Line.VerdictLine::json).toList();
    }

    private static String kind(Line line) {
        return switch (line) {
            case Line.Plan p -> "plan";
            case Line.Saved s -> "saved";
            case Line.Rejected r -> "rejected";
            case Line.Retired r -> "retired";
            case Line.Hit h -> "hit";
            case Line.Load l -> "load";
            case Line.State s -> "state";
            case Line.Summary s -> "summary";
            case Line.Refused r -> "error";
            case Line.NotApplicable n -> "not_applicable";
            case Line.End e -> "end";
            case Line.Hello h -> "hello";
            case Line.Namespace n -> "namespace";
        };
    }
}
