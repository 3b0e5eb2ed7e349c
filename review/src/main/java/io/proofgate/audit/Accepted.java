package io.proofgate.audit;

import com.fasterxml.jackson.databind.JsonNode;

import io.proofgate.check.StrictJson;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The findings reviewers approved, by fingerprint, each with the reason they gave, from {@code audit-accepted.json} at
 * the head revision (so a change carries its own approvals):
 *
 * <pre>{"schema": "proofgate-audit-accepted/v1",
 *  "accepted": [{"fingerprint": "3f2a...", "justification": "entries below the plan are ignored (seed commit 2)"}]}
 * </pre>
 *
 * An accepted finding is reported but does not make the audit fail; an entry whose finding no longer occurs is reported
 * as stale.
 */
public record Accepted(Map<String, String> byFingerprint) {

    public static final String FILE = "audit-accepted.json";
    static final String SCHEMA = "proofgate-audit-accepted/v1";
    private static final Set<String> TOP = Set.of("schema", "note", "accepted");
    private static final Set<String> ENTRY = Set.of("fingerprint", "justification");

    public static final Accepted NONE = new Accepted(Map.of());

    public Accepted {
        byFingerprint = Map.copyOf(byFingerprint);
    }

    /**
     * The file of the revision written into {@code dir}, or {@link #NONE} where it has none; an error names it from the
     * revision's root and says whose it is ({@code side}: "base" or "head"), since {@code dir} is the audit run's own
     * folder and gone after it.
     */
    public static Accepted ofRevision(Path dir, String side) {
        try {
            return read(dir.resolve(FILE));
        } catch (AuditException e) {
            throw new AuditException(
                    "the "
                            + side
                            + "'s "
                            + FILE
                            + " cannot be read: "
                            + e.getMessage()
                                    .replace(
                                            io.proofgate.words.Outside.bare(dir.toString()) + java.io.File.separator,
                                            ""));
        }
    }

    /** The file, or {@link #NONE} where the revision has none. */
    public static Accepted read(Path file) {
        if (!Files.exists(file)) {
            return NONE;
        }
        StrictJson<AuditException> doc =
                StrictJson.read(file, SCHEMA, TOP, "\"schema\" and \"accepted\"", AuditException::new);
        JsonNode entries = doc.root().get("accepted");
        if (entries == null || !entries.isArray()) {
            throw doc.error(doc.root(), "accepted", "\"accepted\" must be a list");
        }
        Map<String, String> accepted = new LinkedHashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            JsonNode node = entries.get(i);
            String where = "accepted[" + i + "]";
            if (!node.isObject()) {
                throw doc.error(entries, String.valueOf(i), where + " must be an object");
            }
            doc.keys(where, node, ENTRY);
            String fingerprint = doc.text(where, node, "fingerprint");
            String justification = doc.text(where, node, "justification");
            if (!fingerprint.matches("[0-9a-f]{16}")) {
                throw doc.error(
                        node, "fingerprint", where + ": \"fingerprint\" must be the 16 hex digits a report gives");
            }
            if (justification.isBlank()) {
                throw doc.error(
                        node, "justification", where + ": a justification is required (why the change is intended)");
            }
            if (accepted.put(fingerprint, justification) != null) {
                throw doc.error(node, "fingerprint", where + ": fingerprint " + fingerprint + " is accepted twice");
            }
        }
        return new Accepted(accepted);
    }

    /** The reviewers' reason, or null when the finding is not accepted. */
    public String justification(String fingerprint) {
        return byFingerprint.get(fingerprint);
    }

    /** Entries no finding of {@code fingerprints} has. */
    public List<String> stale(Set<String> fingerprints) {
        return byFingerprint.keySet().stream().filter(f -> !fingerprints.contains(f)).sorted().toList();
    }
}
