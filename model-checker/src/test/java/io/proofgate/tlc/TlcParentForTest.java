package io.proofgate.tlc;

import java.nio.file.Path;

/**
 * A process that runs TLC on a spec without end and waits: TlcChildTest kills it. A fourth argument {@code warm} runs
 * it in a {@link WarmTlcPool} instead of a JVM of its own.
 */
public final class TlcParentForTest {

    private TlcParentForTest() {}

    public static void main(String[] args) throws Exception {
        TlcCommand command =
                TlcCommand.of(Path.of(args[0]), Path.of(args[1]))
                        .withConfig(Path.of(args[2]))
                        .withWorkers(1)
                        .withMaxHeap("256m");
        if (args.length > 3 && args[3].equals("warm")) {
            try (WarmTlcPool pool = new WarmTlcPool(Path.of(args[1]).resolve("pool"), "256m")) {
                pool.run(command);
            }
        } else {
            TlcProcess.run(command, message -> {});
        }
    }
}
