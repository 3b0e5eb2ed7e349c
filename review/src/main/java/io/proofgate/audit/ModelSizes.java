package io.proofgate.audit;

import java.util.ArrayList;
import java.util.List;

/**
 * One model's size at both revisions, the head measured on its own model files (not only on the base's): a change that
 * shrinks a model (a bound set to 0, a constant left out) removes the behaviours the audit compares, so a drop is a
 * finding a reviewer accepts, not a silent pass.
 *
 * @param headOnBaseStates distinct states of the head's spec on the base's model files
 * @param headStates distinct states of the head's spec on its own model files, -1 when the head has no such model
 * @param headRecorded the count the head's spec/models.json records, -1 when it records none
 */
public record ModelSizes(
        String name,
        int baseStates,
        int headOnBaseStates,
        int headStates,
        int baseEdges,
        int headEdges,
        long headRecorded,
        int baseScenarios,
        int headScenarios) {

    /** A drop or a count TLC does not reproduce: each needs a reviewer. */
    public record Finding(String model, String what) {
        public String fingerprint() {
            return Fingerprints.of("model", model, what);
        }
    }

    public List<Finding> findings() {
        List<Finding> findings = new ArrayList<>();
        if (headStates < 0) {
            findings.add(
                    new Finding(
                            name,
                            "the head has no model " + name + " (the base has " + baseStates + " distinct states)"));
            return findings;
        }
        if (headStates < baseStates) {
            findings.add(new Finding(name, "distinct states dropped: " + baseStates + " -> " + headStates));
        }
        if (headEdges < baseEdges) {
            findings.add(new Finding(name, "edges of the state graph dropped: " + baseEdges + " -> " + headEdges));
        }
        if (headScenarios < baseScenarios) {
            findings.add(new Finding(name, "generated scenarios dropped: " + baseScenarios + " -> " + headScenarios));
        }
        if (headRecorded >= 0 && headRecorded != headStates) {
            findings.add(
                    new Finding(
                            name,
                            "the head's spec/models.json records "
                                    + headRecorded
                                    + " distinct states; TLC finds "
                                    + headStates));
        }
        return findings;
    }
}
