package io.proofgate.replay;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JSON parser's complaints in the project's words: what is wrong with the input, without the
 * parser's class and feature names, source markers or advice to reconfigure it.
 */
final class JsonProblems {

    private record Rewrite(Pattern pattern, String words) {}

    private static final List<Rewrite> REWRITES = List.of(
            new Rewrite(Pattern.compile("^Document nesting depth \\((\\d+)\\) exceeds the maximum allowed \\((\\d+).*"),
                    "values nest deeper than $2 levels"),
            new Rewrite(Pattern.compile("^String value length \\((\\d+)\\) exceeds the maximum allowed \\((\\d+).*"),
                    "a string is longer than $2 characters"),
            new Rewrite(Pattern.compile("^Number value length \\((\\d+)\\) exceeds the maximum allowed \\((\\d+).*"),
                    "a number has more than $2 digits"),
            new Rewrite(Pattern.compile("^Name length \\((\\d+)\\) exceeds the maximum allowed \\((\\d+).*"),
                    "a field name is longer than $2 characters"),
            new Rewrite(Pattern.compile("^Illegal unquoted character \\(\\(CTRL-CHAR, code (\\d+)\\)\\).*"),
                    "a control character (code $1) inside a string must be escaped"),
            new Rewrite(Pattern.compile("^Non-standard token '([^']*)'.*"), "$1 is not a JSON value"),
            new Rewrite(Pattern.compile("^Unexpected end-of-input: expected close marker for Object"
                    + " \\(start marker at line (\\d+), column (\\d+)\\).*"),
                    "the input ends inside the object that starts at line $1, column $2"),
            new Rewrite(Pattern.compile("^Unexpected end-of-input: expected close marker for Array"
                    + " \\(start marker at line (\\d+), column (\\d+)\\).*"),
                    "the input ends inside the list that starts at line $1, column $2"),
            new Rewrite(Pattern.compile("^Unexpected end-of-input.*"), "the input ends inside a JSON value"));

    /** The parser names its source in locations; the error already names the file. */
    private static final Pattern SOURCE = Pattern.compile("\\[Source: [^;\\]]*; line: (\\d+), column: (\\d+)\\]");
    /** The location the parser appends; the error's own FILE:LINE:COLUMN says it. */
    private static final Pattern TRAILING_LOCATION = Pattern.compile("\\s+at line \\d+, column \\d+$");
    private static final Pattern ADVICE = Pattern.compile("[:;,]?\\s*(\\(|)?\\s*(enable|disable)\\s+`[^`]*`[^)]*\\)?");
    private static final Pattern BACKTICKED = Pattern.compile("\\s*\\(?[^()]*`[^`]*`[^()]*\\)?");

    private JsonProblems() {}

    static String words(String parserMessage) {
        String text = SOURCE.matcher(parserMessage.replace('\n', ' ')).replaceAll("line $1, column $2").strip();
        text = TRAILING_LOCATION.matcher(text).replaceAll("");
        for (Rewrite rewrite : REWRITES) {
            Matcher m = rewrite.pattern().matcher(text);
            if (m.matches()) {
                return m.replaceFirst(rewrite.words());
            }
        }
        text = ADVICE.matcher(text).replaceAll("");
        text = BACKTICKED.matcher(text).replaceAll("");
        return text.strip();
    }
}
