package io.proofgate.cli;

import io.proofgate.words.Outside;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Parses option values with errors that name the option. */
final class Options {

    private Options() {}

    /**
     * The options in {@code args} by name, in order: names in {@code flags} stand alone (value ""), names in {@code
     * valued} take the next argument or what follows {@code =} in {@code --name=value}; anything else is a usage error,
     * and so is an option given twice: the last would silently win, and a {@code --scenarios} folder that fails would
     * drop out of a run that passes.
     */
    static Map<String, String> parse(List<String> args, Set<String> flags, Set<String> valued) throws UsageException {
        return parse(args, flags, valued, null);
    }

    /**
     * As {@link #parse(List, Set, Set)}, and every argument that is not an option ({@code -} included, the usual name
     * of stdin) is added to {@code operands} in order; with {@code operands} null, such an argument is a usage error.
     */
    static Map<String, String> parse(List<String> args, Set<String> flags, Set<String> valued, List<String> operands)
            throws UsageException {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String option = args.get(i);
            int equals = option.indexOf('=');
            String name = equals > 0 && option.startsWith("--") ? option.substring(0, equals) : option;
            if (valued.contains(name) && equals > 0) {
                if (equals + 1 == option.length()) {
                    throw new UsageException("missing value for " + name);
                }
                once(options, name, option.substring(equals + 1));
            } else if (flags.contains(name) && equals > 0) {
                throw new UsageException(name + " takes no value");
            } else if (flags.contains(option)) {
                once(options, option, "");
            } else if (valued.contains(option)) {
                if (i + 1 >= args.size()) {
                    throw new UsageException("missing value for " + option);
                }
                once(options, option, args.get(++i));
            } else if (option.startsWith("-") && !option.equals("-")) {
                throw new UsageException("unknown option " + Outside.quoted(option));
            } else if (operands == null) {
                throw new UsageException("unexpected argument " + Outside.quoted(option));
            } else {
                operands.add(option);
            }
        }
        return options;
    }

    private static void once(Map<String, String> options, String name, String value) throws UsageException {
        if (options.putIfAbsent(name, value) != null) {
            throw new UsageException(name + " is given twice");
        }
    }

    /** The integer value of {@code option} in {@code options}, or {@code otherwise} when it is not given. */
    static long integer(Map<String, String> options, String option, long min, long max, long otherwise)
            throws UsageException {
        return options.containsKey(option) ? integer(option, options.get(option), min, max) : otherwise;
    }

    static long integer(String option, String value, long min, long max) throws UsageException {
        long parsed;
        try {
            parsed = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new UsageException(option + " expects an integer, got " + Outside.quoted(value));
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
        if (!digits.matches("[0-9]+")) {
            throw new UsageException(
                    option + " expects an integer with an optional K, M or G, got " + Outside.quoted(value));
        }
        long count = integer(option, digits, 1, Long.MAX_VALUE / unit);
        return count * unit;
    }
}
