package io.proofgate.conform;

import io.proofgate.words.Capability;
import io.proofgate.words.ConnectorPolicy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * {@code proofgate conform}: the scenarios against an implementation. Each of {@code jobs} workers holds one adapter
 * (started once, not once per scenario: a JVM adapter takes about half a second to start, a scenario a fraction of a
 * millisecond) and takes scenarios in order; a topology line gives the adapter a fresh connector. A failing scenario is
 * shrunk to its shortest failing prefix. An adapter that breaks the protocol is an error of that scenario: the worker
 * starts a fresh adapter and goes on, and after {@code maxErrors} errors the run stops. Results come out in scenario
 * order whatever the jobs.
 */
public final class Conform {

    /** Starts one adapter process (or the in-process validator). */
    @FunctionalInterface
    public interface Adapters {
        Adapter start() throws AdapterException;
    }

    /** Lines on stderr while a long run goes. */
    @FunctionalInterface
    public interface Progress {
        void line(String text);
    }

    /**
     * How long one answer may take unless asked otherwise. It tells a hung adapter from a slow one, and nothing else:
     * no verdict depends on it, so it is far above what an answer takes on a loaded machine (a Python adapter that
     * imports a large framework at its hello included).
     */
    public static final Duration DEFAULT_PATIENCE = Duration.ofSeconds(60);

    /**
     * @param limits how much one answer may hold before its end marker
     */
    public record Settings(int jobs, Duration patience, boolean shrink, int maxErrors, AnswerLimits limits) {
        public Settings(int jobs, Duration patience, boolean shrink, int maxErrors) {
            this(jobs, patience, shrink, maxErrors, AnswerLimits.DEFAULT);
        }
    }

    /** A whole run: the hello, the results in scenario order, the times. */
    /**
     * @param late what adapters printed after their last answer (each an error of the run)
     * @param stoppedAfter the adapter errors after which the run stopped ({@code --max-errors}), or 0 when it ran to
     *     the end; the scenarios it did not reach are errors too
     * @param waitedSeconds the time spent waiting for answers, summed over the jobs
     * @param shrunk whether failing scenarios were shrunk ({@link Settings#shrink})
     */
    public record Report(
            Line.Hello hello,
            List<Result> results,
            List<String> late,
            double seconds,
            double waitedSeconds,
            long answers,
            int jobs,
            int stoppedAfter,
            boolean shrunk) {
        public long count(Class<? extends Result> kind) {
            return results.stream().filter(kind::isInstance).count();
        }

        /**
         * Why no scenario was judged (none passed, failed or erred: each needed a capability the adapter does not
         * declare, or it answered not_applicable), or empty where one was: a run that judged nothing is never a pass.
         */
        public Optional<String> nothingRan() {
            if (results.stream()
                    .anyMatch(
                            r ->
                                    r instanceof Result.Passed
                                            || r instanceof Result.Failed
                                            || r instanceof Result.Unsafe
                                            || r instanceof Result.Errored)) {
                return Optional.empty();
            }
            return Optional.of(
                    "no scenario ran ("
                            + (count(Result.NotApplicable.class) == 0
                                    ? "every one needs a capability the adapter does not declare"
                                    : count(Result.NotRun.class) == 0
                                            ? "the adapter answered not_applicable to every one"
                                            : "every one needs a capability the adapter does not declare, or the"
                                                    + " adapter answered not_applicable to it")
                            + ")");
        }
    }

    private Conform() {}

