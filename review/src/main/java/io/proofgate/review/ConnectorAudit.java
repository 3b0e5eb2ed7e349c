package io.proofgate.review;

import io.proofgate.conform.Adapter;
import io.proofgate.conform.AdapterClient;
import io.proofgate.conform.AdapterException;
import io.proofgate.conform.Conform;
import io.proofgate.conform.ConformException;
import io.proofgate.conform.Line;
import io.proofgate.conform.Scenario;
import io.proofgate.conform.ScenarioRun;
import io.proofgate.conform.Shrinker;
import io.proofgate.conform.Transcript;
import io.proofgate.words.Capability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Runs every scenario through two revisions of a connector, each behind its own adapter, and compares their answers
 * ({@link Classifier}). Each of {@code jobs} workers holds one adapter of each revision and sends a scenario's messages
 * to both before it reads either answer, so the two revisions work at the same time. A revision that breaks the
 * protocol makes its scenario an error; the worker starts fresh adapters and goes on, and after {@code maxErrors}
 * errors the run stops (every scenario not reached is then an error too: a stopped audit is never a clean one).
 */
public final class ConnectorAudit {

    public record Settings(int jobs, Duration patience, int maxErrors) {}

    /**
     * The run: both hellos, one outcome per scenario in scenario order, and the number of errors after which it stopped
     * (0 when it ran to the end).
     */
    public record Run(Line.Hello base, Line.Hello head, List<Outcome> outcomes, int stoppedAfter, double seconds) {
        public long count(Class<? extends Outcome> kind) {
            return outcomes.stream().filter(kind::isInstance).count();
        }
    }

    private ConnectorAudit() {}

    public static Run run(
            List<Scenario> scenarios,
            Conform.Adapters base,
            Conform.Adapters head,
            Settings settings,
            Conform.Progress progress)
            throws ConformException {
        return run(() -> scenarios, base, head, settings, progress, (b, h) -> {});
    }

