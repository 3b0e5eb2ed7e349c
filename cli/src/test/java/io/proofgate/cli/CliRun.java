package io.proofgate.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** One run of the command line in this JVM: its exit code and what it wrote to stdout and stderr. */
record CliRun(int exit, String out, String err) {

    static CliRun of(String... args) {
        return with(System::getenv, args);
    }

    /** A run that reads its environment variables from {@code environment}. */
    static CliRun with(java.util.function.Function<String, String> environment, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit =
                Main.run(
                        args,
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8),
                        environment);
        return new CliRun(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
