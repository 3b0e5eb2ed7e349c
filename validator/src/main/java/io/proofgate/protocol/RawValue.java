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

    /** A JSON object; its keys are distinct (a repeated key is a structural error of the log, protocol §5). */
    record MapOf(Map<String, RawValue> entries) implements RawValue {
        public MapOf {
            entries = java.util.Collections.unmodifiableMap(entries);
        }
    }

    Absent ABSENT = new Absent();
    Null NULL = new Null();
}
