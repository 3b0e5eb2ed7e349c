package io.proofgate.tlc;

/** The severity TLC writes after the code in {@code @!@!@STARTMSG code:severity @!@!@}. */
public enum Severity {
    NONE(0),
    ERROR(1),
    TLC_BUG(2),
    WARNING(3),
    STATE(4);

    private final int level;

    Severity(int level) {
        this.level = level;
    }

    public int level() {
        return level;
    }

    /** True for the levels TLC uses when the run cannot be trusted. */
    public boolean isError() {
        return this == ERROR || this == TLC_BUG;
    }

    /** The severity for TLC's number, or empty for a number TLC 2.18 does not write. */
    public static java.util.Optional<Severity> of(int level) {
        for (Severity s : values()) {
            if (s.level == level) {
                return java.util.Optional.of(s);
            }
        }
        return java.util.Optional.empty();
    }
}
