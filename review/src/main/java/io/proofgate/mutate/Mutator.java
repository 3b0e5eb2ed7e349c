package io.proofgate.mutate;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The mutations of a definition, one token (or one bulleted item) at a time, in text order. Mutations that could not
 * parse are avoided where that is cheap to see (an {@code =} of an EXCEPT, an {@code \in} that binds a variable, a
 * unary minus); the rest SANY rejects, and the run reports them as not compilable, outside the score.
 */
public final class Mutator {

    private static final Map<String, String> RELATIONAL =
            Map.of(
                    "<", "<=", "<=", "<", "=<", "<", "\\leq", "<", ">", ">=", ">=", ">", "\\geq", ">", "=", "#", "#",
                    "=", "/=", "=");
    private static final Map<String, String> SET =
            Map.of(
                    "\\cup",
                    "\\cap",
                    "\\cap",
                    "\\cup",
                    "\\union",
                    "\\cap",
                    "\\intersect",
                    "\\cup",
                    "\\in",
                    "\\notin",
                    "\\notin",
                    "\\in");

    /** Tokens after which a {@code -} is a unary minus. */
    private static final Set<String> BEFORE_UNARY =
            Set.of(
                    "(", "[", "{", ",", "==", "=", "#", "<", ">", "<=", ">=", "+", "-", "*", "|->", "->", ":", "<<",
                    "IF", "THEN", "ELSE", "IN", "/\\", "\\/", "~", "..");

    /** Tokens before a name that binds it ({@code \A x \in S}, {@code {x \in S : ...}}, ...). */
    private static final Set<String> BINDERS = Set.of("\\A", "\\E", "CHOOSE", "{", "[", ",");

    private Mutator() {}

    /** The mutations of {@code d}, a definition of the module whose text is {@code text}. */
    public static List<Mutation> mutations(Definition d, String text) {
        List<Mutation> out = new ArrayList<>();
        List<TlaToken> ts = d.tokens();
        TreeSet<String> strings = new TreeSet<>();
        ts.stream().filter(t -> t.kind() == TlaToken.Kind.STRING).forEach(t -> strings.add(t.text()));
        int body = bodyStart(ts);
        for (int i = body; i < ts.size(); i++) {
            TlaToken t = ts.get(i);
            switch (t.kind()) {
                case NUMBER -> {
                    long v = Long.parseLong(t.text());
                    out.add(replace(d, i, Mutation.Kind.BOUNDARY, Long.toString(v + 1)));
                    if (v > 0) {
                        out.add(replace(d, i, Mutation.Kind.BOUNDARY, Long.toString(v - 1)));
                    }
                }
                case STRING -> {
                    String next = strings.higher(t.text()) != null ? strings.higher(t.text()) : strings.first();
                    if (!next.equals(t.text())) {
                        out.add(replace(d, i, Mutation.Kind.CONSTANT, next));
                    }
                }
                case WORD -> {
                    if (t.text().equals("TRUE") || t.text().equals("FALSE")) {
                        out.add(replace(d, i, Mutation.Kind.CONSTANT, t.text().equals("TRUE") ? "FALSE" : "TRUE"));
                    } else if (t.text().equals("IF")) {
                        int then = matchingThen(ts, i);
                        if (then > i + 1) {
                            TlaToken first = ts.get(i + 1);
                            TlaToken last = ts.get(then - 1);
                            String condition = text.substring(first.start(), last.end());
                            out.add(
                                    span(
                                            d,
                                            i,
                                            Mutation.Kind.SWAP_IF,
                                            first.start(),
                                            last.end(),
                                            condition,
                                            "~(" + condition + ")",
                                            first));
                            out.add(
                                    span(
                                            d,
                                            i,
                                            Mutation.Kind.SKIP_IF,
                                            first.start(),
                                            last.end(),
                                            condition,
                                            "FALSE",
                                            first));
                        }
                    }
                }
                case SYMBOL -> symbol(d, ts, i, out);
                case COMMENT, RULE -> {}
            }
        }
        return out;
    }

