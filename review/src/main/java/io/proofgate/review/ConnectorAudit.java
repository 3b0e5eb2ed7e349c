package io.proofgate.review;

import io.proofgate.adapter.Capability;
import io.proofgate.conform.AdapterClient;
import io.proofgate.conform.AdapterException;
import io.proofgate.conform.Conform;
import io.proofgate.conform.ConformException;
import io.proofgate.conform.Line;
import io.proofgate.conform.Scenario;
import io.proofgate.conform.ScenarioRun;
import io.proofgate.conform.Transcript;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Runs every scenario through two revisions of a connector, each behind its own adapter, and
 * compares their answers ({@link Classifier}). Each of {@code jobs} workers holds one adapter of
 * each revision and sends a scenario's messages to both before it reads either answer, so the two
 * revisions work at the same time. A revision that breaks the protocol makes its scenario an
 * error; the worker starts fresh adapters and goes on, and after {@code maxErrors} errors the run
 * stops (every scenario not reached is then an error too: a stopped audit is never a clean one).
 */
public final class ConnectorAudit {

    public record Settings(int jobs, Duration patience, int maxErrors) {}

    /**
     * The run: both greetings, one outcome per scenario in scenario order, and the number of
     * errors after which it stopped (0 when it ran to the end).
     */
    public record Run(Line.Hello base, Line.Hello head, List<Outcome> outcomes, int stoppedAfter, double seconds) {
        public long count(Class<? extends Outcome> kind) {
            return outcomes.stream().filter(kind::isInstance).count();
        }
    }

    private ConnectorAudit() {}

    public static Run run(List<Scenario> scenarios, Conform.Adapters base, Conform.Adapters head, Settings settings,
                          Conform.Progress progress) throws ConformException {
        return run(scenarios, base, head, settings, progress, (b, h) -> { });
    }

