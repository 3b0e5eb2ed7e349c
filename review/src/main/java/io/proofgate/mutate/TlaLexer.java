package io.proofgate.mutate;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a TLA+ module into tokens, with their offsets, so that a mutation can replace exactly one token (or one
 * bulleted item) and leave every other character as it was. It knows as much of TLA+'s lexical syntax as mutation
 * needs: comments (nested block comments too), strings, numbers, names, and the operators, longest first. What it does
 * not know it passes on as a one-character symbol; SANY, run by TLC on each mutant, has the last word on syntax.
 */
public final class TlaLexer {

    /** Longest first: a prefix must come after every symbol it begins. */
    private static final List<String> SYMBOLS =
            List.of(
                    "<=>", "|->", "...", "::=", "==", "=>", "=<", "<=", ">=", "/=", "/\\", "\\/", "~>", "->", "<-",
                    ":>", "@@", "<<", ">>", "..", "[]", "<>", "::", "'", "=", "#", "<", ">", "+", "-", "*", "/", "%",
                    "^", "~", "!", ".", "|", "&", "$", "?", "@", "(", ")", "[", "]", "{", "}", ",", ":", "_");

    private TlaLexer() {}

    /** The tokens of {@code text}, whitespace left out; unterminated comments and strings end at the text's end. */
    public static List<TlaToken> tokens(String text) {
        List<TlaToken> out = new ArrayList<>();
        int i = 0;
        int line = 1;
        int lineStart = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c == '\n') {
                i++;
                line++;
                lineStart = i;
                continue;
            }
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            int start = i;
            int startLine = line;
            int column = i - lineStart + 1;
            TlaToken.Kind kind;
            if (text.startsWith("\\*", i)) {
                while (i < n && text.charAt(i) != '\n') {
                    i++;
                }
                kind = TlaToken.Kind.COMMENT;
            } else if (text.startsWith("(*", i)) {
                int depth = 0;
                while (i < n) {
                    if (text.startsWith("(*", i)) {
                        depth++;
                        i += 2;
                    } else if (text.startsWith("*)", i)) {
                        depth--;
                        i += 2;
                        if (depth == 0) {
                            break;
                        }
                    } else {
                        if (text.charAt(i) == '\n') {
                            line++;
                            lineStart = i + 1;
                        }
                        i++;
                    }
                }
                kind = TlaToken.Kind.COMMENT;
            } else if (c == '"') {
                i++;
                while (i < n && text.charAt(i) != '"' && text.charAt(i) != '\n') {
                    i += text.charAt(i) == '\\' && i + 1 < n ? 2 : 1;
                }
                i = Math.min(n, i + 1);
                kind = TlaToken.Kind.STRING;
            } else if ((c == '-' || c == '=') && run(text, i, c) >= 4) {
                i += run(text, i, c);
                kind = TlaToken.Kind.RULE;
            } else if (isDigit(c)) {
                while (i < n && isDigit(text.charAt(i))) {
                    i++;
                }
                if (i < n && isWordChar(text.charAt(i))) { // 1a is a name in TLA+
                    while (i < n && isWordChar(text.charAt(i))) {
                        i++;
                    }
                    kind = TlaToken.Kind.WORD;
                } else {
                    kind = TlaToken.Kind.NUMBER;
                }
            } else if (isWordChar(c)) {
                while (i < n && isWordChar(text.charAt(i))) {
                    i++;
                }
                kind = TlaToken.Kind.WORD;
            } else if (c == '\\' && i + 1 < n && Character.isLetter(text.charAt(i + 1))) {
                i++; // \in, \notin, \cup, \div, \A, \E, \o, \X, \subseteq, ...
                while (i < n && Character.isLetter(text.charAt(i))) {
                    i++;
                }
                kind = TlaToken.Kind.SYMBOL;
            } else {
                String symbol =
                        SYMBOLS.stream().filter(s -> text.startsWith(s, start)).findFirst().orElse(String.valueOf(c));
                i += symbol.length();
                kind = TlaToken.Kind.SYMBOL;
            }
            out.add(new TlaToken(kind, text.substring(start, i), start, i, startLine, column));
        }
        return out;
    }

    private static int run(String text, int i, char c) {
        int j = i;
        while (j < text.length() && text.charAt(j) == c) {
            j++;
        }
        return j - i;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isWordChar(char c) {
        return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c);
    }
}