    /**
     * As {@link #run(List, Conform.Adapters, Conform.Adapters, Settings, Conform.Progress)}; {@code hellos} gets both
     * revisions' hellos as soon as their first adapters answered, before any scenario. The scenarios are asked for once
     * both adapters have said hello: an adapter's interpreter starts while they are still being read.
     */
    public static Run run(
            ConnectorChange.Scenarios read,
            Conform.Adapters base,
            Conform.Adapters head,
            Settings settings,
            Conform.Progress progress,
            java.util.function.BiConsumer<Line.Hello, Line.Hello> hellos)
            throws ConformException {
        long start = System.nanoTime();
        // both processes start before either says hello: their interpreters load side by side
        // (a failed hello closes its own adapter, so each failure closes only the others)
        Adapter baseProcess = start(base, "base");
        Adapter headProcess;
        try {
            headProcess = start(head, "head");
        } catch (ConformException e) {
            baseProcess.close();
            throw e;
        }
        AdapterClient firstBase;
        try {
            firstBase = sayHello(baseProcess, "base", settings);
        } catch (ConformException e) {
            headProcess.close();
            throw e;
        }
        AdapterClient firstHead;
        try {
            firstHead = sayHello(headProcess, "head", settings);
        } catch (ConformException e) {
            firstBase.close();
            throw e;
        }
        Line.Hello baseHello = firstBase.hello();
        Line.Hello headHello = firstHead.hello();
        hellos.accept(baseHello, headHello);
        List<Scenario> scenarios;
        try {
            scenarios = read.get();
        } catch (ConformException | RuntimeException | Error e) {
            firstBase.close();
            firstHead.close();
            throw e;
        }
        Classifier classifier = new Classifier(baseHello.capabilities(), headHello.capabilities());
        AtomicReferenceArray<Outcome> outcomes = new AtomicReferenceArray<>(scenarios.size());
        List<Integer> runnable = new ArrayList<>();
        for (int i = 0; i < scenarios.size(); i++) {
            Set<Capability> missing = scenarios.get(i).missing(classifier.common());
            if (missing.isEmpty()) {
                runnable.add(i);
            } else {
                outcomes.set(i, new Outcome.NotRun(scenarios.get(i), missing));
            }
        }
        Shared shared =
                new Shared(
                        scenarios,
                        runnable,
                        base,
                        head,
                        baseHello,
                        headHello,
                        settings,
                        classifier,
                        outcomes,
                        progress,
                        start);
        int jobs = Math.max(1, Math.min(settings.jobs(), runnable.size()));
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < jobs; w++) {
            Worker worker = new Worker(shared, w == 0 ? new Pair(firstBase, firstHead) : null);
            workers.add(Thread.ofPlatform().name("proofgate-audit-" + w).start(worker::run));
        }
        for (Thread worker : workers) {
            try {
                worker.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ConformException("interrupted");
            }
        }
        if (shared.outOfMemory().get() != null) {
            throw shared.outOfMemory().get();
        }
        int errors = shared.errors().get();
        List<Outcome> ordered = new ArrayList<>();
        for (int i = 0; i < scenarios.size(); i++) {
            ordered.add(
                    outcomes.get(i) != null
                            ? outcomes.get(i)
                            : new Outcome.Errored(
                                    scenarios.get(i),
                                    "run",
                                    "scenario "
                                            + scenarios.get(i).id()
                                            + ": not run, the audit stopped after "
                                            + errors
                                            + " adapter errors"));
        }
        return new Run(
                baseHello,
                headHello,
                List.copyOf(ordered),
                shared.stop().get() ? errors : 0,
                (System.nanoTime() - start) / 1e9);
    }

    /** What the workers share: the scenarios to run, where the outcomes go, and the run's counts. */
    private record Shared(
            List<Scenario> scenarios,
            List<Integer> runnable,
            Conform.Adapters base,
            Conform.Adapters head,
            Line.Hello baseHello,
            Line.Hello headHello,
            Settings settings,
            Classifier classifier,
            AtomicReferenceArray<Outcome> outcomes,
            Conform.Progress progress,
            long start,
            AtomicInteger next,
            AtomicInteger errors,
            AtomicInteger done,
            AtomicBoolean stop,
            java.util.concurrent.atomic.AtomicReference<OutOfMemoryError> outOfMemory) {
        Shared(
                List<Scenario> scenarios,
                List<Integer> runnable,
                Conform.Adapters base,
                Conform.Adapters head,
                Line.Hello baseHello,
                Line.Hello headHello,
                Settings settings,
                Classifier classifier,
                AtomicReferenceArray<Outcome> outcomes,
                Conform.Progress progress,
                long start) {
            this(
                    scenarios,
                    runnable,
                    base,
                    head,
                    baseHello,
                    headHello,
                    settings,
                    classifier,
                    outcomes,
                    progress,
                    start,
                    new AtomicInteger(),
                    new AtomicInteger(),
                    new AtomicInteger(),
                    new AtomicBoolean(),
                    new java.util.concurrent.atomic.AtomicReference<>());
        }

        /** The next scenario's index, or -1 when none is left or the run stopped. */
        int take() {
            if (stop.get()) {
                return -1;
            }
            int position = next.getAndIncrement();
            return position < runnable.size() ? runnable.get(position) : -1;
        }

        void compared(int index, Transcript[] both) {
            Scenario scenario = scenarios.get(index);
            outcomes.set(
                    index,
                    new Outcome.Compared(
                            scenario, classifier.compare(scenario, scenario.events().size(), both[0], both[1])));
            finished();
        }

        void errored(int index, String side, String message) {
            erroredInstead(index, side, message);
            finished();
        }

        /**
         * An error for {@code index}, not counted as one more scenario done: in place of a comparison already recorded.
         */
        void erroredInstead(int index, String side, String message) {
            outcomes.set(index, new Outcome.Errored(scenarios.get(index), side, message));
            if (errors.incrementAndGet() >= settings.maxErrors()) {
                stop.set(true);
            }
        }

        private void finished() {
            int count = done.incrementAndGet();
            if (count % 2000 == 0) {
                progress.line(
                        String.format(
                                "%,d of %,d scenarios through both revisions, %.1f s",
                                count, runnable.size(), (System.nanoTime() - start) / 1e9));
            }
        }
    }

    /**
     * One worker: a pair of adapters, one of each revision. The next scenario is sent ahead of reading the answers to
     * the one before it, so both revisions' adapters work on it while this thread reads and compares. When a pair
     * breaks with a scenario sent ahead, the answers of both are lost with it: each is then run again alone on a fresh
     * pair, so that an error is charged to the scenario that caused it, never to the one before it; and when neither
     * fails again, the first is charged with the break all the same (an adapter that fails now and then never makes a
     * clean audit).
     */
    private static final class Worker {
        private final Shared shared;
        private final java.util.ArrayDeque<Again> again = new java.util.ArrayDeque<>();
        private Pair pair;

        /** Sent, its answers not read yet; or -1. */
        private int pending = -1;

        /** Taken, not sent yet; or -1. */
        private int current = -1;

        /** The last scenario the open pair answered whole; or -1. */
        private int answered = -1;

        /** Two scenarios whose answers a broken pair lost, {@code second} sent ahead, and how it broke. */
        private record Again(int first, int second, Failure failure) {}

        private record Failure(String side, String message) {}

        Worker(Shared shared, Pair first) {
            this.shared = shared;
            this.pair = first;
        }

        void run() {
            try {
                loop();
                finish();
            } catch (RuntimeException | Error e) {
                // the worker cannot go on: what it held is charged with the cause, and the run stops
                // (what no worker reached is then "not run", as after too many errors); out of
                // memory, the whole run cannot be judged at this heap, in the command's words
                shared.stop.set(true);
                if (e instanceof OutOfMemoryError oom) {
                    shared.outOfMemory.compareAndSet(null, oom);
                    return;
                }
                List<Integer> held = new ArrayList<>(List.of(pending, current));
                again.forEach(a -> held.addAll(List.of(a.first(), a.second())));
                for (int index : held) {
                    if (index >= 0 && shared.outcomes.get(index) == null) {
                        shared.errored(
                                index,
                                "run",
                                "scenario " + shared.scenarios.get(index).id() + ": could not be judged: " + e);
                    }
                }
            } finally {
                closed(pair);
            }
        }

        private void loop() {
            while (true) {
                if (!again.isEmpty()) {
                    runAgain(again.peek());
                    again.poll();
                    continue;
                }
                current = shared.take();
                if (current < 0 && pending < 0) {
                    return;
                }
                // nothing may follow a scenario sent in parts to the adapters before its last answer
                if (pending >= 0 && !ScenarioRun.sentAtOnce(shared.scenarios.get(pending))) {
                    Failure failure = receive(pending);
                    if (failure != null) {
                        shared.errored(pending, failure.side(), failure.message());
                    }
                    pending = -1;
                }
                if (current >= 0) {
                    if (!opened(current)) {
                        current = -1;
                        continue;
                    }
                    send(current);
                }
                Failure failure = pending >= 0 ? receive(pending) : null;
                if (failure != null && current >= 0) {
                    again.add(new Again(pending, current, failure)); // the pair broke with this one sent ahead
                    current = -1;
                } else if (failure != null) {
                    shared.errored(pending, failure.side(), failure.message());
                }
                pending = current;
                current = -1;
            }
        }

        /**
         * Ends the open pair as conform ends its adapters: anything either printed after its last answer is output
         * nothing compared, so the last scenario it answered is an error instead.
         */
        private void finish() {
            if (pair == null || answered < 0) {
                return;
            }
            String base = pair.base().finish();
            String head = pair.head().finish();
            pair = null;
            String id = shared.scenarios.get(answered).id();
            if (base != null) {
                shared.erroredInstead(answered, "base", "scenario " + id + ": the base revision's adapter " + base);
            }
            if (head != null) {
                shared.erroredInstead(answered, "head", "scenario " + id + ": the head revision's adapter " + head);
            }
        }

        private void runAgain(Again lost) {
            if (shared.stop.get()) {
                return; // both left for "not run"
            }
            int passed = 0;
            for (int index : new int[] {lost.first(), lost.second()}) {
                if (!opened(index)) {
                    continue; // charged by opened()
                }
                send(index);
                Failure failure = receive(index);
                if (failure == null) {
                    passed++;
                } else {
                    shared.errored(index, failure.side(), failure.message());
                }
            }
            if (passed == 2) {
                shared.erroredInstead(
                        lost.first(),
                        lost.failure().side(),
                        lost.failure().message()
                                + " (run again alone, it and the scenario sent after it passed: the adapter fails now"
                                + " and then)");
            }
        }

        private void send(int index) {
            Scenario scenario = shared.scenarios.get(index);
            pair.send(scenario, scenario.events().size());
        }

        /**
         * Reads and compares the answers to scenario {@code index}; the failure when the pair broke on it (then
         * closed), else null.
         */
        private Failure receive(int index) {
            Scenario scenario = shared.scenarios.get(index);
            Failure failure;
            try {
                shared.compared(index, pair.receive(scenario, scenario.events().size()));
                answered = index;
                return null;
            } catch (SideException e) {
                failure = new Failure(e.side, e.getMessage()); // it names its scenario and event itself
            } catch (RuntimeException e) {
                failure = new Failure("base", "scenario " + scenario.id() + ": could not be judged: " + e);
            }
            pair = closed(pair);
            answered = -1;
            return failure;
        }

        /**
         * Whether a pair is open, starting one if needed; false when it could not be (the scenario is then an error).
         */
        private boolean opened(int index) {
            if (pair != null) {
                return true;
            }
            String side = "base";
            try {
                AdapterClient base = reopen(shared.base, shared.baseHello, shared.settings);
                side = "head";
                try {
                    pair = new Pair(base, reopen(shared.head, shared.headHello, shared.settings));
                } catch (AdapterException | RuntimeException e) {
                    base.close();
                    throw e;
                }
                return true;
            } catch (AdapterException | RuntimeException e) {
                shared.errored(
                        index,
                        side,
                        "scenario "
                                + shared.scenarios.get(index).id()
                                + ": the adapter "
                                + (e instanceof AdapterException ? e.getMessage() : "could not be started: " + e));
                return false;
            }
        }
    }

    /** A class's witness: the scenario's first {@code events} events, and the difference they show. */
    public record Witness(int events, Comparison.Differs differs) {}

    /**
     * Reruns a scenario's prefixes, shortest first, up to {@code upTo} events, and returns the first whose comparison
     * falls in {@code found}'s class: the witness of a class is shrunk as conform shrinks a failure. A prefix is judged
     * against the whole scenario's expectations, so a hand-written log's summary is expected only at its end.
     */
    public static Witness shrink(
            Scenario scenario,
            int upTo,
            Comparison.Differs found,
            Conform.Adapters base,
            Conform.Adapters head,
            Settings settings)
            throws ConformException {
        AdapterClient a = open(base, "base", settings);
        try (a;
                AdapterClient b = open(head, "head", settings)) {
            Pair pair = new Pair(a, b);
            Classifier classifier = new Classifier(a.capabilities(), b.capabilities());
            return Shrinker.shortest(
                            1,
                            upTo,
                            prefix -> {
                                Transcript[] both = pair.record(scenario, prefix);
                                return classifier.compare(scenario, prefix, both[0], both[1])
                                                        instanceof Comparison.Differs d
                                                && d.classKey().equals(found.classKey())
                                        ? Optional.of(d)
                                        : Optional.<Comparison.Differs>empty();
                            })
                    .map(shrunk -> new Witness(shrunk.events(), shrunk.shown()))
                    .orElse(new Witness(scenario.events().size(), found));
        } catch (SideException e) {
            throw new ConformException("shrinking the witness of " + scenario.id() + ": " + e.getMessage());
        }
    }

    /** One adapter of each revision. */
    private record Pair(AdapterClient base, AdapterClient head) {
        /** Both transcripts: the messages go to both before either answer is read. */
        Transcript[] record(Scenario scenario, int prefix) throws SideException {
            send(scenario, prefix);
            return receive(scenario, prefix);
        }

        void send(Scenario scenario, int prefix) {
            new ScenarioRun(base).send(scenario, prefix);
            new ScenarioRun(head).send(scenario, prefix);
        }

        /** The answers to what {@link #send} sent, base first. */
        Transcript[] receive(Scenario scenario, int prefix) throws SideException {
            Transcript a;
            try {
                a = new ScenarioRun(base).receive(scenario, prefix);
            } catch (AdapterException e) {
                throw new SideException("base", e);
            }
            try {
                return new Transcript[] {a, new ScenarioRun(head).receive(scenario, prefix)};
            } catch (AdapterException e) {
                throw new SideException("head", e);
            }
        }
    }

    /** A protocol error of one revision's adapter. */
    private static final class SideException extends Exception {
        final String side;

        SideException(String side, AdapterException cause) {
            super("the " + side + " revision's adapter: " + cause.getMessage(), cause);
            this.side = side;
        }
    }

    private static Pair closed(Pair pair) {
        if (pair != null) {
            if (pair.base() != null) {
                pair.base().close();
            }
            if (pair.head() != null) {
                pair.head().close();
            }
        }
        return null;
    }

    private static AdapterClient open(Conform.Adapters adapters, String side, Settings settings)
            throws ConformException {
        return sayHello(start(adapters, side), side, settings);
    }

    private static Adapter start(Conform.Adapters adapters, String side) throws ConformException {
        try {
            return adapters.start();
        } catch (AdapterException e) {
            throw new ConformException("the " + side + " revision's adapter " + e.getMessage());
        }
    }

    /** The hello; a failed one closes the adapter ({@link AdapterClient#open}). */
    private static AdapterClient sayHello(Adapter adapter, String side, Settings settings) throws ConformException {
        try {
            return AdapterClient.open(adapter, settings.patience());
        } catch (AdapterException e) {
            throw new ConformException("the " + side + " revision's adapter " + e.getMessage());
        }
    }

    private static AdapterClient reopen(Conform.Adapters adapters, Line.Hello first, Settings settings)
            throws AdapterException {
        AdapterClient client = AdapterClient.open(adapters.start(), settings.patience());
        if (!client.hello().equals(first)) {
            client.close();
            throw new AdapterException("said a different hello than the first adapter of its revision");
        }
        return client;
    }
}
