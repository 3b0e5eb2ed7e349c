package io.proofgate.audit;

import io.proofgate.check.ConfigChecks;
import io.proofgate.check.Model;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SequencedSet;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * What the models check, compared between the revisions. The head's spec is checked on the base's configs, but with its
 * own definitions, so a head that weakens an invariant or a property, or an operator either reads, would keep it unseen
 * (the crossing producer passes with {@code BlockContent(...) >= p.span}; a property whose guard is never true passes
 * everything); and a head whose own configs or spec/models.json check less leaves the next audit, which takes them as
 * its base, checking less. Each is a finding a reviewer accepts, as a model that shrinks is.
 *
 * <p>Every model spec/models.json lists is read, not only the audited ones: the mistake models and the models CI checks
 * are checks too. A check's meaning is the text of its definition and of every definition it uses at any depth, with
 * what each model's config puts in their place ({@code A <- B}, {@code A = value}): a config that replaces an
 * invariant, or an operator it reads, changes what it means as an edit of the definition does. The definitions the
 * model runs (those its INIT, NEXT and constraints reach) are left out: their change is behaviour, which the behaviour
 * comparison judges, and the rules' properties read some of them (a row's code), so every change of the connector would
 * otherwise be said again once per rule. What is left is what only checks read: a rule's guard, a ghost of what a block
 * holds, an invariant itself.
 */
final class CheckedChanges {

    /** The sections of a config that say what a model runs: its initial states, its steps, what prunes them. */
    private static final java.util.Set<String> BEHAVIOUR =
            java.util.Set.of(
                    "INIT",
                    "NEXT",
                    "SPECIFICATION",
                    "CONSTRAINT",
                    "CONSTRAINTS",
                    "ACTION_CONSTRAINT",
                    "ACTION_CONSTRAINTS");

    private CheckedChanges() {}

