package io.proofgate.audit;

import io.proofgate.namespace.NamespaceImpact;
import io.proofgate.namespace.NamespaceProbe;
import io.proofgate.namespace.NamespaceProbes;
import io.proofgate.namespace.ReferenceNamespace;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The namespace of one revision's validator: its answers to every probe of {@code proofgate-namespace/v1}, computed as
 * the reference adapter computes its own ({@link ReferenceNamespace}: span, plan_selection, snapshot) but through the
 * revision's replay and store classes. So the spec audit and {@code audit-connector} on proofgate's adapter ask the
 * same questions, and two revisions' answers compare probe by probe.
 */
final class NamespaceVectors {

    private NamespaceVectors() {}

    /** One revision's answers: for each probe of the set, in order, its values by name (hex). */
    static List<Map<String, String>> of(RevisionValidator validator) {
        return List.copyOf(new ReferenceNamespace(validator::replay, validator::type).answerAll(NamespaceProbes.v1()));
    }

    /** Both revisions' answers compared, one surface per name, each first difference as "probe ID: value". */
    static List<Audit.SurfaceChange> compare(List<Map<String, String>> base, List<Map<String, String>> head) {
        List<String> ids = NamespaceProbes.v1().stream().map(NamespaceProbe::id).toList();
        List<Audit.SurfaceChange> surfaces = new ArrayList<>();
        for (NamespaceImpact.Name name : NamespaceImpact.compare(ids, base, head)) {
            surfaces.add(
                    new Audit.SurfaceChange(
                            name.name(),
                            name.probes(),
                            name.changed(),
                            name.changed() == 0 ? null : name.firstProbe() + ": " + NamespaceImpact.shown(name.base()),
                            name.changed() == 0
                                    ? null
                                    : name.firstProbe() + ": " + NamespaceImpact.shown(name.head())));
        }
        return surfaces;
    }
}