    public static Report run(List<Scenario> scenarios, Adapters adapters, Settings settings, Progress progress)
            throws ConformException {
        long start = System.nanoTime();
        AdapterClient first;
        try {
            first = AdapterClient.open(adapters.start(), settings.patience(), settings.limits());
        } catch (AdapterException e) {
            throw new ConformException("the adapter " + e.getMessage());
        }
        Line.Hello hello = first.hello();
        AtomicReferenceArray<Result> results = new AtomicReferenceArray<>(scenarios.size());
        List<Integer> runnable = new ArrayList<>();
        for (int i = 0; i < scenarios.size(); i++) {
            Set<Capability> missing = scenarios.get(i).missing(hello.capabilities());
            if (missing.isEmpty()) {
                runnable.add(i);
            } else {
                results.set(i, new Result.NotRun(scenarios.get(i), missing, 0));
            }
        }
        AtomicInteger next = new AtomicInteger();
        AtomicInteger errors = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        java.util.concurrent.atomic.AtomicReference<OutOfMemoryError> outOfMemory =
                new java.util.concurrent.atomic.AtomicReference<>();
        AtomicLong waited = new AtomicLong();
        AtomicLong answers = new AtomicLong();
        List<String> late = java.util.Collections.synchronizedList(new ArrayList<>());
        int jobs = Math.max(1, Math.min(settings.jobs(), runnable.size()));
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < jobs; w++) {
            AdapterClient own = w == 0 ? first : null;
            workers.add(
                    Thread.ofPlatform()
                            .name("proofgate-conform-" + w)
                            .start(
                                    () -> {
                                        AdapterClient client = own;
                                        try {
                                            while (!stop.get()) {
                                                int position = next.getAndIncrement();
                                                if (position >= runnable.size()) {
                                                    break;
                                                }
                                                int index = runnable.get(position);
                                                Scenario scenario = scenarios.get(index);
                                                long began = System.nanoTime();
                                                try {
                                                    if (client == null) {
                                                        client =
                                                                AdapterClient.open(
                                                                        adapters.start(),
                                                                        settings.patience(),
                                                                        settings.limits());
                                                        if (!client.hello().equals(hello)) {
                                                            throw new AdapterException(
                                                                    "said a different hello than the first adapter of"
                                                                            + " the run ("
                                                                            + describe(client.hello())
                                                                            + " after "
                                                                            + describe(hello)
                                                                            + ")");
                                                        }
                                                    }
                                                    results.set(
                                                            index,
                                                            judge(
                                                                    client,
                                                                    scenario,
                                                                    settings.shrink(),
                                                                    hello.policy(),
                                                                    began));
                                                } catch (OutOfMemoryError e) {
                                                    // the run cannot be judged at this heap: the whole run stops, in
                                                    // the command's words
                                                    outOfMemory.compareAndSet(null, e);
                                                    stop.set(true);
                                                    break;
                                                } catch (AdapterException | RuntimeException | Error e) {
                                                    // anything, an error of the kit's own included: a scenario is
                                                    // judged, or it is an error
                                                    String problem =
                                                            e instanceof AdapterException
                                                                    ? e.getMessage()
                                                                    : "could not be judged: "
                                                                            + e.getClass().getSimpleName()
                                                                            + (e.getMessage() == null
                                                                                    ? ""
                                                                                    : ": " + e.getMessage());
                                                    String message =
                                                            problem.startsWith("scenario ")
                                                                    ? problem
                                                                    : "scenario "
                                                                            + scenario.id()
                                                                            + ": "
                                                                            + (e instanceof AdapterException
                                                                                    ? "the adapter "
                                                                                    : "")
                                                                            + problem;
                                                    results.set(
                                                            index,
                                                            new Result.Errored(scenario, message, seconds(began)));
                                                    if (client != null) {
                                                        waited.addAndGet(client.waitedNanos());
                                                        answers.addAndGet(client.answers());
                                                        client.close();
                                                        client = null;
                                                    }
                                                    if (errors.incrementAndGet() >= settings.maxErrors()) {
                                                        stop.set(true);
                                                    }
                                                }
                                                int finished = done.incrementAndGet();
                                                if (finished % 2000 == 0) {
                                                    progress.line(
                                                            String.format(
                                                                    "%,d of %,d scenarios, %.1f s",
                                                                    finished, runnable.size(), seconds(start)));
                                                }
                                            }
                                        } finally {
                                            if (client != null) {
                                                waited.addAndGet(client.waitedNanos());
                                                answers.addAndGet(client.answers());
                                                String after = client.finish();
                                                if (after != null) {
                                                    late.add("the adapter " + after);
                                                }
                                            }
                                        }
                                    }));
        }
        for (Thread worker : workers) {
            try {
                worker.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ConformException("interrupted");
            }
        }
        if (outOfMemory.get() != null) {
            throw outOfMemory.get();
        }
        List<Result> ordered = new ArrayList<>();
        for (int i = 0; i < scenarios.size(); i++) {
            // a scenario no worker judged (the run stopped) is in the report as such, never left out
            ordered.add(
                    results.get(i) != null
                            ? results.get(i)
                            : new Result.Errored(
                                    scenarios.get(i),
                                    "scenario "
                                            + scenarios.get(i).id()
                                            + ": not run, the run stopped after "
                                            + errors.get()
                                            + " adapter errors",
                                    0));
        }
        return new Report(
                hello,
                List.copyOf(ordered),
                List.copyOf(late),
                seconds(start),
                waited.get() / 1e9,
                answers.get(),
                jobs,
                stop.get() ? errors.get() : 0,
                settings.shrink());
    }

    private static String describe(Line.Hello hello) {
        return Json.excerpt(hello.implementation())
                + " with "
                + hello.capabilities().stream().map(Capability::wireName).toList();
    }

    /**
     * Safety first, for every adapter: the first unsafe plan fails the scenario, its witness the prefix up to the event
     * it answers (run again to see that it is unsafe there too), even where the adapter then says the scenario does not
     * apply to its connector. Then the answers are compared with the policy the adapter declared, where the kit models
     * it; an adapter of its own policy passes on safety alone, its missed publications noted.
     */
    private static Result judge(
            AdapterClient client, Scenario scenario, boolean shrink, ConnectorPolicy policy, long began)
            throws AdapterException {
        ScenarioRun run = new ScenarioRun(client);
        int events = scenario.events().size();
        Transcript said = run.record(scenario, events);
        // before a not_applicable is heard: a plan printed before it, or beside it, was published all the same
        Optional<PlanSafety.Unsafe> unsafe = PlanSafety.firstUnsafe(scenario, said);
        if (unsafe.isPresent()) {
            PlanSafety.Unsafe witness = unsafe.get();
            Transcript shortest = said;
            if (shrink && witness.event() < events) {
                shortest = run.record(scenario, witness.event());
                witness = PlanSafety.firstUnsafe(scenario, shortest).orElse(witness);
            }
            return new Result.Unsafe(
                    scenario,
                    witness.event(),
                    Lookups.sent(scenario, witness.event(), shortest),
                    witness.plan(),
                    witness.findings(),
                    seconds(began));
        }
        Optional<String> notApplicable = ScenarioRun.notApplicable(said);
        if (notApplicable.isPresent()) {
            return new Result.NotApplicable(scenario, notApplicable.get(), seconds(began));
        }
        Optional<Result.Mismatch> mismatch;
        Shrinker.Attempt<Result.Mismatch, AdapterException> again;
        if (policy == ConnectorPolicy.OWN || scenario.expected() instanceof Scenario.BlockContents) {
            // nothing is compared but the refusals: an error line is never a pass (a scenario of
            // vLLM's block contents states no verdicts to compare, whatever the policy)
            mismatch = run.refusal(scenario, events, said);
            if (mismatch.isEmpty()) {
                return new Result.Passed(
                        scenario,
                        PlanSafety.missed(scenario, said),
                        PlanSafety.missedHits(scenario, said),
                        seconds(began));
            }
            again = prefix -> run.refusal(scenario, prefix, run.record(scenario, prefix));
        } else {
            mismatch = run.compare(scenario, events, said);
            again = prefix -> run.run(scenario, prefix);
        }
        if (mismatch.isEmpty()) {
            return new Result.Passed(scenario, seconds(began));
        }
        Result.Mismatch full = mismatch.get();
        Shrinker.Shrunk<Result.Mismatch> shortest = new Shrinker.Shrunk<>(events, full);
        if (shrink) {
            int upTo = Math.min(events, Math.max(1, full.event()));
            // a whole log's expectations (its summary) are met only at its end, so only its prefix up to the difference
            // is tried
            int from = scenario.expected() instanceof Scenario.WholeLog ? upTo : 1;
            shortest = Shrinker.shortest(from, Math.min(upTo, events - 1), again).orElse(shortest);
        }
        return new Result.Failed(scenario, full, shortest.events(), shortest.shown(), seconds(began));
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
