package io.proofgate.generate;

import io.proofgate.value.TlaValue;
import io.proofgate.value.TlaValuePrinter;
import io.proofgate.words.EventObject;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes the spec's {@code lastEvent} records as replay lines (protocol §5). The encoding table is docs/spec.md's: TLA+
 * sequences are JSON lists, records and functions on strings are objects, and model values stand for JSON that TLA+ has
 * no literal for, or that would be compared with strings: {@code Absent} (the field is omitted), {@code JsonNull},
 * {@code JsonText} (the string "text"), {@code JsonTrue}, {@code JsonInt} (7), {@code JsonNumber} (1.5), {@code
 * JsonList} ([]) and {@code JsonObject} ({}).
 */
final class EventJson {

    private static final String STEP_KIND = "{\"kind\":\"step\"";

    private EventJson() {}

    /**
     * The replay line for an event record, with {@code step} inserted for step events (the spec has no step numbers).
     */
    static String line(TlaValue.TlaRecord event, long step) {
        EventObject line = EventObject.object();
        for (TlaValue.Field field : event.fields()) {
            if (!EventObject.named(field.name())) {
                throw new IllegalArgumentException(
                        "event field \""
                                + field.name()
                                + "\" has no place in a replay line: "
                                + TlaValuePrinter.print(event));
            }
            if (!(field.name().equals("step") && step > 0) && !omitted(field.name(), field.value())) {
                line.json(field.name(), json(field.value()));
            }
        }
        return (step > 0 ? line.number("step", step) : line).toString();
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
    static Optional<String> withStep(String label, long step) {
        if (step <= 0 || !isStep(label)) {
            return Optional.of(label);
        }
        String rest = label.substring(STEP_KIND.length());
        if (rest.startsWith(",\"schema\":") || rest.startsWith(",\"step\":")) {
            return Optional.empty(); // the number goes after a schema, or replaces the event's own
        }
        return Optional.of(STEP_KIND + ",\"step\":" + step + rest);
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

    /** A value as JSON: records through {@link EventObject}, so that their fields have protocol §5's order. */
    private static String json(TlaValue value) {
        return switch (value) {
            case TlaValue.TlaInt(long number) -> Long.toString(number);
            case TlaValue.TlaString(String text) -> EventObject.quote(text);
            case TlaValue.TlaBool(boolean bool) -> Boolean.toString(bool);
            case TlaValue.TlaModelValue(String name) ->
                    switch (name) {
                        case "JsonNull" -> "null";
                        case "JsonText" -> "\"text\"";
                        case "JsonTrue" -> "true";
                        case "JsonInt" -> "7";
                        case "JsonNumber" -> "1.5";
                        case "JsonList" -> "[]";
                        case "JsonObject" -> "{}";
                        default -> throw new IllegalArgumentException("model value " + name + " has no JSON form");
                    };
            case TlaValue.TlaSeq(List<TlaValue> elements) -> list(elements);
            case TlaValue.TlaSet(List<TlaValue> elements) -> list(elements);
            case TlaValue.TlaRecord record -> {
                EventObject object = EventObject.object();
                record.fields().forEach(field -> object.json(field.name(), json(field.value())));
                yield object.toString();
            }
            case TlaValue.TlaFunction function -> {
                Map<String, String> byKey = new LinkedHashMap<>();
                for (TlaValue.Pair pair : function.pairs()) {
                    if (!(pair.key() instanceof TlaValue.TlaString(String key))) {
                        throw new IllegalArgumentException(
                                "a JSON object needs string keys: " + TlaValuePrinter.print(function));
                    }
                    byKey.put(key, json(pair.value()));
                }
                yield EventObject.keyed(byKey);
            }
        };
    }

    private static String list(List<TlaValue> elements) {
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < elements.size(); i++) {
            json.append(i == 0 ? "" : ",").append(json(elements.get(i)));
        }
        return json.append(']').toString();
    }
}
