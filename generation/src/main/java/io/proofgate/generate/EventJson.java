package io.proofgate.generate;

import io.proofgate.value.TlaValue;
import io.proofgate.value.TlaValuePrinter;
import java.util.List;

/**
 * Writes the spec's {@code lastEvent} records as replay lines (protocol §5). The encoding table is
 * docs/spec.md's: TLA+ sequences are JSON lists, records and functions on strings are objects,
 * and model values stand for JSON that TLA+ has no literal for, or that would be compared with
 * strings: {@code Absent} (the field is omitted), {@code JsonNull}, {@code JsonText} (the string
 * "text"), {@code JsonTrue}, {@code JsonInt} (7), {@code JsonNumber} (1.5), {@code JsonList} ([])
 * and {@code JsonObject} ({}).
 */
final class EventJson {

    /** Field order of each event and request object, protocol §5's. */
    private static final List<String> ORDER = List.of("kind", "schema", "step", "tp_degree", "hash_block_size",
            "min_span_tokens", "max_span_tokens", "groups", "policy", "block_tokens", "window_tokens", "id", "rank",
            "digest", "prompt_tokens", "computed", "scheduled", "block_ids", "new_block_ids", "resumed", "new", "cached",
            "preempted", "recurrent_boundary_blocks");

    private EventJson() {}

    /** The replay line for an event record, with {@code step} inserted for step events (the spec has no step numbers). */
    static String line(TlaValue.TlaRecord event, long step) {
        StringBuilder json = new StringBuilder("{");
        boolean first = true;
        for (String name : ORDER) {
            if (name.equals("step") && step > 0) {
                json.append(first ? "" : ",").append("\"step\":").append(step);
                first = false;
                continue;
            }
            var value = event.get(name);
            if (value.isEmpty() || omitted(name, value.get())) {
                continue;
            }
            json.append(first ? "" : ",").append(quote(name)).append(':');
            write(value.get(), json);
            first = false;
        }
        for (TlaValue.Field field : event.fields()) {
            if (!ORDER.contains(field.name())) {
                throw new IllegalArgumentException("event field \"" + field.name() + "\" has no place in a replay line: "
                        + TlaValuePrinter.print(event));
            }
        }
        return json.append('}').toString();
    }

    /** Absent evidence is no field at all; empty request lists may be omitted (protocol §5), and are. */
    private static boolean omitted(String name, TlaValue value) {
        if (value instanceof TlaValue.TlaModelValue(String model) && model.equals("Absent")) {
            return true;
        }
        return (name.equals("new") || name.equals("cached") || name.equals("preempted"))
                && value instanceof TlaValue.TlaSeq(List<TlaValue> elements) && elements.isEmpty();
    }

    static void write(TlaValue value, StringBuilder json) {
        switch (value) {
            case TlaValue.TlaInt(long number) -> json.append(number);
            case TlaValue.TlaString(String text) -> json.append(quote(text));
            case TlaValue.TlaBool(boolean bool) -> json.append(bool);
            case TlaValue.TlaModelValue(String name) -> json.append(switch (name) {
                case "JsonNull" -> "null";
                case "JsonText" -> "\"text\"";
                case "JsonTrue" -> "true";
                case "JsonInt" -> "7";
                case "JsonNumber" -> "1.5";
                case "JsonList" -> "[]";
                case "JsonObject" -> "{}";
                default -> throw new IllegalArgumentException("model value " + name + " has no JSON form");
            });
            case TlaValue.TlaSeq(List<TlaValue> elements) -> list(elements, json);
            case TlaValue.TlaSet(List<TlaValue> elements) -> list(elements, json);
            case TlaValue.TlaRecord record -> {
                json.append('{');
                boolean first = true;
                for (String name : ORDER) {
                    var field = record.get(name);
                    if (field.isPresent()) {
                        json.append(first ? "" : ",").append(quote(name)).append(':');
                        write(field.get(), json);
                        first = false;
                    }
                }
                for (TlaValue.Field field : record.fields()) {
                    if (!ORDER.contains(field.name())) {
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
                        throw new IllegalArgumentException("a JSON object needs string keys: " + TlaValuePrinter.print(function));
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
