package io.proofgate.review;

/** A difference between two revisions, held against what the model expects of that event. */
public enum ModelJudgement {
    /**
     * The head publishes a plan whose blocks do not hold its prefix, where the base published none that is unsafe:
     * ranked above every difference of policy, whatever the model says.
     */
    SAFETY_REGRESSION("safety_regression", "safety regression"),
    /** The base published an unsafe plan that the head no longer does. */
    SAFETY_FIX("safety_fix", "safety fix"),
    /** The head now says what the model says; the base did not. */
    FIX("fix", "fix"),
    /** The base said what the model says; the head does not. */
    REGRESSION("regression", "regression"),
    /** Neither says what the model says. */
    BOTH_DIFFER("both_differ", "both differ from the model"),
    /**
     * The model states nothing that tells the two apart (no state for a hand-written log, a reason's prose, facts
     * without reason_facts).
     */
    MODEL_SILENT("model_silent", "model silent");

    private final String wireName;
    private final String words;

    ModelJudgement(String wireName, String words) {
        this.wireName = wireName;
        this.words = words;
    }

    public String wireName() {
        return wireName;
    }

    public String words() {
        return words;
    }

    /** What the two revisions agreeing or not with the model make of their difference. */
    static ModelJudgement judge(boolean baseAgrees, boolean headAgrees) {
        if (baseAgrees == headAgrees) {
            return baseAgrees ? MODEL_SILENT : BOTH_DIFFER;
        }
        return headAgrees ? FIX : REGRESSION;
    }
}
