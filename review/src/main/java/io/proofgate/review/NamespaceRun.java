package io.proofgate.review;

import io.proofgate.audit.Fingerprints;
import io.proofgate.conform.AdapterClient;
import io.proofgate.conform.AdapterException;
import io.proofgate.conform.Conform;
import io.proofgate.conform.ConformException;
import io.proofgate.conform.Line;
import io.proofgate.namespace.NamespaceImpact;
import io.proofgate.namespace.NamespaceProbe;
import io.proofgate.namespace.NamespaceProbes;
import io.proofgate.words.Capability;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The namespace half of a connector audit: every probe of {@code proofgate-namespace/v1} to both revisions (side by
 * side), their answers compared name by name ({@link NamespaceImpact}).
 */
public final class NamespaceRun {

    /** Probes sent ahead at a time: enough for one round trip to carry many, few enough to keep the pipes short. */
    private static final int BATCH = 100;

    /**
     * The result: computed, or why not; the comparison per name; the probes one revision refused and the other
     * answered, and those both refused (nothing compared: the audit cannot judge those).
     */
    public record Result(
            boolean computed,
            String why,
            int probes,
            List<NamespaceImpact.Name> names,
            List<String> refusedByOne,
            List<String> refusedByBoth,
            String notRepeated) {
        public static Result notComputed(String why) {
            return new Result(false, why, 0, List.of(), List.of(), List.of(), null);
        }

        /**
         * Whether every answer a comparison rests on came out the same when asked again ({@code notRepeated} says where
         * not).
         */
        public boolean repeated() {
            return notRepeated == null;
        }

        public List<NamespaceImpact.Name> changed() {
            return names.stream().filter(n -> n.changed() > 0).toList();
        }

        /** A changed name's identity: the name and its first differing probe with both values. */
        public static String fingerprint(NamespaceImpact.Name name) {
            return Fingerprints.of(
                    "namespace",
                    name.name(),
                    String.valueOf(name.firstProbe()),
                    String.valueOf(name.base()),
                    String.valueOf(name.head()));
        }
    }

    private NamespaceRun() {}

    /**
     * The probes beside an audit's scenarios: started once both revisions' first adapters have said hello ({@link
     * ConnectorAudit#run}'s callback), and only where both declare namespace; else no adapter is started only to be
     * asked.
     */
    public static final class Beside implements java.util.function.BiConsumer<Line.Hello, Line.Hello> {
        private final Conform.Adapters base;
        private final Conform.Adapters head;
        private final ConnectorAudit.Settings settings;
        private final Conform.Progress progress;
        private final CompletableFuture<Result> result = new CompletableFuture<>();

        public Beside(
                Conform.Adapters base,
                Conform.Adapters head,
                ConnectorAudit.Settings settings,
                Conform.Progress progress) {
            this.base = base;
            this.head = head;
            this.settings = settings;
            this.progress = progress;
        }

        @Override
        public void accept(Line.Hello baseHello, Line.Hello headHello) {
            boolean inBase = baseHello.capabilities().contains(Capability.NAMESPACE);
            boolean inHead = headHello.capabilities().contains(Capability.NAMESPACE);
            if (!inBase || !inHead) {
                result.complete(notDeclared(inBase, inHead));
                return;
            }
            CompletableFuture.runAsync(
                    () -> {
                        try {
                            Result probed = run(base, head, settings);
                            if (probed.computed()) {
                                progress.line(
                                        String.format("%,d namespace probes through both revisions", probed.probes()));
                            }
                            result.complete(probed);
                        } catch (Throwable e) { // whatever ends the probes ends the wait for them
                            result.completeExceptionally(e);
                        }
                    });
        }

        /** The probes' result, once the scenarios' run has had both revisions' hellos. */
        public Result result() throws ConformException {
            try {
                return result.join();
            } catch (java.util.concurrent.CompletionException e) {
                throw e.getCause() instanceof ConformException c
                        ? c
                        : new ConformException(
                                "the namespace probes could not be judged: " + e.getCause().getMessage());
            }
        }
    }

    private static Result notDeclared(boolean inBase, boolean inHead) {
        return Result.notComputed(
                !inBase && !inHead
                        ? "neither revision's adapter declares namespace"
                        : "the " + (!inBase ? "base" : "head") + " revision's adapter does not declare namespace");
    }

