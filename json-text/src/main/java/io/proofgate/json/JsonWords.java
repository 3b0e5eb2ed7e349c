package io.proofgate.json;

import com.fasterxml.jackson.core.JsonProcessingException;

import io.proofgate.words.Outside;

import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JSON parser's complaints in the project's words, for every reader of outside JSON (logs, shard and result files,
 * adapters' answers, the catalogue of models). The parser's own text names its classes and features, suggests
 * reconfiguring it, and quotes the input raw (a control character of the input would reach the terminal), so none of it
 * is passed on: each known complaint is rewritten, the input's characters only through {@link Outside}, and a complaint
 * not known here reads "not well-formed" (fail closed: a new parser version can add words, not leak them).
 */
public final class JsonWords {

    private record Rewrite(Pattern pattern, Function<Matcher, String> words) {}

    /** The parser's description of one character: {@code 'x' (code 120 / 0x78)} or {@code (CTRL-CHAR, code 27)}. */
    private static final String CHARACTER = "(?:'.{1,2}' \\(|\\(CTRL-CHAR, )code (\\d+)[^)]*\\)";

    private static final List<Rewrite> REWRITES =
            List.of(
                    rewrite(
                            "^Document nesting depth \\((\\d+)\\) exceeds the maximum allowed \\((\\d+).*",
                            m -> "values nest deeper than " + m.group(2) + " levels"),
                    rewrite(
                            "^String value length \\((\\d+)\\) exceeds the maximum allowed \\((\\d+).*",
                            m -> "a string is longer than " + m.group(2) + " characters"),
                    rewrite(
                            "^Number value length \\((\\d+)\\) exceeds the maximum allowed \\((\\d+).*",
                            m -> "a number has more than " + m.group(2) + " digits"),
                    rewrite(
                            "^Name length \\((\\d+)\\) exceeds the maximum allowed \\((\\d+).*",
                            m -> "a field name is longer than " + m.group(2) + " characters"),
                    rewrite(
                            "^Illegal unquoted character \\(\\(CTRL-CHAR, code (\\d+)\\)\\).*",
                            m -> "a control character (code " + m.group(1) + ") inside a string must be escaped"),
                    rewrite(
                            "^Illegal character \\(\\(CTRL-CHAR, code (\\d+)\\)\\).*",
                            m -> "a control character (code " + m.group(1) + ") outside a string"),
                    rewrite(
                            "^Non-standard token '(NaN|Infinity|\\+Infinity|-Infinity|\\+INF|-INF|INF)'.*",
                            m -> m.group(1) + " is not a JSON value"),
                    rewrite(
                            "^Unexpected end-of-input: expected close marker for Object"
                                    + " \\(start marker at line (\\d+), column (\\d+)\\).*",
                            m ->
                                    "the input ends inside the object that starts at line "
                                            + m.group(1)
                                            + ", column "
                                            + m.group(2)),
                    rewrite(
                            "^Unexpected end-of-input: expected close marker for Array"
                                    + " \\(start marker at line (\\d+), column (\\d+)\\).*",
                            m ->
                                    "the input ends inside the list that starts at line "
                                            + m.group(1)
                                            + ", column "
                                            + m.group(2)),
                    rewrite(
                            "^Unexpected end-of-input.*(?:closing quote|String value).*",
                            m -> "the input ends inside a string"),
                    rewrite("^Unexpected end-of-input.*", m -> "the input ends inside a JSON value"),
                    rewrite(
                            "^Unrecognized token '(.*)': was expecting.*",
                            m -> "an unknown word " + Outside.excerpt(m.group(1))),
                    rewrite(
                            "^Invalid numeric value: Leading zeroes not allowed.*",
                            m -> "a number with a leading zero"),
                    rewrite("^Invalid numeric value: .*", m -> "not a JSON number"),
                    rewrite(
                            "^Numeric value \\(.*\\) out of range of .*",
                            m -> "a number beyond the range this field holds"),
                    rewrite(
                            "^Unrecognized character escape " + CHARACTER + ".*",
                            m -> "an unknown escape " + Outside.quoted("\\" + character(m.group(1))) + " in a string"),
                    rewrite(
                            "^Unexpected close marker '(.)': expected '(.)'.*",
                            m ->
                                    "found "
                                            + Outside.quoted(m.group(1))
                                            + " where "
                                            + Outside.quoted(m.group(2))
                                            + " must close the "
                                            + ("}".equals(m.group(2)) ? "open object" : "open list")),
                    rewrite(
                            "^Unexpected close marker '(.)'.*",
                            m -> "found " + Outside.quoted(m.group(1)) + " with nothing open for it to close"),
                    rewrite(
                            "^Unexpected character \\(" + CHARACTER + "\\):? ?(.*)",
                            m -> expected(m.group(2)) + ", found " + Outside.quoted(character(m.group(1)))),
                    rewrite(
                            "^Duplicate field '(.*)'.*",
                            m -> "the key " + Outside.excerpt(m.group(1)) + " appears twice in an object"),
                    rewrite(
                            "^Duplicate Object property \"(.*)\".*",
                            m -> "the key " + Outside.excerpt(m.group(1)) + " appears twice in an object"),
                    rewrite("^Trailing token .*", m -> "more text after the JSON value"),
                    rewrite("^Invalid UTF-8.*", m -> "invalid UTF-8"),
                    rewrite("^No content to map due to end-of-input.*", m -> "no JSON value"),
                    rewrite("^Unexpected character.*", m -> "a character that cannot stand here"));

    /** A complaint not known here: said in no words of the parser's. */
    static final String UNKNOWN = "not well-formed";

    /**
     * Phrases of the parser's that no message may hold: what the fuzz targets of every reader of outside JSON assert,
     * with {@link Outside#isPlain}.
     */
    public static final List<String> PARSER_PHRASES =
            List.of(
                    "Unrecognized token",
                    "was expecting",
                    "Invalid numeric value",
                    "Unexpected character",
                    "JsonParseException",
                    "com.fasterxml",
                    "CTRL-CHAR",
                    "[Source:",
                    "Illegal character",
                    "StreamReadConstraints",
                    "JsonReadFeature",
                    "DeserializationFeature",
                    "Duplicate field",
                    "end-of-input",
                    "Leading zeroes",
                    "Trailing token",
                    "MismatchedInput");

    /**
     * Whether a message holds words of the parser's ({@link #PARSER_PHRASES}) outside the quoted input it cites (a log
     * may well hold the word "Unrecognized token").
     */
    public static boolean holdsParserWords(String message) {
        String lower = withoutQuotedText(message).toLowerCase(java.util.Locale.ROOT);
        return PARSER_PHRASES.stream().anyMatch(phrase -> lower.contains(phrase.toLowerCase(java.util.Locale.ROOT)));
    }

    /**
     * The message with the text inside {@link Outside#quoted} quotes left out. A loop, not a regular expression: the
     * JDK's matcher recurses once a character on such an alternation and overflowed the stack on a 200-character word
     * (found by fuzzing).
     */
    private static String withoutQuotedText(String message) {
        StringBuilder out = new StringBuilder(message.length());
        boolean quoted = false;
        for (int i = 0; i < message.length(); i++) {
            char c = message.charAt(i);
            if (quoted && c == '\\') {
                i++; // the escaped character
            } else if (c == '"') {
                quoted = !quoted;
                out.append(c);
            } else if (!quoted) {
                out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * Whether a message is fit for a terminal: nothing escaped by {@link Outside} left raw, none of the parser's words.
     */
    public static boolean fitForATerminal(String message) {
        return Outside.isPlain(message) && !holdsParserWords(message);
    }

    private JsonWords() {}

    private static Rewrite rewrite(String pattern, Function<Matcher, String> words) {
        return new Rewrite(Pattern.compile(pattern, Pattern.DOTALL), words);
    }

    /** The parser's description of the location of a start marker, in words; the error names the file. */
    private static final Pattern SOURCE = Pattern.compile("\\[Source: [^;\\]]*; line: (\\d+), column: (\\d+)\\]");

    /** What the parser's exception says is wrong, in the project's words. */
    public static String of(JsonProcessingException e) {
        return words(e.getOriginalMessage());
    }

    /**
     * As {@link #of(JsonProcessingException)}, for a parser that counts its lines {@code lineShift} below the input's
     * (one that began reading at a later line): the lines it names are the input's.
     */
    public static String of(JsonProcessingException e, long lineShift) {
        return words(e.getOriginalMessage(), lineShift);
    }

    /** A message of the parser, in the project's words; "not well-formed" for one not known here. */
    public static String words(String parserMessage) {
        return words(parserMessage, 0);
    }

    private static String words(String parserMessage, long lineShift) {
        if (parserMessage == null) {
            return UNKNOWN;
        }
        String text =
                SOURCE.matcher(parserMessage)
                        .replaceAll(m -> "line " + (Long.parseLong(m.group(1)) + lineShift) + ", column " + m.group(2))
                        .strip();
        for (Rewrite rewrite : REWRITES) {
            Matcher m = rewrite.pattern().matcher(text);
            if (m.matches()) {
                return rewrite.words().apply(m);
            }
        }
        return UNKNOWN;
    }

    private static String character(String code) {
        try {
            int c = Integer.parseInt(code);
            return Character.isValidCodePoint(c) ? new String(Character.toChars(c)) : "?";
        } catch (NumberFormatException e) {
            return "?";
        }
    }

    /** What the parser was waiting for, from its comment after an unexpected character. */
    private static String expected(String comment) {
        if (comment.contains("double-quote to start field name")) {
            return "expected a field name in double quotes";
        } else if (comment.contains("comma to separate Object entries")) {
            return "expected a comma or '}' after a field";
        } else if (comment.contains("comma to separate Array entries")) {
            return "expected a comma or ']' after an element of a list";
        } else if (comment.contains("colon to separate field name and value")) {
            return "expected a colon after a field name";
        } else if (comment.contains("comment")) {
            return "comments are not JSON";
        } else if (comment.contains("root-level values")) {
            return "expected white space between two values";
        } else if (comment.contains("minus sign")) {
            return "expected a digit after a minus sign";
        } else if (comment.contains("Decimal point")) {
            return "expected a digit after a decimal point";
        } else if (comment.contains("Exponent")) {
            return "expected a digit in an exponent";
        } else if (comment.contains("closing quote")) {
            return "expected the end of a string";
        } else if (comment.contains("value")) {
            return "expected a value";
        }
        return "a character that cannot stand here";
    }
}
