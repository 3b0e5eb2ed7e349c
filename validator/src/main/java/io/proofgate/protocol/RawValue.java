package io.proofgate.protocol;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/**
 * A JSON value exactly as it arrived, so that malformed evidence can be judged rather than rejected at parse time
 * (protocol §5: {@code recurrent_boundary_blocks} is passed as it stands).
 */
public sealed interface RawValue {

    /** The field was not present at all. */
    record Absent() implements RawValue {}

    record Null() implements RawValue {}

    /** A JSON integer that fits in 64 bits. */
    record Int(long value) implements RawValue {}

    /**
     * A JSON integer beyond 64 bits, exactly as the log wrote it: rules compare it exactly and verdicts state it
     * exactly (two such block ids that differ in the last digit are two blocks).
     */
    record Big(BigInteger value) implements RawValue {}

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
