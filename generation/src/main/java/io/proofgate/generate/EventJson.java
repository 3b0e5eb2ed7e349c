package io.proofgate.generate;

import io.proofgate.value.TlaValue;
import io.proofgate.value.TlaValuePrinter;

import java.util.List;

/**
 * Writes the spec's {@code lastEvent} records as replay lines (protocol §5). The encoding table is docs/spec.md's: TLA+
 * sequences are JSON lists, records and functions on strings are objects, and model values stand for JSON that TLA+ has
 * no literal for, or that would be compared with strings: {@code Absent} (the field is omitted), {@code JsonNull},
 * {@code JsonText} (the string "text"), {@code JsonTrue}, {@code JsonInt} (7), {@code JsonNumber} (1.5), {@code
 * JsonList} ([]) and {@code JsonObject} ({}).
 */
final class EventJson {

    /** Field order of each event and request object, protocol §5's. */
    private static final List<String> ORDER =
            List.of(
                    "kind",
                    "schema",
                    "step",
                    "tp_degree",
                    "hash_block_size",
                    "min_span_tokens",
                    "max_span_tokens",
                    "groups",
                    "policy",
                    "block_tokens",
                    "window_tokens",
                    "id",
                    "rank",
                    "digest",
                    "prompt_tokens",
                    "computed",
                    "external",
                    "scheduled",
                    "block_ids",
                    "new_block_ids",
                    "resumed",
                    "new",
                    "cached",
                    "preempted",
                    "recurrent_boundary_blocks");

    /** Each name's place in {@link #ORDER}. */
    private static final java.util.Map<String, Integer> PLACE = places();

    private static final int STEP = ORDER.indexOf("step");

    private static final String STEP_KIND = "{\"kind\":\"step\"";

    private EventJson() {}

    private static java.util.Map<String, Integer> places() {
        java.util.Map<String, Integer> places = new java.util.HashMap<>();
        for (int i = 0; i < ORDER.size(); i++) {
            places.put(ORDER.get(i), i);
        }
        return java.util.Map.copyOf(places);
    }

    /**
     * A record's fields that have a place in {@link #ORDER}, there, in one pass over them (the audit writes each
     * state's event many times over); the others are left out.
     */
    private static TlaValue[] inOrder(TlaValue.TlaRecord record) {
        TlaValue[] values = new TlaValue[ORDER.size()];
        for (TlaValue.Field field : record.fields()) {
            Integer place = PLACE.get(field.name());
            if (place != null && values[place] == null) { // the first of a name, as a lookup by name finds it
                values[place] = field.value();
            }
        }
        return values;
    }

    /**
     * The replay line for an event record, with {@code step} inserted for step events (the spec has no step numbers).
     */
    static String line(TlaValue.TlaRecord event, long step) {
        for (TlaValue.Field field : event.fields()) {
            if (!PLACE.containsKey(field.name())) {
                throw new IllegalArgumentException(
                        "event field \""
                                + field.name()
                                + "\" has no place in a replay line: "
                                + TlaValuePrinter.print(event));
            }
        }
        TlaValue[] values = inOrder(event);
        StringBuilder json = new StringBuilder(128).append('{');
        boolean first = true;
        for (int i = 0; i < values.length; i++) {
            if (i == STEP && step > 0) {
                json.append(first ? "" : ",").append("\"step\":").append(step);
                first = false;
                continue;
            }
            TlaValue value = values[i];
            if (value == null || omitted(ORDER.get(i), value)) {
                continue;
            }
            json.append(first ? "" : ",").append(quote(ORDER.get(i))).append(':');
            write(value, json);
            first = false;
        }
        return json.append('}').toString();
    }

    /** Whether {@code label}, a {@code line(event, 0)}, is a step event's. */
    static boolean isStep(String label) {
        return label.startsWith(STEP_KIND)
                && label.length() > STEP_KIND.length()
                && (label.charAt(STEP_KIND.length()) == ',' || label.charAt(STEP_KIND.length()) == '}');
    }

