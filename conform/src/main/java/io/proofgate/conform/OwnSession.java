package io.proofgate.conform;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * A command started so that everything it starts can be ended with it, however it was started.
 *
 * <p>Two nets, because each misses what the other catches:
 *
 * <ul>
 *   <li>the command runs under {@code setsid} (util-linux), so it leads a process group of its own, whose id is its
 *       pid; ending it signals the whole group ({@code kill(-pgid)}), which reaches every child and grandchild that
 *       stayed in the group, at once and without a race against forks (sampling {@link ProcessHandle#descendants()}
 *       misses a child forked after the sample and every orphan, which is no longer a descendant);
 *   <li>a daemon that double-forks and calls {@code setsid} itself leaves the group and is reparented away, so the
 *       command's environment carries a marker of its own ({@value #MARKER}); on Linux, ending it also signals every
 *       process of this user whose initial environment ({@code /proc/PID/environ}) holds the marker, until none is
 *       left.
 * </ul>
 *
 * Not covered: a descendant that both leaves the group and execs with an environment that drops the marker ({@code env
 * -i}), one that runs as another user, and everything when the kit itself is killed with SIGKILL (nothing of the kit
 * runs then). Without {@code setsid} the group net is {@link ProcessHandle#descendants()} (racy; {@link #note()} says
 * so); without {@code /proc} there is no marker net. Signals go through {@code kill(2)} by the FFM API, since the JDK
 * signals single processes only.
 */
final class OwnSession {

    static final String MARKER = "PROOFGATE_CONFORM_ADAPTER";
    private static final List<Path> SETSID = List.of(Path.of("/usr/bin/setsid"), Path.of("/bin/setsid"));
    private static final Optional<Path> setsid = SETSID.stream().filter(Files::isExecutable).findFirst();
    private static final boolean PROC = Files.isDirectory(Path.of("/proc/self"));
    private static final int SIGKILL = 9;
    private static final int SIGTERM = 15;
    private static final MethodHandle KILL = kill();

    /** Sessions not yet ended, for the shutdown hook: a run stopped by SIGTERM or Ctrl-C ends them too. */
    private static final Set<OwnSession> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(OwnSession::endAll));
    }

    /** Ends every session not yet ended (a shutdown that must remove their folders after them calls it first). */
    static void endAll() {
        LIVE.forEach(OwnSession::end);
    }

    private final Process process;
    private final String marker;

    private OwnSession(Process process, String marker) {
        this.process = process;
        this.marker = marker;
    }

    /**
     * Starts {@code /bin/sh -c command} in {@code directory}, in a session of its own when {@code setsid} is there,
     * with {@code environment} added to the kit's own.
     */
    static OwnSession start(String command, Path directory, java.util.Map<String, String> environment)
            throws IOException {
        List<String> line = new ArrayList<>();
        setsid.ifPresent(path -> line.add(path.toString()));
        line.addAll(List.of("/bin/sh", "-c", command));
        ProcessBuilder builder = new ProcessBuilder(line).directory(directory.toFile());
        String marker = UUID.randomUUID().toString();
        builder.environment().putAll(environment);
        builder.environment().put(MARKER, marker);
        OwnSession session = new OwnSession(builder.start(), marker);
        LIVE.add(session);
        return session;
    }

    Process process() {
        return process;
    }

    /** A line for the run's stderr when a net is missing here, or empty. */
    static Optional<String> note() {
        if (!groups()) {
            return Optional.of(
                    "no setsid (util-linux) at "
                            + SETSID
                            + " or no kill(2) through the FFM API"
                            + ": an adapter's children are found by sampling its"
                            + " descendants, which misses one forked while it is ended"
                            + (PROC ? "" : ", and daemons are not found"));
        }
        if (!PROC) {
            return Optional.of(
                    "no /proc here: a daemon that an adapter started in a session of its own may" + " outlive the run");
        }
        return Optional.empty();
    }

    /** Whether ending signals the group: setsid started it, and kill(2) is callable. */
    private static boolean groups() {
        return setsid.isPresent() && KILL != null;
    }

    /**
     * Ends the command and everything it started: SIGTERM to its group and to the marked processes, {@code grace} for
     * them to go, then SIGKILL until a pass finds none left (one may fork while it is being killed). Idempotent.
     */
    void end(java.time.Duration grace) {
        List<ProcessHandle> sampled = groups() ? List.of() : process.descendants().toList();
        signal(SIGTERM, sampled, left());
        long deadline = System.nanoTime() + grace.toNanos();
        while (System.nanoTime() < deadline && !left().isEmpty()) {
            pause();
        }
        for (int pass = 0; pass < 100; pass++) {
            List<Long> left = left();
            if (left.isEmpty()) {
                break;
            }
            signal(SIGKILL, sampled, left);
            pause();
        }
        process.destroyForcibly();
        sampled.forEach(ProcessHandle::destroyForcibly);
        LIVE.remove(this);
    }

    private void end() {
        end(java.time.Duration.ofMillis(500));
    }

    private void signal(int signal, List<ProcessHandle> sampled, List<Long> left) {
        if (groups()) {
            send(-process.pid(), signal);
        } else if (signal == SIGKILL) {
            process.destroyForcibly();
        } else {
            process.destroy();
        }
        sampled.forEach(signal == SIGKILL ? ProcessHandle::destroyForcibly : ProcessHandle::destroy);
        left.forEach(pid -> send(pid, signal));
    }

    /**
     * The processes still to end: with /proc, every live process (zombies are dead, whoever has to reap them) in the
     * command's group or holding its marker; without, the group while it answers signal 0.
     */
    private List<Long> left() {
        if (!PROC) {
            return groups() && send(-process.pid(), 0) ? List.of(process.pid()) : List.of();
        }
        byte[] wanted = ("\0" + MARKER + "=" + marker + "\0").getBytes(StandardCharsets.UTF_8);
        List<Long> pids = new ArrayList<>();
        try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
            for (Path entry : entries.toList()) {
                String name = entry.getFileName().toString();
                if (name.isEmpty() || !name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try {
                    String[] stat = stat(entry);
                    if (stat == null || stat[0].equals("Z")) {
                        continue;
                    }
                    boolean inGroup = groups() && Long.parseLong(stat[2]) == process.pid();
                    if (inGroup || contains(Files.readAllBytes(entry.resolve("environ")), wanted)) {
                        pids.add(Long.parseLong(name));
                    }
                } catch (IOException | RuntimeException e) {
                    // gone, or another user's: not ours to end
                }
            }
        } catch (IOException e) {
            return List.of();
        }
        return pids;
    }

    /** The fields of /proc/PID/stat after the command name: state, ppid, pgrp, ...; null when unreadable. */
    private static String[] stat(Path proc) throws IOException {
        String stat = Files.readString(proc.resolve("stat"));
        int close = stat.lastIndexOf(')');
        return close < 0 || close + 2 >= stat.length() ? null : stat.substring(close + 2).split(" ");
    }

    /**
     * Whether {@code wanted} (NUL, the entry, NUL) occurs in the NUL-separated environment, its first entry included.
     */
    private static boolean contains(byte[] environ, byte[] wanted) {
        byte[] padded = new byte[environ.length + 1];
        System.arraycopy(environ, 0, padded, 1, environ.length);
        outer:
        for (int i = 0; i + wanted.length <= padded.length; i++) {
            for (int j = 0; j < wanted.length; j++) {
                if (padded[i + j] != wanted[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static void pause() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** kill(2): whether the signal was delivered (signal 0: whether the process or group exists). */
    private static boolean send(long pid, int signal) {
        if (KILL == null) {
            return false;
        }
        try {
            return (int) KILL.invokeExact((int) pid, signal) == 0;
        } catch (Throwable e) {
            return false;
        }
    }

    private static MethodHandle kill() {
        try {
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup()
                    .find("kill")
                    .map(
                            symbol ->
                                    linker.downcallHandle(
                                            symbol,
                                            FunctionDescriptor.of(
                                                    ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT)))
                    .orElse(null);
        } catch (RuntimeException e) {
            return null; // native access refused: the group net falls back to the JDK's own signals
        }
    }
}
