package io.proofgate.cli;

/** Parses option values with errors that name the option. */
final class Options {

    private Options() {}

    static long integer(String option, String value, long min, long max) throws UsageException {
        long parsed;
        try {
            parsed = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new UsageException(option + " expects an integer, got \"" + value + "\"");
        }
        if (parsed < min || parsed > max) {
            throw new UsageException(option + " must be between " + min + " and " + max + ", got " + parsed);
        }
        return parsed;
    }

    /** A byte count with an optional K, M or G suffix (powers of 1024). */
    static long size(String option, String value) throws UsageException {
        String digits = value;
        long unit = 1;
        char last = value.isEmpty() ? ' ' : Character.toUpperCase(value.charAt(value.length() - 1));
        if (last == 'K' || last == 'M' || last == 'G') {
            unit = last == 'K' ? 1L << 10 : last == 'M' ? 1L << 20 : 1L << 30;
            digits = value.substring(0, value.length() - 1);
        }
        long count = integer(option, digits, 1, Long.MAX_VALUE / unit);
        return count * unit;
    }
}
