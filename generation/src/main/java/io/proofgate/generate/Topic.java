package io.proofgate.generate;

import io.proofgate.value.TlaValue;
import io.proofgate.words.GroupPolicy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the event a scenario was built to cover exercises, named by the protocol's evidence row or step rule
 * (docs/protocol.md §3). It is read from the events alone (the topology and the scenario's earlier events give groups
 * and targets), never from the verdicts: so a change of a rule's outcome leaves a scenario in its file, and the file's
 * diff shows the new outcome.
 *
 * <p>For a step, the request examined is the first scheduled one (new, then cached, in the event's order) that the
 * evidence mapping has a key for; its value is classified in the table's order, entries one at a time, the first
 * failing entry deciding, as validation does. The rows that compare with the latch (latch, keep, conflict) share one
 * topic, {@code proof-complete}: which of them applies depends on earlier events, and the narrative names the verdict.
 */
enum Topic {
    FIELD_NULL("field-null", "the whole evidence field is null (row \"field absent or null\")"),
    FIELD_NOT_A_MAPPING("field-not-a-mapping", "the whole evidence field is not a mapping (row not_a_mapping)"),
    VALUE_OTHER_REQUEST(
            "value-other-request",
            "the evidence mapping has no key for any scheduled request (row \"no key for this request\")"),
    VALUE_NULL("value-null", "a scheduled request's evidence is null (row \"its value is null\")"),
    VALUE_NOT_A_LIST("value-not-a-list", "a scheduled request's evidence is not a list (row not_a_list)"),
    VALUE_EMPTY("value-empty", "a scheduled request's evidence is an empty list (row empty)"),
    ENTRY_MALFORMED("entry-malformed", "an entry is not three integers (row malformed_entry)"),
    ENTRY_UNKNOWN_GROUP("entry-unknown-group", "an entry names a group outside the topology (row unknown_group)"),
    ENTRY_NON_RECURRENT_GROUP(
            "entry-non-recurrent-group", "an entry names an attention group (row non_recurrent_group)"),
    ENTRY_NULL_BLOCK("entry-null-block", "an entry names block 0 or below (row null_block)"),
    ENTRY_FUTURE("entry-future", "a future entry: its boundary is past the target (row future_boundary)"),
    ENTRY_INTERMEDIATE(
            "entry-intermediate",
            "every entry is intermediate: its boundary is below the target (row \"an entry's boundary < target\")"),
    PROOF_DUPLICATE_GROUP("proof-duplicate-group", "two exact-target entries name one group (row duplicate_group)"),
    PROOF_INCOMPLETE("proof-incomplete", "exact-target entries miss a recurrent group (row incomplete)"),
    PROOF_COMPLETE(
            "proof-complete",
            "exact-target entries cover every recurrent group (rows latch, \"same set\" and conflict)"),
    STEP_RESTORED(
            "step-restored",
            "a step without evidence that admits a request with the connector's hit (restore rule \"load\")"),
    STEP_NEW("step-new", "a step without evidence that admits a new request (new-request rule)"),
    STEP_RESUMED("step-resumed", "a step without evidence that resumes a preempted request (cached-step rule)"),
    STEP_CACHED("step-cached", "a step without evidence that continues a pending request (cached-step rule)"),
    STEP_PREEMPTION("step-preemption", "a step that only preempts (\"preemptions first\" rule)"),
    FINISHED("finished", "a finished request (finished rule)"),
    HELD("held", "a rank reports holding a digest (quorum)"),
    LOOKUP("lookup", "vLLM looks a waiting request up before admitting it (restore rule \"hit\")");

    final String slug;
    final String meaning;

    Topic(String slug, String meaning) {
        this.slug = slug;
        this.meaning = meaning;
    }

    /** The scenario's view of the topology and its requests' targets, built from its events. */
    static final class Context {
        private final List<String> policies = new ArrayList<>();
        private final long hashBlock;
        private final Map<String, Long> targets = new HashMap<>();

        Context(TlaValue.TlaRecord topology) {
            for (TlaValue group : ModelState.sequence(field(topology, "groups"))) {
                policies.add(ModelState.string(field(ModelState.record(group, "group"), "policy")));
            }
            hashBlock = ModelState.integer(field(topology, "hash_block_size"));
        }

        /** Reads the event's new requests' targets, for later events of the scenario. */
        void remember(TlaValue.TlaRecord event) {
            for (TlaValue entry : list(event, "new")) {
                TlaValue.TlaRecord request = ModelState.record(entry, "new request");
                long prompt = ModelState.integer(field(request, "prompt_tokens"));
                targets.put(ModelState.string(field(request, "id")), Math.floorDiv(prompt - 1, hashBlock) * hashBlock);
            }
        }

        Set<Long> recurrentGroups() {
            Set<Long> groups = new HashSet<>();
            for (int g = 0; g < policies.size(); g++) {
                if (policies.get(g).equals(GroupPolicy.RECURRENT_ALIGN.wireName())) {
                    groups.add((long) g);
                }
            }
            return groups;
        }
    }

    /** The topic of {@code event}, given the scenario's events before it (in {@code context}). */
    static Topic of(Context context, TlaValue.TlaRecord event) {
        String kind = ModelState.string(field(event, "kind"));
        switch (kind) {
            case "finished" -> {
                return FINISHED;
            }
            case "held" -> {
                return HELD;
            }
            case "lookup" -> {
                return LOOKUP;
            }
            case "step" -> {
                return step(context, event);
            }
            default -> throw new IllegalArgumentException("no topic for an event of kind \"" + kind + "\"");
        }
    }

    private static Topic step(Context context, TlaValue.TlaRecord event) {
        Optional<TlaValue> field = event.get("recurrent_boundary_blocks");
        if (field.isEmpty() || field.get() instanceof TlaValue.TlaModelValue(String name) && name.equals("Absent")) {
            for (TlaValue entry : list(event, "new")) {
                if (ModelState.record(entry, "new request").get("external").orElse(null)
                                instanceof TlaValue.TlaInt(long external)
                        && external > 0) {
                    return STEP_RESTORED;
                }
            }
            if (!list(event, "new").isEmpty()) {
                return STEP_NEW;
            }
            for (TlaValue cached : list(event, "cached")) {
                if (ModelState.record(cached, "cached request").get("resumed").orElse(null)
                                instanceof TlaValue.TlaBool(boolean resumed)
                        && resumed) {
                    return STEP_RESUMED;
                }
            }
            return list(event, "cached").isEmpty() ? STEP_PREEMPTION : STEP_CACHED;
        }
        TlaValue value = field.get();
        if (value instanceof TlaValue.TlaModelValue(String name)) {
            return switch (name) {
                case "JsonNull" -> FIELD_NULL;
                case "JsonObject" -> VALUE_OTHER_REQUEST;
                default -> FIELD_NOT_A_MAPPING;
            };
        }
        if (!(value instanceof TlaValue.TlaRecord || value instanceof TlaValue.TlaFunction)) {
            return FIELD_NOT_A_MAPPING;
        }
        TlaValue.TlaRecord mapping = ModelState.record(value, "evidence mapping");
        List<String> scheduled = new ArrayList<>();
        for (String list : List.of("new", "cached")) {
            for (TlaValue request : list(event, list)) {
                scheduled.add(ModelState.string(field(ModelState.record(request, "request"), "id")));
            }
        }
        for (String id : scheduled) {
            Optional<TlaValue> evidence = mapping.get(id);
            if (evidence.isPresent()) {
                Long target = context.targets.get(id);
                return value(context, evidence.get(), target == null ? Long.MAX_VALUE : target);
            }
        }
        return VALUE_OTHER_REQUEST;
    }

    private static Topic value(Context context, TlaValue value, long target) {
        if (value instanceof TlaValue.TlaModelValue(String name)) {
            return switch (name) {
                case "JsonNull" -> VALUE_NULL;
                case "JsonList" -> VALUE_EMPTY;
                default -> VALUE_NOT_A_LIST;
            };
        }
        if (!(value instanceof TlaValue.TlaSeq(List<TlaValue> entries))) {
            return VALUE_NOT_A_LIST;
        }
        if (entries.isEmpty()) {
            return VALUE_EMPTY;
        }
        Set<Long> exactGroups = new HashSet<>();
        for (TlaValue entry : entries) {
            if (!(entry instanceof TlaValue.TlaSeq(List<TlaValue> parts))
                    || parts.size() != 3
                    || !parts.stream().allMatch(p -> p instanceof TlaValue.TlaInt)) {
                return ENTRY_MALFORMED;
            }
            long group = ModelState.integer(parts.get(0));
            long block = ModelState.integer(parts.get(1));
            long boundary = ModelState.integer(parts.get(2));
            if (group < 0 || group >= context.policies.size()) {
                return ENTRY_UNKNOWN_GROUP;
            }
            if (!context.policies.get((int) group).equals(GroupPolicy.RECURRENT_ALIGN.wireName())) {
                return ENTRY_NON_RECURRENT_GROUP;
            }
            if (block <= 0) {
                return ENTRY_NULL_BLOCK;
            }
            if (boundary > target) {
                return ENTRY_FUTURE;
            }
            if (boundary == target && !exactGroups.add(group)) {
                return PROOF_DUPLICATE_GROUP;
            }
        }
        if (exactGroups.isEmpty()) {
            return ENTRY_INTERMEDIATE;
        }
        return exactGroups.equals(context.recurrentGroups()) ? PROOF_COMPLETE : PROOF_INCOMPLETE;
    }

    private static List<TlaValue> list(TlaValue.TlaRecord event, String name) {
        return event.get(name).map(ModelState::sequence).orElse(List.of());
    }

    private static TlaValue field(TlaValue.TlaRecord record, String name) {
        return record.get(name).orElseThrow(() -> new IllegalArgumentException("record has no field \"" + name + "\""));
    }
}