    private static void symbol(Definition d, List<TlaToken> ts, int i, List<Mutation> out) {
        TlaToken t = ts.get(i);
        String s = t.text();
        if (RELATIONAL.containsKey(s) && !(s.equals("=") && isExceptAssignment(ts, i))) {
            out.add(replace(d, i, Mutation.Kind.RELATIONAL, RELATIONAL.get(s)));
        } else if (SET.containsKey(s) && !((s.equals("\\in") || s.equals("\\notin")) && binds(ts, i))) {
            out.add(replace(d, i, Mutation.Kind.SET, SET.get(s)));
        } else if (s.equals("+")) {
            out.add(replace(d, i, Mutation.Kind.ARITHMETIC, "-"));
        } else if (s.equals("-") && i > 0 && !BEFORE_UNARY.contains(ts.get(i - 1).text())) {
            out.add(replace(d, i, Mutation.Kind.ARITHMETIC, "+"));
        } else if (s.equals("~")) {
            out.add(replace(d, i, Mutation.Kind.DROP_NEGATION, ""));
        } else if (s.equals("/\\") || s.equals("\\/")) {
            if (isBullet(ts, i)) {
                dropItem(d, ts, i, out);
            } else {
                out.add(replace(d, i, Mutation.Kind.LOGICAL, s.equals("/\\") ? "\\/" : "/\\"));
            }
        }
    }

    private static final Set<String> KEYWORDS =
            Set.of("IF", "THEN", "ELSE", "LET", "IN", "CASE", "OTHER", "CHOOSE", "EXCEPT", "LAMBDA");

    /** A junction bullet: one that starts an operand (a bulleted list, aligned by column). */
    private static boolean isBullet(List<TlaToken> ts, int i) {
        if (i == 0 || !endsOperand(ts.get(i - 1))) {
            return true;
        }
        // after an operand, a junction first on its line is a bullet only where it continues a
        // list (one above it at its column); otherwise it continues an infix expression
        return ts.get(i - 1).line() < ts.get(i).line() && previousSibling(ts, i);
    }

    /** Drops the bulleted item at {@code i} when its list has another item at the same column. */
    private static void dropItem(Definition d, List<TlaToken> ts, int i, List<Mutation> out) {
        TlaToken bullet = ts.get(i);
        int end = itemEnd(ts, i);
        boolean sibling = (end < ts.size() && isSibling(ts.get(end), bullet)) || previousSibling(ts, i);
        if (!sibling) {
            return;
        }
        Mutation.Kind kind = bullet.text().equals("/\\") ? Mutation.Kind.DROP_CONJUNCT : Mutation.Kind.DROP_DISJUNCT;
        out.add(span(d, i, kind, bullet.start(), ts.get(end - 1).end(), textOf(ts, i, end), "", bullet));
    }

    /** Tokens that can end an operand: after one of these, a junction is infix, not a bullet. */
    private static boolean endsOperand(TlaToken t) {
        return switch (t.kind()) {
            case NUMBER, STRING -> true;
            case WORD -> !KEYWORDS.contains(t.text());
            case SYMBOL -> Set.of(")", "]", "}", ">>", "'").contains(t.text());
            case COMMENT, RULE -> false;
        };
    }

    /** The index of the first token after the item that starts at bullet {@code i}. */
    private static int itemEnd(List<TlaToken> ts, int i) {
        TlaToken bullet = ts.get(i);
        int j = i + 1;
        while (j < ts.size()) {
            TlaToken t = ts.get(j);
            boolean firstOnLine = t.line() > ts.get(j - 1).line();
            if (firstOnLine && t.column() <= bullet.column()) {
                break;
            }
            // a closing bracket or a keyword that ends the enclosing expression on the same line
            if (closes(ts, i, j)) {
                break;
            }
            j++;
        }
        return j;
    }

