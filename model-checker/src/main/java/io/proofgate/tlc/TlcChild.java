package io.proofgate.tlc;

/**
 * The TLC child's entry point: TLC itself, ended as soon as the process that started it is gone. A parent killed with
 * SIGKILL runs no shutdown hook, so without this a 4 GB TLC would go on alone; {@link ProcessHandle#onExit()} sees any
 * process end, so the child watches its parent.
 */
public final class TlcChild {

    private TlcChild() {}

    public static void main(String[] args) throws Exception {
        ProcessHandle.current()
                .parent()
                .ifPresent(parent -> parent.onExit().thenRun(() -> Runtime.getRuntime().halt(143)));
        tlc2.TLC.main(args);
    }
}
