package io.proofgate.cli;

import io.proofgate.words.Outside;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The {@code proofgate} command line. Exit codes: 0 ok, 1 findings (a command that has them says which), 2 usage or
 * input errors. Errors are one line on stderr, never a stack trace.
 */
public final class Main {

    public static final int OK = 0;
    public static final int FINDINGS = 1;
    public static final int USAGE = 2;

    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static Map<String, Command> commands() {
        return commands(System::getenv);
    }

    /** The commands, reading environment variables (the shard key) through {@code environment}. */
    static Map<String, Command> commands(Function<String, String> environment) {
        Map<String, Command> commands = new LinkedHashMap<>();
        for (Command command :
                List.<Command>of(
                        new AdapterCommand(),
                        new AuditCommand(),
                        new ConnectorAuditCommand(),
                        new CheckCommand(),
                        new ConformCommand(),
                        new GenerateCommand(),
                        new MutationMergeCommand(environment),
                        new ReplayMergeCommand(environment),
                        new MutateCommand(environment),
                        new ReplayCommand(environment),
                        new SynthCommand())) {
            commands.put(command.name(), command);
        }
        return commands;
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, System::getenv);
    }

    /** As {@link #run(String[], PrintStream, PrintStream)}, with the environment given (tests set the shard key so). */
    static int run(String[] args, PrintStream out, PrintStream err, Function<String, String> environment) {
        err = EscapedErrors.of(err); // outside text (file names, a shard's messages) never writes raw to the terminal
        Map<String, Command> commands = commands(environment);
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
            if (args.length >= 2 && commands.containsKey(args[1])) {
                out.print(commands.get(args[1]).help());
                return OK;
            }
            out.print(help(commands));
            return args.length == 0 ? USAGE : OK;
        }
        if (args[0].equals("--version")) {
            out.println("proofgate " + version());
            return OK;
        }
        Command command = commands.get(args[0]);
        if (command == null) {
            err.println(
                    "proofgate: unknown command \""
                            + args[0]
                            + "\" (commands: "
                            + String.join(", ", commands.keySet())
                            + "; see proofgate --help)");
            return USAGE;
        }
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        if (rest.contains("--help") || rest.contains("-h")) {
            out.print(command.help());
            if (rest.size() == 1) {
                return OK;
            }
            // with other arguments (a CI variable that expands to --help, a --help taken for a value) a 0 would read
            // as a run that passed
            err.println(
                    "proofgate "
                            + command.name()
                            + ": nothing ran: "
                            + (rest.contains("--help") ? "--help" : "-h")
                            + " is given with other arguments");
            return USAGE;
        }
        try {
            return command.run(rest, out, err);
        } catch (UsageException e) {
            // a usage message quotes the arguments, which are outside text: escaped as every report is
            err.println(
                    Outside.bare(
                            "proofgate "
                                    + command.name()
                                    + ": "
                                    + e.getMessage()
                                    + " (see proofgate "
                                    + command.name()
                                    + " --help)"));
            return USAGE;
        } catch (OutOfMemoryError e) {
            // what a command holds in memory (the scenarios of a run, a revision's answers) outgrew
            // the heap: said in the project's words, never a stack trace, and never a run that
            // looks judged (whatever it printed before is incomplete, and the exit says so)
            out.flush();
            err.println(
                    "proofgate "
                            + command.name()
                            + ": out of memory (a heap of "
                            + (Runtime.getRuntime().maxMemory() >> 20)
                            + " MiB); nothing was judged and any report above is incomplete; raise the heap with"
                            + " PROOFGATE_JVM_OPTS=-Xmx...");
            return USAGE;
        }
    }

    static String version() {
        String version = Main.class.getPackage().getImplementationVersion();
        return version == null ? "development build" : version;
    }

    private static String help(Map<String, Command> commands) {
        StringBuilder text =
                new StringBuilder(
                        """
                        proofgate: a formal-model-backed validator for the recurrent-state publication protocol
                        of a vLLM prefix-cache connector. The protocol: docs/protocol.md.

                        Usage: proofgate <command> [options]
                               proofgate --version

                        Commands:
                        """);
        int width = commands.keySet().stream().mapToInt(String::length).max().orElse(0);
        for (Command command : commands.values()) {
            text.append(String.format("  %-" + width + "s %s%n", command.name(), command.summary()));
        }
        text.append(
                """

                Run "proofgate <command> --help" for a command's options.
                Exit codes: 0 ok, 1 findings, 2 usage or input errors.
                """);
        return text.toString();
    }
}