    static List<ModelSizes.Finding> of(
            Revision base, Revision head, List<Model> models, Map<String, Model> headModels, boolean defaults)
            throws IOException {
        List<ModelSizes.Finding> findings = new ArrayList<>();
        for (Model model : models) {
            Model own = headModels.get(model.name());
            if (own == null) {
                continue; // a model the head no longer has is a finding of its own (ModelSizes)
            }
            ConfigChecks was = ConfigChecks.parse(Files.readString(model.config()));
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
        io.proofgate.check.ModelCatalog baseCatalog = SpecGraphs.catalog(base, "base");
        io.proofgate.check.ModelCatalog headCatalog = SpecGraphs.catalog(head, "head");
        Map<String, Model> baseListed = byName(baseCatalog.listed());
        Map<String, Model> headListed = byName(headCatalog.listed());
        findings.addAll(
                catalogue(
                        models,
                        baseListed,
                        headListed,
                        names(baseCatalog.checkedInCi()),
                        names(headCatalog.checkedInCi())));
        findings.addAll(meanings(base, head, baseListed, headListed));
        return findings;
    }

    /**
     * The models the base lists that the head drops, no longer checks in CI, or expects another outcome of (a mistake
     * model that the spec catches is a check that the spec catches it). An audited model the head lacks is ModelSizes'
     * finding.
     */
    private static List<ModelSizes.Finding> catalogue(
            List<Model> audited,
            Map<String, Model> was,
            Map<String, Model> now,
            List<String> inCiWas,
            List<String> inCiNow) {
        List<ModelSizes.Finding> findings = new ArrayList<>();
        List<String> auditedNames = names(audited);
        for (Model model : was.values()) {
            Model own = now.get(model.name());
            if (own == null) {
                if (!auditedNames.contains(model.name())) {
                    findings.add(
                            new ModelSizes.Finding(
                                    model.name(), "the head's spec/models.json no longer has model " + model.name()));
                }
                continue;
            }
            if (inCiWas.contains(model.name()) && !inCiNow.contains(model.name())) {
                findings.add(
                        new ModelSizes.Finding(
                                model.name(),
                                "the head's spec/models.json no longer checks " + model.name() + " in CI"));
            }
            if (!model.expected().equals(own.expected())) {
                findings.add(
                        new ModelSizes.Finding(
                                model.name(),
                                "the head's spec/models.json expects "
                                        + expected(own.expected())
                                        + " of "
                                        + model.name()
                                        + " (the base: "
                                        + expected(model.expected())
                                        + ")"));
            }
        }
        return findings;
    }

    /** Each invariant and property of every model the base lists whose meaning the head changes, once per check. */
    private static List<ModelSizes.Finding> meanings(
            Revision base, Revision head, Map<String, Model> baseModels, Map<String, Model> headModels)
            throws IOException {
        Map<String, String> was = ChangedCode.definitionTexts(base.spec());
        Map<String, String> now = ChangedCode.definitionTexts(head.spec());
        // "invariant X" or "property X" -> the models on which its meaning changed, and what changed there
        Map<String, List<String>> changedOn = new LinkedHashMap<>();
        Map<String, SequencedSet<String>> changedNames = new LinkedHashMap<>();
        Map<String, StringBuilder> headTexts = new LinkedHashMap<>();
        for (Model model : baseModels.values()) {
            Model own = headModels.get(model.name());
            String baseConfig = Files.readString(model.config());
            String headConfig = own == null ? "" : Files.readString(own.config());
            Map<String, String> wasHere = withReplacements(was, baseConfig);
            Map<String, String> nowHere = withReplacements(now, headConfig);
            // what the model runs: its changes are behaviour, which the behaviour comparison judges
            java.util.Set<String> runs = new java.util.HashSet<>();
            runs.addAll(
                    closure(ConfigChecks.sectionWords(baseConfig, BEHAVIOUR), wasHere, nowHere, java.util.Set.of()));
            runs.addAll(
                    closure(ConfigChecks.sectionWords(headConfig, BEHAVIOUR), wasHere, nowHere, java.util.Set.of()));
            ConfigChecks checks = ConfigChecks.parse(baseConfig);
            List<String> keys = new ArrayList<>();
            checks.invariants().forEach(i -> keys.add("invariant " + i));
            checks.properties().forEach(p -> keys.add("property " + p));
            for (String key : keys) {
                String root = key.substring(key.indexOf(' ') + 1);
                SequencedSet<String> changed = new LinkedHashSet<>();
                for (String name : closure(List.of(root), wasHere, nowHere, runs)) {
                    if (!Objects.equals(wasHere.get(name), nowHere.get(name))) {
                        changed.add(name);
                    }
                }
                if (!changed.isEmpty()) {
                    changedOn.computeIfAbsent(key, k -> new ArrayList<>()).add(model.name());
                    changedNames.computeIfAbsent(key, k -> new LinkedHashSet<>()).addAll(changed);
                    StringBuilder text = headTexts.computeIfAbsent(key, k -> new StringBuilder());
                    changed.forEach(name -> text.append(name).append('\n').append(nowHere.get(name)).append('\n'));
                }
            }
        }
        List<ModelSizes.Finding> findings = new ArrayList<>();
        for (var check : changedOn.entrySet()) {
            List<String> on = check.getValue();
            SequencedSet<String> changed = changedNames.get(check.getKey());
            findings.add(
                    new ModelSizes.Finding(
                            on.getFirst(),
                            "the head changes what "
                                    + check.getKey()
                                    + " means (checked on "
                                    + String.join(", ", on)
                                    + "): "
                                    + String.join(", ", changed)
                                    + (changed.size() == 1 ? " differs" : " differ")
                                    + " (the head's text "
                                    + io.proofgate.words.Sha256.of(headTexts.get(check.getKey()).toString())
                                            .substring(0, 12)
                                    + ")"));
        }
        return findings;
    }

    /**
     * The definitions' texts with a config's replacements added: {@code A <- B} adds {@code <- B} to A's text (so that
     * B is followed, and a replacement added, removed or changed is a change of A), {@code A = value} adds {@code =
     * value}.
     */
    private static Map<String, String> withReplacements(Map<String, String> texts, String config) {
        Map<String, String> replaced = new HashMap<>(texts);
        List<String> words = ConfigChecks.sectionWords(config, java.util.Set.of("CONSTANT", "CONSTANTS"));
        for (int i = 0; i + 2 < words.size(); i++) {
            if (words.get(i + 1).equals("<-") || words.get(i + 1).equals("=")) {
                replaced.merge(words.get(i), words.get(i + 1) + " " + words.get(i + 2), (a, b) -> a + " " + b);
            }
        }
        return replaced;
    }

    private static String expected(Model.Expected expected) {
        return switch (expected) {
            case Model.Expected.Ok ok -> "no violation";
            case Model.Expected.Violation v -> "a violation of " + v.property();
            case Model.Expected.EachViolated each ->
                    "each of " + String.join(", ", new TreeSet<>(each.invariants())) + " violated";
        };
    }

    private static Map<String, Model> byName(List<Model> models) {
        Map<String, Model> byName = new LinkedHashMap<>();
        models.forEach(m -> byName.putIfAbsent(m.name(), m));
        return byName;
    }

    private static List<String> names(List<Model> models) {
        return models.stream().map(Model::name).toList();
    }

    /**
     * The definitions and every definition they use, at either revision, in the order they are reached, but none of
     * {@code stop} (nor what is reached only through one).
     */
    private static SequencedSet<String> closure(
            List<String> roots, Map<String, String> was, Map<String, String> now, java.util.Set<String> stop) {
        SequencedSet<String> reached = new LinkedHashSet<>();
        ArrayDeque<String> next = new ArrayDeque<>(roots);
        while (!next.isEmpty()) {
            String name = next.poll();
            if (stop.contains(name) || !reached.add(name)) {
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