    /**
     * As {@link #run(List, Conform.Adapters, Conform.Adapters, Settings, Conform.Progress)}; {@code greeted}
     * gets both revisions' greetings as soon as their first adapters answered, before any scenario.
     */
    public static Run run(List<Scenario> scenarios, Conform.Adapters base, Conform.Adapters head, Settings settings,
                          Conform.Progress progress, java.util.function.BiConsumer<Line.Hello, Line.Hello> greeted)
            throws ConformException {
        long start = System.nanoTime();
        AdapterClient firstBase = open(base, "base", settings);
        AdapterClient firstHead;
        try {
            firstHead = open(head, "head", settings);
        } catch (ConformException e) {
            firstBase.close();
            throw e;
        }
        Line.Hello baseHello = firstBase.hello();
        Line.Hello headHello = firstHead.hello();
        greeted.accept(baseHello, headHello);
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
        AtomicInteger next = new AtomicInteger();
        AtomicInteger errors = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        int jobs = Math.max(1, Math.min(settings.jobs(), runnable.size()));
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < jobs; w++) {
            Pair own = w == 0 ? new Pair(firstBase, firstHead) : null;
            workers.add(Thread.ofPlatform().name("proofgate-audit-" + w).start(() -> {
                Pair pair = own;
                try {
                    while (!stop.get()) {
                        int position = next.getAndIncrement();
                        if (position >= runnable.size()) {
                            break;
                        }
                        int index = runnable.get(position);
                        Scenario scenario = scenarios.get(index);
                        String side = "base";
                        try {
                            if (pair == null) {
                                pair = new Pair(reopen(base, baseHello, settings), null);
                                side = "head";
                                pair = new Pair(pair.base(), reopen(head, headHello, settings));
                            }
                            Transcript[] both = pair.record(scenario, scenario.events().size());
                            outcomes.set(index, new Outcome.Compared(scenario,
                                    classifier.compare(scenario, scenario.events().size(), both[0], both[1])));
                        } catch (SideException e) {
                            outcomes.set(index, new Outcome.Errored(scenario, e.side, e.getMessage()));
                            pair = closed(pair);
                            if (errors.incrementAndGet() >= settings.maxErrors()) {
                                stop.set(true);
                            }
                        } catch (AdapterException | RuntimeException e) {
                            String message = e instanceof AdapterException ? "the adapter " + e.getMessage()
                                    : "could not be judged: " + e;
                            outcomes.set(index, new Outcome.Errored(scenario, side, "scenario " + scenario.id() + ": " + message));
                            pair = closed(pair);
                            if (errors.incrementAndGet() >= settings.maxErrors()) {
                                stop.set(true);
                            }
                        }
                        int finished = done.incrementAndGet();
                        if (finished % 2000 == 0) {
                            progress.line(String.format("%,d of %,d scenarios through both revisions, %.1f s", finished,
                                    runnable.size(), (System.nanoTime() - start) / 1e9));
                        }
                    }
                } finally {
                    closed(pair);
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
        List<Outcome> ordered = new ArrayList<>();
        for (int i = 0; i < scenarios.size(); i++) {
            ordered.add(outcomes.get(i) != null ? outcomes.get(i) : new Outcome.Errored(scenarios.get(i), "run",
                    "scenario " + scenarios.get(i).id() + ": not run, the audit stopped after " + errors.get() + " adapter errors"));
        }
        return new Run(baseHello, headHello, List.copyOf(ordered), stop.get() ? errors.get() : 0,
                (System.nanoTime() - start) / 1e9);
    }

    /** A class's witness: the scenario's first {@code events} events, and the difference they show. */
    public record Witness(int events, Comparison.Differs differs) {}

    /**
     * Reruns a scenario's prefixes, shortest first, up to {@code upTo} events, and returns the
     * first whose comparison falls in {@code found}'s class: the witness of a class is shrunk as
     * conform shrinks a failure. A prefix is judged against the whole scenario's expectations, so
     * a hand-written log's summary is expected only at its end.
     */
    public static Witness shrink(Scenario scenario, int upTo, Comparison.Differs found, Conform.Adapters base,
                                 Conform.Adapters head, Settings settings) throws ConformException {
        AdapterClient a = open(base, "base", settings);
        try (a; AdapterClient b = open(head, "head", settings)) {
            Pair pair = new Pair(a, b);
            Classifier classifier = new Classifier(a.capabilities(), b.capabilities());
            for (int prefix = 1; prefix <= upTo; prefix++) {
                Transcript[] both = pair.record(scenario, prefix);
                if (classifier.compare(scenario, prefix, both[0], both[1]) instanceof Comparison.Differs d
                        && d.classKey().equals(found.classKey())) {
                    return new Witness(prefix, d);
                }
            }
            return new Witness(scenario.events().size(), found);
        } catch (SideException e) {
            throw new ConformException("shrinking the witness of " + scenario.id() + ": " + e.getMessage());
        }
    }

    /** One adapter of each revision. */
    private record Pair(AdapterClient base, AdapterClient head) {
        /** Both transcripts: the messages go to both before either answer is read. */
        Transcript[] record(Scenario scenario, int prefix) throws SideException {
            ScenarioRun baseRun = new ScenarioRun(base);
            ScenarioRun headRun = new ScenarioRun(head);
            baseRun.send(scenario, prefix);
            headRun.send(scenario, prefix);
            Transcript a;
            try {
                a = baseRun.receive(scenario, prefix);
            } catch (AdapterException e) {
                throw new SideException("base", e);
            }
            try {
                return new Transcript[] {a, headRun.receive(scenario, prefix)};
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

    private static AdapterClient open(Conform.Adapters adapters, String side, Settings settings) throws ConformException {
        try {
            return AdapterClient.open(adapters.start(), settings.patience());
        } catch (AdapterException e) {
            throw new ConformException("the " + side + " revision's adapter " + e.getMessage());
        }
    }

    private static AdapterClient reopen(Conform.Adapters adapters, Line.Hello first, Settings settings) throws AdapterException {
        AdapterClient client = AdapterClient.open(adapters.start(), settings.patience());
        if (!client.hello().equals(first)) {
            client.close();
            throw new AdapterException("greeted differently than the first adapter of its revision");
        }
        return client;
    }
}
