package io.proofgate.tlc;

import java.nio.file.Path;

/** A process that runs TLC on a spec without end and waits: TlcChildTest kills it. */
public final class TlcParentForTest {

    private TlcParentForTest() {}

    public static void main(String[] args) throws Exception {
        TlcCommand command = TlcCommand.of(Path.of(args[0]), Path.of(args[1])).withConfig(Path.of(args[2]))
                .withWorkers(1).withMaxHeap("256m");
        TlcProcess.run(command, message -> { });
    }
}
