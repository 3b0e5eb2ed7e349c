package io.proofgate.value;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A TLA+ value as TLC prints it. Collections keep TLC's printed order (TLC prints sets and function domains
 * normalized), so equality here is equality of the printed form.
 */
public sealed interface TlaValue {

    /** TLC's integers are 32-bit; a long holds every one of them and their negation. */
    record TlaInt(long value) implements TlaValue {}

    record TlaString(String value) implements TlaValue {
        public TlaString {
            Objects.requireNonNull(value);
        }
    }

    record TlaBool(boolean value) implements TlaValue {}

    /** A model value from the config, printed as a bare name ({@code p1}). */
    record TlaModelValue(String name) implements TlaValue {
        public TlaModelValue {
            Identifiers.require(name, "model value");
        }
    }

    /** {@code [a |-> 1, b |-> "x"]}: a function on strings, printed with fields in TLC's order. */
    record TlaRecord(List<Field> fields) implements TlaValue {
        public TlaRecord {
            fields = List.copyOf(fields);
            if (fields.isEmpty()) {
                // TLC prints the empty function as <<>>, never as an empty record.
                throw new IllegalArgumentException("a record has at least one field");
            }
        }

        public Optional<TlaValue> get(String name) {
            // a loop, not a stream: generation and the audit read fields by name for every state they print
            for (Field field : fields) {
                if (field.name().equals(name)) {
                    return Optional.of(field.value());
                }
            }
            return Optional.empty();
        }
    }

    record Field(String name, TlaValue value) {
        public Field {
            Identifiers.require(name, "record field");
            Objects.requireNonNull(value);
        }
    }

    /** {@code <<1, 2>>}: a sequence or tuple, i.e. a function on 1..n. */
    record TlaSeq(List<TlaValue> elements) implements TlaValue {
        public TlaSeq {
            elements = List.copyOf(elements);
        }
    }

    /** {@code {1, 2}}: elements in TLC's printed order. */
    record TlaSet(List<TlaValue> elements) implements TlaValue {
        public TlaSet {
            elements = List.copyOf(elements);
        }
    }

    /** {@code (k1 :> v1 @@ k2 :> v2)}: pairs in TLC's printed order. */
    record TlaFunction(List<Pair> pairs) implements TlaValue {
        public TlaFunction {
            pairs = List.copyOf(pairs);
            if (pairs.isEmpty()) {
                // TLC prints the empty function as <<>>.
                throw new IllegalArgumentException("a function printed with :> has at least one pair");
            }
        }

        public Optional<TlaValue> get(TlaValue key) {
            for (Pair pair : pairs) {
                if (pair.key().equals(key)) {
                    return Optional.of(pair.value());
                }
            }
            return Optional.empty();
        }
    }

    record Pair(TlaValue key, TlaValue value) {
        public Pair {
            Objects.requireNonNull(key);
            Objects.requireNonNull(value);
        }
    }

    /** Names TLC prints bare: identifiers other than the Boolean constants. */
    final class Identifiers {
        private Identifiers() {}

        static void require(String name, String what) {
            Objects.requireNonNull(name);
            if (!isIdentifier(name) || name.equals("TRUE") || name.equals("FALSE")) {
                throw new IllegalArgumentException("not a " + what + " name: \"" + name + "\"");
            }
        }

        /**
         * {@code [A-Za-z_][A-Za-z0-9_]*}, without a regular expression: every record field of every state of a state
         * graph passes through here.
         */
        private static boolean isIdentifier(String name) {
            if (name.isEmpty() || !(letter(name.charAt(0)) || name.charAt(0) == '_')) {
                return false;
            }
            for (int i = 1; i < name.length(); i++) {
                char c = name.charAt(i);
                if (!(letter(c) || c == '_' || (c >= '0' && c <= '9'))) {
                    return false;
                }
            }
            return true;
        }

        private static boolean letter(char c) {
            return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
        }
    }
}
