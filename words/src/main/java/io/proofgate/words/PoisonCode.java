package io.proofgate.words;

/** Why an attempt was rejected: the stable codes of protocol §3 and §5. */
public enum PoisonCode {
    NOT_A_MAPPING("not_a_mapping", "recurrent_boundary_blocks is not a mapping"),
    NOT_A_LIST("not_a_list", "the evidence for the request is not a list"),
    EMPTY("empty", "the evidence for the request is an empty list"),
    MALFORMED_ENTRY("malformed_entry", "an entry is not a list of three integers"),
    UNKNOWN_GROUP("unknown_group", "an entry names a group outside the topology"),
    NON_RECURRENT_GROUP("non_recurrent_group", "an entry names a group that is not recurrent_align"),
    NULL_BLOCK("null_block", "an entry names a null block"),
    FUTURE_BOUNDARY("future_boundary", "entry boundary is ahead of the store plan"),
    DUPLICATE_GROUP("duplicate_group", "two exact-target entries name the same group"),
    INCOMPLETE("incomplete", "exact-target entries do not cover every recurrent group"),
    CONFLICT("conflict", "exact-target entries differ from the latched proof"),
    INVALID_SELECTION("invalid_selection", "the plan's block selection is invalid");

    private final String wireName;
    private final String sentence;

    PoisonCode(String wireName, String sentence) {
        this.wireName = wireName;
        this.sentence = sentence;
    }

    /** The code as written in replay output and in the spec. */
    public String wireName() {
        return wireName;
    }

    /** the protocol's sentence for the rule; reasons start with it. */
    public String sentence() {
        return sentence;
    }

    /** The code of a wire name; empty for a name this version does not know. */
    public static java.util.Optional<PoisonCode> of(String wireName) {
        return java.util.Arrays.stream(values()).filter(c -> c.wireName.equals(wireName)).findFirst();
    }
}
