package io.proofgate.cli;

import java.io.PrintStream;
import java.util.List;

/** One subcommand of {@code proofgate}. */
interface Command {
    String name();

    /** One line for the command list. */
    String summary();

    /** The full {@code --help} text. */
    String help();

    /** Runs the command; returns the exit code. Throws {@link UsageException} for bad arguments. */
    int run(List<String> args, PrintStream out, PrintStream err) throws UsageException;
}
