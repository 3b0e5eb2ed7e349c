package io.proofgate.audit;

import io.proofgate.check.ConfigChecks;
import io.proofgate.check.Model;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SequencedSet;
import java.util.stream.Stream;

/**
 * What the models check, compared between the revisions. The head's spec is checked on the base's configs, but with its
 * own definitions, so a head that weakens an invariant, or an operator the invariant reads, would keep it unseen (the
 * crossing producer passes with {@code BlockContent(...) >= p.span}); and a head whose own configs or spec/models.json
 * check less leaves the next audit, which takes them as its base, checking less. Each is a finding a reviewer accepts,
 * as a model that shrinks is.
 *
 * <p>Only invariants are followed into their definitions: a property states a rule of the protocol, whose change is the
 * protocol change the behaviour comparison shows; an invariant states what must hold whatever the rules, and a change
 * the behaviour comparison cannot see (vLLM's producer) shows only there.
 */
final class CheckedChanges {

    private CheckedChanges() {}

    static List<ModelSizes.Finding> of(
            Revision base, Revision head, List<Model> models, Map<String, Model> headModels, boolean defaults)
            throws IOException {
        List<ModelSizes.Finding> findings = new ArrayList<>();
        // invariants by the models that check them, in the models' order
        Map<String, List<String>> checkedOn = new LinkedHashMap<>();
        for (Model model : models) {
            ConfigChecks was = ConfigChecks.parse(Files.readString(model.config()));
            was.invariants().forEach(i -> checkedOn.computeIfAbsent(i, k -> new ArrayList<>()).add(model.name()));
            Model own = headModels.get(model.name());
            if (own == null) {
                continue; // a model the head no longer has is a finding of its own (ModelSizes)
            }
            ConfigChecks now = ConfigChecks.parse(Files.readString(own.config()));
            List<String> dropped = new ArrayList<>();
            was.invariants().stream().filter(i -> !now.invariants().contains(i)).forEach(dropped::add);
            was.properties().stream().filter(p -> !now.properties().contains(p)).forEach(dropped::add);
            if (!dropped.isEmpty()) {
                findings.add(
                        new ModelSizes.Finding(
                                model.name(),
                                "the head's "
                                        + own.config().getFileName()
                                        + " no longer checks "
                                        + String.join(", ", dropped)));
            }
        }
        if (defaults) {
            List<String> audited = names(SpecGraphs.models(head, List.of()));
            for (Model model : models) {
                if (!audited.contains(model.name())) {
                    findings.add(
                            new ModelSizes.Finding(
                                    model.name(),
                                    "the head's spec/models.json no longer has "
                                            + model.name()
                                            + " audited by default (a generation model, or \"audit\": true)"));
                }
            }
        }
        Map<String, String> was = ChangedCode.definitionTexts(base.spec());
        Map<String, String> now = ChangedCode.definitionTexts(head.spec());
        for (var invariant : checkedOn.entrySet()) {
            SequencedSet<String> changed = new LinkedHashSet<>();
            for (String name : closure(invariant.getKey(), was, now)) {
                if (!Objects.equals(was.get(name), now.get(name))) {
                    changed.add(name);
                }
            }
            if (!changed.isEmpty()) {
                StringBuilder text = new StringBuilder();
                changed.forEach(name -> text.append(name).append('\n').append(now.get(name)).append('\n'));
                List<String> on = invariant.getValue();
                findings.add(
                        new ModelSizes.Finding(
                                on.getFirst(),
                                "the head changes what invariant "
                                        + invariant.getKey()
                                        + " means (checked on "
                                        + String.join(", ", on)
                                        + "): "
                                        + String.join(", ", changed)
                                        + (changed.size() == 1 ? " differs" : " differ")
                                        + " (the head's text "
                                        + io.proofgate.words.Sha256.of(text.toString()).substring(0, 12)
                                        + ")"));
            }
        }
        return findings;
    }

    private static List<String> names(List<Model> models) {
        return models.stream().map(Model::name).toList();
    }

    /** The definition and every definition it uses, at either revision, in the order they are reached. */
    private static SequencedSet<String> closure(String root, Map<String, String> was, Map<String, String> now) {
        SequencedSet<String> reached = new LinkedHashSet<>();
        ArrayDeque<String> next = new ArrayDeque<>(List.of(root));
        while (!next.isEmpty()) {
            String name = next.poll();
            if (!reached.add(name)) {
                continue;
            }
            for (String text : Stream.of(was.get(name), now.get(name)).filter(Objects::nonNull).toList()) {
                for (String word : text.split(" ")) {
                    if ((was.containsKey(word) || now.containsKey(word)) && !reached.contains(word)) {
                        next.add(word);
                    }
                }
            }
        }
        return reached;
    }
}
