package io.proofgate.cli;

import io.proofgate.adapter.ReferenceAdapter;
import io.proofgate.words.FileProblems;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Set;

/** {@code proofgate adapter}: the reference adapter, proofgate's validator behind proofgate-adapter/v1. */
final class AdapterCommand implements Command {

    @Override
    public String name() {
        return "adapter";
    }

    @Override
    public String summary() {
        return "serve proofgate's validator over the adapter protocol (proofgate conform --exec)";
    }

    @Override
    public String help() {
        return """
        Usage: proofgate adapter

        Reads proofgate-adapter/v1 messages on stdin and answers each on stdout: proofgate's own
        validator as an external implementation, for `proofgate conform --exec "./proofgate adapter"`
        (the kit testing itself end to end) and as the reference a new adapter is compared with.
        It declares every capability: reason_facts, state, sliding, wide_integers.
        The protocol: docs/conformance.md.
        """;
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        Options.parse(args, Set.of(), Set.of());
        try {
            ReferenceAdapter.serve(System.in, out);
        } catch (IOException e) {
            err.println("proofgate adapter: " + FileProblems.words(e));
            return Main.USAGE;
        }
        return Main.OK;
    }
}
