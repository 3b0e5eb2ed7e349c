package io.proofgate.value;

import io.proofgate.value.TlaValue.Field;
import io.proofgate.value.TlaValue.Pair;
import io.proofgate.value.TlaValue.TlaBool;
import io.proofgate.value.TlaValue.TlaFunction;
import io.proofgate.value.TlaValue.TlaInt;
import io.proofgate.value.TlaValue.TlaModelValue;
import io.proofgate.value.TlaValue.TlaRecord;
import io.proofgate.value.TlaValue.TlaSeq;
import io.proofgate.value.TlaValue.TlaSet;
import io.proofgate.value.TlaValue.TlaString;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Prints values in TLC's syntax on one line, so {@code TlaValueReader} reads back an equal value. */
public final class TlaValuePrinter {
    private TlaValuePrinter() {}

    public static String print(TlaValue value) {
        return switch (value) {
            case TlaInt i -> Long.toString(i.value());
            case TlaString s -> quote(s.value());
            case TlaBool b -> b.value() ? "TRUE" : "FALSE";
            case TlaModelValue m -> m.name();
            case TlaRecord r -> "[" + join(r.fields(), TlaValuePrinter::field) + "]";
            case TlaSeq s -> "<<" + join(s.elements(), TlaValuePrinter::print) + ">>";
            case TlaSet s -> "{" + join(s.elements(), TlaValuePrinter::print) + "}";
            case TlaFunction f ->
                    "(" + f.pairs().stream().map(TlaValuePrinter::pair).collect(Collectors.joining(" @@ ")) + ")";
        };
    }

    /**
     * A state as TLC prints it in traces: {@code /\ var = value} lines joined by newlines, or a bare {@code var =
     * value} when there is one variable.
     */
    public static String print(TlaState state) {
        if (state.vars().size() == 1) {
            Map.Entry<String, TlaValue> only = state.vars().firstEntry();
            return only.getKey() + " = " + print(only.getValue());
        }
        return state.vars().entrySet().stream()
                .map(e -> "/\\ " + e.getKey() + " = " + print(e.getValue()))
                .collect(Collectors.joining("\n"));
    }

    /** A TLA+ string literal with the escapes TLC writes: \" \\ \n \t \r \f. */
    public static String quote(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                case '\f' -> out.append("\\f");
                default -> out.append(c);
            }
        }
        return out.append('"').toString();
    }

    private static String field(Field f) {
        return f.name() + " |-> " + print(f.value());
    }

    private static String pair(Pair p) {
        return print(p.key()) + " :> " + print(p.value());
    }

    private static <T> String join(List<T> items, Function<T, String> printer) {
        return items.stream().map(printer).collect(Collectors.joining(", "));
    }
}