    /**
     * Every probe to both revisions, each through an adapter of its own (so this may run beside the scenarios). Not
     * computed when either revision's adapter does not declare namespace.
     */
    public static Result run(Conform.Adapters base, Conform.Adapters head, ConnectorAudit.Settings settings)
            throws ConformException {
        List<NamespaceProbe> probes = NamespaceProbes.v1();
        List<String> messages = probes.stream().map(NamespaceProbe::message).toList();
        List<List<Line>> first = askBoth(base, head, messages, settings);
        List<Line> fromBase = first.get(0);
        List<Line> fromHead = first.get(1);
        if (fromBase == null || fromHead == null) {
            return notDeclared(fromBase != null, fromHead != null);
        }
        List<String> ids = new ArrayList<>();
        List<Map<String, String>> baseValues = new ArrayList<>();
        List<Map<String, String>> headValues = new ArrayList<>();
        List<String> refusedByOne = new ArrayList<>();
        List<String> refusedByBoth = new ArrayList<>();
        for (int i = 0; i < probes.size(); i++) {
            Line x = fromBase.get(i);
            Line y = fromHead.get(i);
            if (x instanceof Line.Refused != y instanceof Line.Refused) {
                refusedByOne.add(
                        probes.get(i).id() + " (refused by the " + (x instanceof Line.Refused ? "base" : "head") + ")");
            } else if (x instanceof Line.Refused) {
                refusedByBoth.add(probes.get(i).id() + " (refused by both)"); // alike, and no name compared
            }
            ids.add(probes.get(i).id());
            baseValues.add(x instanceof Line.Namespace n ? n.values() : Map.of());
            headValues.add(y instanceof Line.Namespace n ? n.values() : Map.of());
        }
        List<NamespaceImpact.Name> names = NamespaceImpact.compare(ids, baseValues, headValues);
        // a name that changed, or a probe refused, is a finding only if the answers repeat: both
        // revisions are asked every probe again, by fresh adapters, and must answer as before
        String notRepeated = null;
        if (names.stream().anyMatch(n -> n.changed() > 0) || !refusedByOne.isEmpty() || !refusedByBoth.isEmpty()) {
            List<List<Line>> again = askBoth(base, head, messages, settings);
            notRepeated = firstNotRepeated(probes, "base", fromBase, again.get(0));
            if (notRepeated == null) {
                notRepeated = firstNotRepeated(probes, "head", fromHead, again.get(1));
            }
        }
        return new Result(
                true, "", probes.size(), names, List.copyOf(refusedByOne), List.copyOf(refusedByBoth), notRepeated);
    }

    /**
     * Every probe to a fresh adapter of each revision, side by side: the base's answers, then the head's (an element
     * null where that revision does not declare namespace).
     */
    private static List<List<Line>> askBoth(
            Conform.Adapters base, Conform.Adapters head, List<String> messages, ConnectorAudit.Settings settings)
            throws ConformException {
        CompletableFuture<List<Line>> baseAnswers =
                CompletableFuture.supplyAsync(() -> answers(base, "base", messages, settings));
        CompletableFuture<List<Line>> headAnswers =
                CompletableFuture.supplyAsync(() -> answers(head, "head", messages, settings));
        return java.util.Arrays.asList(join(baseAnswers), join(headAnswers));
    }

    /** Where a revision's second answers differ from its first, in words; null where every one repeats. */
    private static String firstNotRepeated(
            List<NamespaceProbe> probes, String side, List<Line> first, List<Line> again) {
        if (again == null) {
            return "the " + side + " revision's adapter no longer declares namespace when started again";
        }
        for (int i = 0; i < probes.size(); i++) {
            if (!first.get(i).equals(again.get(i))) {
                return "namespace probe "
                        + probes.get(i).id()
                        + ": the "
                        + side
                        + " revision's adapter answered "
                        + io.proofgate.words.Outside.excerpt(words(first.get(i)))
                        + ", and asked again "
                        + io.proofgate.words.Outside.excerpt(words(again.get(i)));
            }
        }
        return null;
    }

    private static String words(Line line) {
        return switch (line) {
            case Line.Namespace n -> n.values().toString();
            case Line.Refused r -> "an error: " + r.message();
            default -> line.toString();
        };
    }

    /** The answers of one revision's adapter, in the probes' order; null when it does not declare namespace. */
    private static List<Line> answers(
            Conform.Adapters adapters, String side, List<String> messages, ConnectorAudit.Settings settings) {
        try (AdapterClient client = AdapterClient.open(adapters.start(), settings.patience())) {
            if (!client.capabilities().contains(Capability.NAMESPACE)) {
                return null;
            }
            List<Line> answers = new ArrayList<>(messages.size());
            for (int from = 0; from < messages.size(); from += BATCH) {
                answers.addAll(client.namespace(messages.subList(from, Math.min(messages.size(), from + BATCH))));
            }
            return answers;
        } catch (AdapterException e) {
            throw new IllegalStateException(
                    "the " + side + " revision's adapter, on the namespace probes: " + e.getMessage());
        }
    }

    private static List<Line> join(CompletableFuture<List<Line>> answers) throws ConformException {
        try {
            return answers.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ConformException c) {
                throw c;
            }
            throw new ConformException(e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConformException("interrupted");
        }
    }
}
