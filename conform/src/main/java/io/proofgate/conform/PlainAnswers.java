package io.proofgate.conform;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import io.proofgate.format.StateLine;
import io.proofgate.words.Counter;

import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The answer lines nearly every answer is made of (plan, rejected, retired, state and end), read in one pass of a
 * streaming parser, without the JSON tree {@link AnswerReader} builds. Only a plain line is read here: a kind first,
 * every field the kind names there once with its type, any other field skipped. Anything else (another kind, a missing
 * or mistyped field, a key twice, text after the object, anything the parser refuses) is null, and {@link AnswerReader}
 * reads the line as a tree instead: it alone says what is wrong with a line, so this class changes how fast a
 * well-formed answer is read, never what any line means or what an error says.
 */
final class PlainAnswers {

    /** The reader's factory: the same limits, and a key twice in an object is the parser's error too. */
    private static final JsonFactory FACTORY = Json.READER.getFactory();

    /** The longest string the parser takes: a line no longer than that holds none longer. */
    private static final int MAX_STRING = FACTORY.streamReadConstraints().getMaxStringLength();

    private PlainAnswers() {}

    /** The line as {@link AnswerReader#read} reads it, or null where this class does not read it. */
    static Line read(String text) {
        if (text.length() > MAX_STRING) {
            return null; // a skipped string is not held to the parser's length limit, which the tree's reading applies
        }
        try (JsonParser parser = FACTORY.createParser(text)) {
            if (parser.nextToken() != JsonToken.START_OBJECT
                    || !"kind".equals(parser.nextFieldName())
                    || parser.nextToken() != JsonToken.VALUE_STRING) {
                return null;
            }
            Line line =
                    switch (parser.getText()) {
                        case "plan" -> plan(parser);
                        case "rejected" -> rejected(parser);
                        case "retired" -> retired(parser);
                        case "state" -> state(parser);
                        case "end" -> skipRest(parser) ? new Line.End() : null;
                        default -> null;
                    };
            return line != null && parser.nextToken() == null ? line : null;
        } catch (IOException | RuntimeException e) {
            return null; // the tree's reading says what is wrong, in its words
        }
    }

    /** A field's value, as the tree's reading turns it into text; null where it has another type. */
    private static String text(JsonParser parser) throws IOException {
        return parser.nextToken() == JsonToken.VALUE_STRING ? parser.getText() : null;
    }

    /** An integer as the tree's reading writes it (as {@link BigInteger#toString()} does: {@code -0} is {@code 0}). */
    private static String integer(JsonParser parser) throws IOException {
        return parser.nextToken() == JsonToken.VALUE_NUMBER_INT ? number(parser) : null;
    }

    private static String number(JsonParser parser) throws IOException {
        return switch (parser.getNumberType()) {
            case INT, LONG -> Long.toString(parser.getLongValue());
            default -> parser.getBigIntegerValue().toString();
        };
    }

