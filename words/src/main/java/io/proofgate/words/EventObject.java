package io.proofgate.words;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One object of an event line (protocol §5), an event or a request or group inside one, written with its fields in the
 * protocol's order whatever order they are given in: every writer of replay logs (the generated scenarios, the
 * namespace probes, the synthetic log) builds its lines here, so that the field order and the escaping of strings have
 * one home. Fields the protocol does not name follow the others, in the order given.
 */
public final class EventObject {

    /** The fields of every event, request and group object, in protocol §5's order. */
    public static final List<String> ORDER =
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

    private static final Map<String, Integer> PLACE = places();

    /** A step event's number, as this class writes it: right after its kind. */
    private static final Pattern STEP_NUMBER = Pattern.compile("^\\{\"kind\":\"step\",\"step\":\\d+,");

    /** Each named field's key as it is written, {@code "kind":}, made once (the synthetic log writes millions). */
    private static final String[] KEY = ORDER.stream().map(name -> quote(name) + ":").toArray(String[]::new);

    /** Each named field's JSON text, at its place in {@link #ORDER}; null where not given. */
    private final String[] named = new String[ORDER.size()];

    /** Fields outside {@link #ORDER}, written after the named ones; null while there is none. */
    private StringBuilder others;

    private EventObject() {}

    private static Map<String, Integer> places() {
        Map<String, Integer> places = new HashMap<>();
        for (int i = 0; i < ORDER.size(); i++) {
            places.put(ORDER.get(i), i);
        }
        return Map.copyOf(places);
    }

    /** An event of this kind: {@code {"kind":"step",...}}. */
    public static EventObject event(String kind) {
        return new EventObject().text("kind", kind);
    }

    /** An object inside an event: a request, a group. */
    public static EventObject object() {
        return new EventObject();
    }

    /**
     * A step event's line without its step number, as the spec's edges label events (the spec has no step numbers); any
     * other line as it is.
     */
    public static String withoutStep(String line) {
        return STEP_NUMBER.matcher(line).replaceFirst("{\"kind\":\"step\",");
    }

    /** Whether the protocol names this field of an event or of an object inside one. */
    public static boolean named(String name) {
        return PLACE.containsKey(name);
    }

    public EventObject text(String name, String value) {
        return json(name, quote(value));
    }

    public EventObject number(String name, long value) {
        return json(name, Long.toString(value));
    }

    public EventObject flag(String name, boolean value) {
        return json(name, Boolean.toString(value));
    }

    /** A list of block-id lists, one per group: {@code [[1,2],[3]]}. */
    public EventObject ids(String name, long[][] lists) {
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < lists.length; i++) {
            json.append(i == 0 ? "[" : ",[");
            for (int j = 0; j < lists[i].length; j++) {
                json.append(j == 0 ? "" : ",").append(lists[i][j]);
            }
            json.append(']');
        }
        return json(name, json.append(']').toString());
    }

    /** A list of objects. */
    public EventObject objects(String name, List<EventObject> objects) {
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < objects.size(); i++) {
            json.append(i == 0 ? "" : ",").append(objects.get(i));
        }
        return json(name, json.append(']').toString());
    }

    /** A list of strings, request ids: {@code ["r1","r2"]}. */
    public EventObject texts(String name, List<String> values) {
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < values.size(); i++) {
            json.append(i == 0 ? "" : ",").append(quote(values.get(i)));
        }
        return json(name, json.append(']').toString());
    }

    /**
     * An object keyed by request id, each value JSON text, in the map's order (a step's {@code
     * recurrent_boundary_blocks}).
     */
    public EventObject byId(String name, Map<String, String> jsonById) {
        return json(name, keyed(jsonById));
    }

    /** A JSON object whose keys are data, not field names (request ids), each value JSON text, in the map's order. */
    public static String keyed(Map<String, String> jsonByKey) {
        StringBuilder json = new StringBuilder("{");
        jsonByKey.forEach(
                (key, value) ->
                        json.append(json.length() == 1 ? "" : ",").append(quote(key)).append(':').append(value));
        return json.append('}').toString();
    }

    /** A field whose value is already JSON text. A name given twice is a mistake of the caller. */
    public EventObject json(String name, String json) {
        Integer place = PLACE.get(name);
        if (place == null) {
            if (others == null) {
                others = new StringBuilder();
            }
            others.append(',').append(quote(name)).append(':').append(json);
        } else if (named[place] != null) {
            throw new IllegalArgumentException("field \"" + name + "\" given twice");
        } else {
            named[place] = json;
        }
        return this;
    }

    /** The object's JSON text, without a newline. */
    @Override
    public String toString() {
        StringBuilder json = new StringBuilder(128).append('{');
        for (int i = 0; i < named.length; i++) {
            if (named[i] != null) {
                json.append(json.length() == 1 ? "" : ",").append(KEY[i]).append(named[i]);
            }
        }
        if (others != null) {
            json.append(others, json.length() == 1 ? 1 : 0, others.length());
        }
        return json.append('}').toString();
    }

    /**
     * {@code text} as a JSON string, escaped as Jackson's generator escapes it (replay's verdict lines), so that every
     * JSON line proofgate writes says one string in the same bytes: the quote and the backslash escaped, {@code \b},
     * {@code \t}, {@code \n}, {@code \f} and {@code \r} by their short escapes, the other control characters as {@code
     * \}{@code u00XX} (upper-case hex), each half of a surrogate pair as {@code \}{@code uXXXX} (Jackson's UTF-8
     * generator writes a character beyond U+FFFF so), everything else as it is.
     */
    public static String quote(String text) {
        if (plain(text)) {
            return '"' + text + '"'; // the common case: ids, digests, policies
        }
        StringBuilder quoted = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\b' -> quoted.append("\\b");
                case '\t' -> quoted.append("\\t");
                case '\n' -> quoted.append("\\n");
                case '\f' -> quoted.append("\\f");
                case '\r' -> quoted.append("\\r");
                default -> {
                    if (c < 0x20 || Character.isSurrogate(c)) {
                        quoted.append(String.format("\\u%04X", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }

    /** Whether {@code text} holds nothing {@link #quote} escapes. */
    private static boolean plain(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c == '"' || c == '\\' || Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
