package io.proofgate.review;

import io.proofgate.adapter.Capability;
import io.proofgate.audit.Fingerprints;
import io.proofgate.conform.AdapterClient;
import io.proofgate.conform.AdapterException;
import io.proofgate.conform.Conform;
import io.proofgate.conform.ConformException;
import io.proofgate.conform.Line;
import io.proofgate.namespace.NamespaceImpact;
import io.proofgate.namespace.NamespaceProbe;
import io.proofgate.namespace.NamespaceProbes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The namespace half of a connector audit: every probe of {@code proofgate-namespace/v1} to both
 * revisions (side by side), their answers compared name by name ({@link NamespaceImpact}).
 */
public final class NamespaceRun {

    /** Probes sent ahead at a time: enough for one round trip to carry many, few enough to keep the pipes short. */
    private static final int BATCH = 100;

    /**
     * The result: computed, or why not; the comparison per name; the probes one revision refused
     * and the other answered (the audit cannot judge those).
     */
    public record Result(boolean computed, String why, int probes, List<NamespaceImpact.Name> names, List<String> refusedByOne) {
        public static Result notComputed(String why) {
            return new Result(false, why, 0, List.of(), List.of());
        }

        public List<NamespaceImpact.Name> changed() {
            return names.stream().filter(n -> n.changed() > 0).toList();
        }

        /** A changed name's identity: the name and its first differing probe with both values. */
        public static String fingerprint(NamespaceImpact.Name name) {
            return Fingerprints.of("namespace", name.name(), String.valueOf(name.firstProbe()), String.valueOf(name.base()),
                    String.valueOf(name.head()));
        }
    }

    private NamespaceRun() {}

    /**
     * Every probe to both revisions, each through an adapter of its own (so this may run beside
     * the scenarios). Not computed when either revision's adapter does not declare namespace.
     */
    public static Result run(Conform.Adapters base, Conform.Adapters head, ConnectorAudit.Settings settings)
            throws ConformException {
        List<NamespaceProbe> probes = NamespaceProbes.v1();
        List<String> messages = probes.stream().map(NamespaceProbe::message).toList();
        CompletableFuture<List<Line>> baseAnswers = CompletableFuture.supplyAsync(() -> answers(base, "base", messages, settings));
        CompletableFuture<List<Line>> headAnswers = CompletableFuture.supplyAsync(() -> answers(head, "head", messages, settings));
        List<Line> fromBase = join(baseAnswers);
        List<Line> fromHead = join(headAnswers);
        if (fromBase == null || fromHead == null) {
            return Result.notComputed(fromBase == null && fromHead == null ? "neither revision's adapter declares namespace"
                    : "the " + (fromBase == null ? "base" : "head") + " revision's adapter does not declare namespace");
        }
        List<String> ids = new ArrayList<>();
        List<Map<String, String>> baseValues = new ArrayList<>();
        List<Map<String, String>> headValues = new ArrayList<>();
        List<String> refusedByOne = new ArrayList<>();
        for (int i = 0; i < probes.size(); i++) {
            Line x = fromBase.get(i);
            Line y = fromHead.get(i);
            if (x instanceof Line.Refused != y instanceof Line.Refused) {
                refusedByOne.add(probes.get(i).id() + " (refused by the " + (x instanceof Line.Refused ? "base" : "head") + ")");
            }
            ids.add(probes.get(i).id());
            baseValues.add(x instanceof Line.Namespace n ? n.values() : Map.of());
            headValues.add(y instanceof Line.Namespace n ? n.values() : Map.of());
        }
        return new Result(true, "", probes.size(), NamespaceImpact.compare(ids, baseValues, headValues), List.copyOf(refusedByOne));
    }

    /** The answers of one revision's adapter, in the probes' order; null when it does not declare namespace. */
    private static List<Line> answers(Conform.Adapters adapters, String side, List<String> messages,
                                      ConnectorAudit.Settings settings) {
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
            throw new IllegalStateException("the " + side + " revision's adapter, on the namespace probes: " + e.getMessage());
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