    /** Whether token j closes a bracket opened before bullet i (the list ends inside it). */
    private static boolean closes(List<TlaToken> ts, int i, int j) {
        int depth = 0;
        for (int k = i + 1; k <= j; k++) {
            String s = ts.get(k).text();
            if (s.equals("(") || s.equals("[") || s.equals("{") || s.equals("<<")) {
                depth++;
            } else if (s.equals(")") || s.equals("]") || s.equals("}") || s.equals(">>") || s.equals("]_")) {
                depth--;
                if (depth < 0) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean isSibling(TlaToken t, TlaToken bullet) {
        return t.text().equals(bullet.text()) && t.column() == bullet.column();
    }

    private static boolean previousSibling(List<TlaToken> ts, int i) {
        TlaToken bullet = ts.get(i);
        for (int k = i - 1; k >= 0; k--) {
            TlaToken t = ts.get(k);
            if (isSibling(t, bullet) && isBullet(ts, k)) {
                return itemEnd(ts, k) == i;
            }
            boolean firstOnLine = k == 0 || ts.get(k - 1).line() < t.line();
            if (firstOnLine && t.column() < bullet.column()) {
                return false;
            }
        }
        return false;
    }

    /** {@code ![x] =} or {@code !.f =} inside an EXCEPT: an assignment, not an equality. */
    private static boolean isExceptAssignment(List<TlaToken> ts, int i) {
        for (int k = i - 1; k >= 0; k--) {
            String s = ts.get(k).text();
            if (s.equals("!")) {
                return true;
            }
            if (!(s.equals(".")
                    || s.equals("]")
                    || s.equals("[")
                    || ts.get(k).kind() == TlaToken.Kind.WORD
                    || ts.get(k).kind() == TlaToken.Kind.STRING
                    || ts.get(k).kind() == TlaToken.Kind.NUMBER)) {
                return false;
            }
        }
        return false;
    }

    /** An {@code \in} right after a bound name: {@code \A x \in S}, {@code [x \in S |-> ...]}. */
    private static boolean binds(List<TlaToken> ts, int i) {
        if (i < 2 || ts.get(i - 1).kind() != TlaToken.Kind.WORD) {
            return false;
        }
        String before = ts.get(i - 2).text();
        return BINDERS.contains(before);
    }

    /** The THEN of the IF at {@code i}, nesting counted; -1 when there is none. */
    private static int matchingThen(List<TlaToken> ts, int i) {
        int depth = 0;
        for (int k = i + 1; k < ts.size(); k++) {
            String s = ts.get(k).text();
            if (s.equals("IF")) {
                depth++;
            } else if (s.equals("THEN")) {
                if (depth == 0) {
                    return k;
                }
                depth--;
            }
        }
        return -1;
    }

    private static int bodyStart(List<TlaToken> ts) {
        for (int i = 0; i < ts.size(); i++) {
            if (ts.get(i).is("==")) {
                return i + 1;
            }
        }
        return ts.size();
    }

    private static String textOf(List<TlaToken> ts, int from, int to) {
        StringBuilder s = new StringBuilder();
        for (int k = from; k < to; k++) {
            if (k > from) {
                s.append(' ');
            }
            s.append(ts.get(k).text());
        }
        return s.toString();
    }

    private static Mutation replace(Definition d, int i, Mutation.Kind kind, String replacement) {
        TlaToken t = d.tokens().get(i);
        return new Mutation(
                Mutation.id(d, i, kind, replacement),
                d.name(),
                kind,
                t.start(),
                t.end(),
                t.text(),
                replacement,
                t.line(),
                t.column());
    }

    private static Mutation span(
            Definition d,
            int i,
            Mutation.Kind kind,
            int start,
            int end,
            String original,
            String replacement,
            TlaToken at) {
        return new Mutation(
                Mutation.id(d, i, kind, replacement),
                d.name(),
                kind,
                start,
                end,
                original,
                replacement,
                at.line(),
                at.column());
    }
}
