package io.proofgate.protocol;

import java.util.List;
import java.util.Map;

/**
 * A JSON value exactly as it arrived, so that malformed evidence can be judged rather than
 * rejected at parse time (protocol §5: {@code recurrent_boundary_blocks} is passed as it stands).
 */
public sealed interface RawValue {

    /** The field was not present at all. */
    record Absent() implements RawValue {}

    record Null() implements RawValue {}

    /**
     * A JSON integer. Integers outside the range of {@code long} are saturated to
     * {@link Long#MIN_VALUE}/{@link Long#MAX_VALUE}: every rule compares them with bounds that fit
     * in a long, so the verdict is the same as with the exact value.
     */
    record Int(long value) implements RawValue {}

    record Bool(boolean value) implements RawValue {}

    /** A JSON number with a fraction or exponent; never an integer for protocol §3, even 1.0. */
    record Real(double value) implements RawValue {}

    record Text(String value) implements RawValue {}

    record ListOf(List<RawValue> items) implements RawValue {
        public ListOf {
            items = List.copyOf(items);
        }
    }

    /**
     * A JSON object. {@code duplicateKey} is the first key that occurred twice, or null: such an
     * object has no single meaning, so validation treats it as not a mapping (fail closed).
     */
    record MapOf(Map<String, RawValue> entries, String duplicateKey) implements RawValue {
        public MapOf {
            entries = java.util.Collections.unmodifiableMap(entries);
        }

        public MapOf(Map<String, RawValue> entries) {
            this(entries, null);
        }
    }

    Absent ABSENT = new Absent();
    Null NULL = new Null();
}
