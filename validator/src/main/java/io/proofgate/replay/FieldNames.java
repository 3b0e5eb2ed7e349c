package io.proofgate.replay;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;

import java.util.List;

/**
 * The known field names of one kind of object, matched to their index. Jackson hands back one string instance per
 * distinct name (its symbol table), so a name is first compared by identity with the instances already matched; only a
 * name not seen before is compared as text. Identity is a shortcut, never the test: an instance is remembered only
 * after its text matched. Each name is also kept as JSON bytes, for the parser to compare the name it expects next in
 * place.
 */
final class FieldNames {

    /**
     * One kind's names and their JSON bytes, made once and shared by every reader (a {@link SerializedString} may be
     * shared between threads). Made per reader, they were about a tenth of the audit's replay of a short log.
     */
    static final class Known {
        private final String[] names;
        private final SerializableString[] serialized;

        Known(List<String> names) {
            this.names = names.toArray(String[]::new);
            this.serialized = names.stream().map(SerializedString::new).toArray(SerializableString[]::new);
        }
    }

    /** Arrays, not lists: these run for every field of every request. */
    private final String[] names;

    /** The parser's own instances: one reader's, never shared. */
    private final String[] matched;

    private final SerializableString[] serialized;

    FieldNames(Known known) {
        this.names = known.names;
        this.matched = new String[names.length];
        this.serialized = known.serialized;
    }

    int size() {
        return names.length;
    }

    SerializableString serialized(int index) {
        return serialized[index];
    }

    /** The index of {@code name}, or -1 when it is not one of these fields. */
    int indexOf(String name) {
        for (int i = 0; i < matched.length; i++) {
            if (matched[i] == name) {
                return i;
            }
        }
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                matched[i] = name;
                return i;
            }
        }
        return -1;
    }

    String name(int index) {
        return names[index];
    }
}
