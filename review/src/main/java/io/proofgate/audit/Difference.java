package io.proofgate.audit;

import java.util.List;

/**
 * One class of behaviour difference between two spec revisions, with its shortest witness.
 *
 * @param model the model both revisions ran on (the base's)
 * @param className what differs: the witness's last event by topic, then base's output and head's
 * @param kind verdicts (publish, reject, retire, code) or reason facts only
 * @param witness the replay log of the witness: the topology line first, steps numbered
 * @param baseVerdicts what the base spec says the last event produces, as script lines
 * @param headVerdicts the same for head
 * @param baseTakes whether the base spec can take the last event at all (its environment may not send it)
 * @param headTakes the same for head
 * @param fingerprint stable identity: a hash of the class and the witness events, never of line numbers
 * @param seenIn where the class occurs: each kind of event (and its topic) at which the search found it, sorted
 * @param occurrences how many transitions of the product show it
 */
public record Difference(
        String model,
        String className,
        Kind kind,
        List<String> witness,
        List<String> baseVerdicts,
        List<String> headVerdicts,
        boolean baseTakes,
        boolean headTakes,
        String fingerprint,
        List<String> seenIn,
        int occurrences) {

    public enum Kind {
        VERDICT("verdict"),
        REASON("reason");

        private final String wireName;

        Kind(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }

    public Difference {
        witness = List.copyOf(witness);
        baseVerdicts = List.copyOf(baseVerdicts);
        headVerdicts = List.copyOf(headVerdicts);
        seenIn = List.copyOf(seenIn);
    }

    static Difference of(
            String model,
            String className,
            Kind kind,
            List<String> witness,
            List<String> baseVerdicts,
            List<String> headVerdicts,
            boolean baseTakes,
            boolean headTakes,
            String where) {
        String fingerprint = Fingerprints.of("behaviour", className, String.join("\n", witness));
        return new Difference(
                model,
                className,
                kind,
                witness,
                baseVerdicts,
                headVerdicts,
                baseTakes,
                headTakes,
                fingerprint,
                List.of(where),
                1);
    }

    /** The same class found again, at {@code where}. */
    Difference seenAlso(String where) {
        java.util.TreeSet<String> places = new java.util.TreeSet<>(seenIn);
        places.add(where);
        return new Difference(
                model,
                className,
                kind,
                witness,
                baseVerdicts,
                headVerdicts,
                baseTakes,
                headTakes,
                fingerprint,
                List.copyOf(places),
                occurrences + 1);
    }

    /** Events after the topology line. */
    public int events() {
        return witness.size() - 1;
    }
}