    /**
     * A list of lists of integers, each {@code width} long unless it is -1, as compact JSON; null where it is not one.
     */
    private static String integerLists(JsonParser parser, int width) throws IOException {
        if (parser.nextToken() != JsonToken.START_ARRAY) {
            return null;
        }
        StringBuilder out = new StringBuilder("[");
        JsonToken token;
        while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
            if (token != JsonToken.START_ARRAY) {
                return null;
            }
            out.append(out.length() == 1 ? "[" : ",[");
            int size = 0;
            while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
                if (token != JsonToken.VALUE_NUMBER_INT) {
                    return null;
                }
                out.append(size++ == 0 ? "" : ",").append(number(parser));
            }
            if (width >= 0 && size != width) {
                return null;
            }
            out.append(']');
        }
        return out.append(']').toString();
    }

    /** [group, block] pairs in order of group then block, as the tree's reading writes a latch. */
    private static String sortedPairs(JsonParser parser) throws IOException {
        if (parser.nextToken() != JsonToken.START_ARRAY) {
            return null;
        }
        List<BigInteger[]> pairs = new ArrayList<>(2);
        JsonToken token;
        while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
            if (token != JsonToken.START_ARRAY || parser.nextToken() != JsonToken.VALUE_NUMBER_INT) {
                return null;
            }
            BigInteger group = parser.getBigIntegerValue();
            if (parser.nextToken() != JsonToken.VALUE_NUMBER_INT) {
                return null;
            }
            BigInteger block = parser.getBigIntegerValue();
            if (parser.nextToken() != JsonToken.END_ARRAY) {
                return null;
            }
            pairs.add(new BigInteger[] {group, block});
        }
        pairs.sort(
                (a, b) -> {
                    int byGroup = a[0].compareTo(b[0]);
                    return byGroup != 0 ? byGroup : a[1].compareTo(b[1]);
                });
        StringBuilder out = new StringBuilder("[");
        for (BigInteger[] pair : pairs) {
            out.append(out.length() == 1 ? "[" : ",[").append(pair[0]).append(',').append(pair[1]).append(']');
        }
        return out.append(']').toString();
    }

    /** Skips the rest of the object the parser is in; false where it is not well-formed (null is never returned). */
    private static boolean skipRest(JsonParser parser) throws IOException {
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            parser.nextToken();
            parser.skipChildren();
        }
        return parser.currentToken() == JsonToken.END_OBJECT;
    }

    private static Line plan(JsonParser parser) throws IOException {
        String id = null;
        String step = null;
        String digest = null;
        String span = null;
        String blocks = null;
        String recurrent = null;
        String name;
        while ((name = parser.nextFieldName()) != null) {
            switch (name) {
                case "id" -> id = once(id, text(parser));
                case "step" -> step = once(step, integer(parser));
                case "digest" -> digest = once(digest, text(parser));
                case "span" -> span = once(span, integer(parser));
                case "blocks_by_group" -> blocks = once(blocks, integerLists(parser, -1));
                case "recurrent" -> recurrent = once(recurrent, integerLists(parser, 2));
                case "copy", "pinned" -> {
                    return null; // how the workers copy it: read by the tree, which checks the values
                }
                default -> skipValue(parser);
            }
        }
        return all(id, step, digest, span, blocks, recurrent)
                ? new Line.Plan(id, step, digest, span, blocks, recurrent)
                : null;
    }

    private static Line rejected(JsonParser parser) throws IOException {
        String id = null;
        String step = null;
        String code = null;
        String reason = null;
        Map<String, String> integers = new TreeMap<>();
        String name;
        while ((name = parser.nextFieldName()) != null) {
            switch (name) {
                case "id" -> id = once(id, text(parser));
                case "step" -> step = once(step, integer(parser));
                case "code" -> code = once(code, text(parser));
                case "reason" -> reason = once(reason, text(parser));
                case "observed", "target", "group", "block" -> integers.put(name, once(null, integer(parser)));
                default -> skipValue(parser);
            }
        }
        // an unknown code is read again as a tree, which says what is wrong
        return all(id, step, code) && AnswerReader.CODES.contains(code)
                ? AnswerReader.rejected(id, step, code, reason == null ? "" : reason, integers)
                : null;
    }

    private static Line retired(JsonParser parser) throws IOException {
        String id = null;
        String step = null;
        String cause = null;
        String name;
        while ((name = parser.nextFieldName()) != null) {
            switch (name) {
                case "id" -> id = once(id, text(parser));
                case "step" -> step = once(step, integer(parser));
                case "cause" -> cause = once(cause, text(parser));
                default -> skipValue(parser);
            }
        }
        return all(id, step, cause) && AnswerReader.CAUSES.contains(cause) ? new Line.Retired(id, step, cause) : null;
    }

    private static Line state(JsonParser parser) throws IOException {
        Map<String, String> stores = null;
        Map<String, String> digests = null;
        String counters = null;
        String name;
        while ((name = parser.nextFieldName()) != null) {
            switch (name) {
                case "pending" -> stores = once(stores, pending(parser));
                case "held" -> digests = once(digests, held(parser));
                case "counters" -> counters = once(counters, counters(parser));
                default -> skipValue(parser);
            }
        }
        if (!all(stores, digests, counters)) {
            return null;
        }
        List<String> lines = new ArrayList<>(stores.size() + digests.size() + 1);
        if (stores.isEmpty()) {
            lines.add(new StateLine.NoPending().text());
        }
        lines.addAll(stores.values());
        lines.addAll(digests.values());
        lines.add(counters);
        return new Line.State(List.copyOf(lines), List.copyOf(stores.keySet()));
    }

    /** The pending stores' state lines by request id; null where one is not plain, or an id comes twice. */
    private static Map<String, String> pending(JsonParser parser) throws IOException {
        if (parser.nextToken() != JsonToken.START_ARRAY) {
            return null;
        }
        Map<String, String> stores = new TreeMap<>();
        JsonToken token;
        while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
            if (token != JsonToken.START_OBJECT) {
                return null;
            }
            String id = null;
            String done = null;
            String table = null;
            String latch = null;
            String name;
            while ((name = parser.nextFieldName()) != null) {
                switch (name) {
                    case "id" -> id = once(id, text(parser));
                    case "done" -> done = once(done, integer(parser));
                    case "table" -> table = once(table, integerLists(parser, -1));
                    case "latch" -> latch = once(latch, sortedPairs(parser));
                    default -> skipValue(parser);
                }
            }
            if (!all(id, done, table, latch)
                    || stores.put(id, new StateLine.Pending(id, done, table, latch).text()) != null) {
                return null;
            }
        }
        return stores;
    }

    /** The held digests' state lines by digest (a digest with no rank has none); null where one is not plain. */
    private static Map<String, String> held(JsonParser parser) throws IOException {
        if (parser.nextToken() != JsonToken.START_OBJECT) {
            return null;
        }
        Map<String, String> digests = new TreeMap<>();
        String digest;
        while ((digest = parser.nextFieldName()) != null) {
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                return null;
            }
            List<BigInteger> ranks = new ArrayList<>(2);
            JsonToken token;
            while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
                if (token != JsonToken.VALUE_NUMBER_INT) {
                    return null;
                }
                ranks.add(parser.getBigIntegerValue());
            }
            ranks.sort(null);
            if (!ranks.isEmpty()) {
                digests.put(digest, new StateLine.Held(digest, ranks.toString().replace(" ", "")).text());
            }
        }
        return digests;
    }

    /** The counters' state line; null where it is not plain. */
    private static String counters(JsonParser parser) throws IOException {
        if (parser.nextToken() != JsonToken.START_OBJECT) {
            return null;
        }
        String plans = null;
        String rejected = null;
        String skipped = null;
        String retired = null;
        String name;
        while ((name = parser.nextFieldName()) != null) {
            switch (Counter.of(name).orElse(null)) {
                case PLANS -> plans = once(plans, integer(parser));
                case REJECTED -> rejected = once(rejected, integer(parser));
                case STORE_SKIPPED_QUORUM -> skipped = once(skipped, integer(parser));
                case RETIRED_FINISHED -> retired = once(retired, integer(parser));
                case null, default ->
                        skipValue(parser); // a state does not compare ignored_held; unknown names are skipped
            }
        }
        return all(plans, rejected, skipped, retired)
                ? new StateLine.Counters(plans, rejected, skipped, retired).text()
                : null;
    }

    private static void skipValue(JsonParser parser) throws IOException {
        parser.nextToken();
        parser.skipChildren();
    }

    /**
     * A field's value where it was not read before; a mistyped value (null) stops the reading. A key twice is the
     * parser's own error (strict duplicate detection), so {@code before} is always null when the parser gets here;
     * checking it keeps this class right without that.
     */
    private static <T> T once(T before, T value) {
        if (before != null || value == null) {
            throw NOT_PLAIN;
        }
        return value;
    }

    private static boolean all(Object... values) {
        for (Object value : values) {
            if (value == null) {
                return false;
            }
        }
        return true;
    }

    /** Thrown, without a stack, where a line is not plain: {@link #read} then answers null. */
    private static final NotPlain NOT_PLAIN = new NotPlain();

    private static final class NotPlain extends RuntimeException {
        NotPlain() {
            super("not a plain answer line", null, false, false);
        }
    }
}