    /**
     * {@code line(event, step)} from {@code line(event, 0)}, the event's label, without writing the event again; empty
     * for a step event with a schema (only the topology line has one in the spec), whose number would go after it, or
     * with a step field of its own, which the number replaces (the spec's events have none).
     */
    static java.util.Optional<String> withStep(String label, long step) {
        if (step <= 0 || !isStep(label)) {
            return java.util.Optional.of(label);
        }
        String rest = label.substring(STEP_KIND.length());
        if (rest.startsWith(",\"schema\":") || rest.startsWith(",\"step\":")) {
            return java.util.Optional.empty(); // the number goes after a schema, or replaces the event's own
        }
        return java.util.Optional.of(STEP_KIND + ",\"step\":" + step + rest);
    }

    /** Absent evidence is no field at all; empty request lists may be omitted (protocol §5), and are. */
    private static boolean omitted(String name, TlaValue value) {
        if (value instanceof TlaValue.TlaModelValue(String model) && model.equals("Absent")) {
            return true;
        }
        return (name.equals("new") || name.equals("cached") || name.equals("preempted"))
                && value instanceof TlaValue.TlaSeq(List<TlaValue> elements)
                && elements.isEmpty();
    }

    static void write(TlaValue value, StringBuilder json) {
        switch (value) {
            case TlaValue.TlaInt(long number) -> json.append(number);
            case TlaValue.TlaString(String text) -> json.append(quote(text));
            case TlaValue.TlaBool(boolean bool) -> json.append(bool);
            case TlaValue.TlaModelValue(String name) ->
                    json.append(
                            switch (name) {
                                case "JsonNull" -> "null";
                                case "JsonText" -> "\"text\"";
                                case "JsonTrue" -> "true";
                                case "JsonInt" -> "7";
                                case "JsonNumber" -> "1.5";
                                case "JsonList" -> "[]";
                                case "JsonObject" -> "{}";
                                default ->
                                        throw new IllegalArgumentException("model value " + name + " has no JSON form");
                            });
            case TlaValue.TlaSeq(List<TlaValue> elements) -> list(elements, json);
            case TlaValue.TlaSet(List<TlaValue> elements) -> list(elements, json);
            case TlaValue.TlaRecord record -> {
                json.append('{');
                boolean first = true;
                TlaValue[] values = inOrder(record);
                for (int i = 0; i < values.length; i++) {
                    if (values[i] != null) {
                        json.append(first ? "" : ",").append(quote(ORDER.get(i))).append(':');
                        write(values[i], json);
                        first = false;
                    }
                }
                for (TlaValue.Field field : record.fields()) {
                    if (!PLACE.containsKey(field.name())) {
                        json.append(first ? "" : ",").append(quote(field.name())).append(':');
                        write(field.value(), json);
                        first = false;
                    }
                }
                json.append('}');
            }
            case TlaValue.TlaFunction function -> {
                json.append('{');
                boolean first = true;
                for (TlaValue.Pair pair : function.pairs()) {
                    if (!(pair.key() instanceof TlaValue.TlaString(String key))) {
                        throw new IllegalArgumentException(
                                "a JSON object needs string keys: " + TlaValuePrinter.print(function));
                    }
                    json.append(first ? "" : ",").append(quote(key)).append(':');
                    write(pair.value(), json);
                    first = false;
                }
                json.append('}');
            }
        }
    }

    private static void list(List<TlaValue> elements, StringBuilder json) {
        json.append('[');
        for (int i = 0; i < elements.size(); i++) {
            json.append(i == 0 ? "" : ",");
            write(elements.get(i), json);
        }
        json.append(']');
    }

    static String quote(String text) {
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\t' -> quoted.append("\\t");
                default -> {
                    if (c < 0x20) {
                        quoted.append(String.format("\\u%04x", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }
}
