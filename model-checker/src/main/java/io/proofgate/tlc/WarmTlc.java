package io.proofgate.tlc;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The entry point of a warm TLC child: one JVM that runs TLC once per request, one request after the other, for {@link
 * WarmTlcPool}. A mutation run makes hundreds of TLC runs of a few thousand states each; in a fresh JVM each spends
 * most of its time starting, loading TLC and evaluating in the interpreter, while in a warm one TLC's evaluator is
 * already compiled (measured in docs/performance.md, "Mutation runs: warm TLC JVMs").
 *
 * <p>The requests come on stdin, one line each, fields separated by NUL: the file that receives the run's output, the
 * {@code TLA-Library} path (empty for none), then TLC's arguments with the spec's absolute path last. Once warm, the
 * child says {@code ready}; each request gets one line on stdout: {@code done EXIT}, with the exit code TLC's own
 * {@code main} would have ended with; {@code last EXIT}, the same, after which this JVM ends; or {@code failed}, after
 * which it ends too: a TLC that threw may have left its static state half made, and a run that ran out of heap or stack
 * might not have in a fresh JVM. TLC's own output goes to the request's file, never to stdout, which carries only the
 * replies.
 *
 * <p>Every run starts from the same static state of TLC ({@link TlcStatics}): every class of TLC's initialised, then a
 * warm-up on models of its own ({@code warm-up/}) that compiles the paths the project's models take. A run that still
 * loaded one of TLC's classes ends the child after it ({@code last}): the next run could not start from that same
 * state. (Only TLC's own classes count: the JDK makes classes of its own, for method handles, at any time.)
 */
public final class WarmTlc {

    static final String WARM_UP = "warm-up/";
    static final List<String> WARM_UP_FILES =
            List.of(
                    "ProofgateWarmUp.tla",
                    "ProofgateWarmUpInvariant.cfg",
                    "ProofgateWarmUpPasses.cfg",
                    "ProofgateWarmUpLiveness.cfg",
                    "ProofgateWarmUpTableau.cfg",
                    "ProofgateWarmUpFault.cfg",
                    "ProofgateWarmUpBroken.tla",
                    "ProofgateWarmUpBroken.cfg",
                    "ProofgateWarmUpUnparsable.tla",
                    "ProofgateWarmUpUnparsable.cfg",
                    "bound/ProofgateStateBound.tla",
                    "bound/ProofgateStateBound.cfg");

    private static final Set<Integer> HISTORY_DEPENDENT =
            Set.of(
                    tlc2.output.EC.SYSTEM_OUT_OF_MEMORY,
                    tlc2.output.EC.SYSTEM_OUT_OF_MEMORY_TOO_MANY_INIT,
                    tlc2.output.EC.SYSTEM_OUT_OF_MEMORY_LIVENESS,
                    tlc2.output.EC.SYSTEM_STACK_OVERFLOW,
                    tlc2.output.EC.TLC_BUG);

    private WarmTlc() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        ProcessHandle.current()
                .parent()
                .ifPresent(parent -> parent.onExit().thenRun(() -> Runtime.getRuntime().halt(143)));
        PrintStream replies =
                new PrintStream(new FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);
        PrintStream discard = new PrintStream(OutputStream.nullOutputStream());
        PrintStream log =
                new PrintStream(new FileOutputStream(java.io.FileDescriptor.err), true, StandardCharsets.UTF_8);
        System.setOut(discard); // nothing but a reply may reach stdout, not even a late TLC thread
        System.setErr(discard);
        TlcClasses classes;
        TlcStatics settings;
        TlcStatics strings;
        try {
            classes = TlcClasses.of(tlc2.TLC.class);
            List<Class<?>> initialised = classes.initialiseAll();
            if (!initialised.containsAll(
                    List.of(
                            tlc2.TLCGlobals.class,
                            tlc2.tool.liveness.LiveWorker.class,
                            util.UniqueString.class,
                            tlc2.output.MP.class))) {
                // without TLC's classes there is no static state to put back: no warm run is safe
                log.println("TLC's classes were not found in its jar: this JVM runs nothing");
                end();
            }
            settings = TlcStatics.fields(initialised);
            warmUp(settings, discard);
            strings = TlcStatics.strings();
        } catch (Throwable e) {
            e.printStackTrace(log);
            end();
            return;
        }
        replies.println("ready"); // the pool starts a run's clock after this, not before the warm-up
        BufferedReader requests = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = requests.readLine()) != null; ) {
            String[] fields = line.split("\0", -1);
            if (fields.length < 3) {
                replies.println("failed");
                end();
            }
            Set<String> loaded = classes.loaded();
            Set<Thread> threads = Set.copyOf(Thread.getAllStackTraces().keySet());
            int exit;
            // flushed line by line, as a fresh JVM's stdout: a run killed at its time limit keeps what it printed
            try (PrintStream output =
                    new PrintStream(
                            new BufferedOutputStream(new FileOutputStream(fields[0]), 1 << 16),
                            true,
                            StandardCharsets.UTF_8)) {
                settings.restore();
                strings.restore();
                TlcStatics.forgetModelValues();
                TlcStatics.freshMessagePrinter();
                exit = runOnce(fields[1], Arrays.copyOfRange(fields, 2, fields.length), output);
                output.flush();
                if (output.checkError()) {
                    log.println("the run's output could not be written");
                    exit = -1;
                }
            } catch (Throwable e) { // TLC's own failure, or no room for its output
                e.printStackTrace(log);
                exit = -1;
            } finally {
                quiet(discard);
            }
            if (exit < 0) {
                replies.println("failed");
                end();
            }
            Set<String> now = classes.loaded();
            List<String> left = threadsLeft(threads);
            if (!now.equals(loaded) || !left.isEmpty()) {
                now.removeAll(loaded);
                log.println("this run loaded " + now + " and left threads " + left + ": the next run gets another JVM");
                replies.println("last " + exit);
                end();
            }
            replies.println("done " + exit);
        }
        end();
    }

    /**
     * The threads a run left that are not daemons and are in TLC's code, once those ending or going idle have had a
     * moment to (a pool's thread parks a little after its task ends).
     */
    private static List<String> threadsLeft(Set<Thread> before) throws InterruptedException {
        List<String> left = List.of();
        for (int wait = 0; wait < 1000; wait++) { // at most about 10 s, and only while some are left
            left =
                    Thread.getAllStackTraces().entrySet().stream()
                            .filter(
                                    t ->
                                            !before.contains(t.getKey())
                                                    && t.getKey().isAlive()
                                                    && !t.getKey().isDaemon()
                                                    && inTlcCode(t.getValue()))
                            .map(t -> t.getKey().getName())
                            .toList();
            if (left.isEmpty()) {
                break;
            }
            Thread.sleep(10);
        }
        return left;
    }

    /**
     * Whether a thread is in TLC's code: one that is not (a pool's idle thread TLC's liveness check leaves, the JDK's
     * RMI threads, which start when they will) prints nothing into the next run's output; one that is might.
     */
    private static boolean inTlcCode(StackTraceElement[] stack) {
        return java.util.Arrays.stream(stack).anyMatch(frame -> TlcClasses.isTlcClass(frame.getClassName()));
    }

    /** Ends this JVM: TLC leaves threads that are not daemons (RMI's), which would keep it. */
    private static void end() {
        Runtime.getRuntime().halt(0);
    }

    /**
     * Runs TLC on the warm-up models, each ending as the project's runs end (a violation, a pass, two liveness lassos,
     * one through a tableau, an evaluation error, two modules SANY refuses, a state bound), so that the code those
     * endings take is compiled before the first request, and what they leave in TLC's strings is there before {@link
     * TlcStatics#strings()} is taken. Its outcomes are not read: a warm-up that went wrong costs only later restarts.
     */
    private static void warmUp(TlcStatics settings, PrintStream discard) throws IOException {
        Path dir = Files.createTempDirectory("proofgate-warm-up");
        for (String name : WARM_UP_FILES) {
            try (InputStream in = WarmTlc.class.getResourceAsStream(WARM_UP + name)) {
                if (in == null) {
                    throw new IOException("the warm-up model " + name + " is missing from proofgate's classes");
                }
                Path target = dir.resolve(name);
                Files.createDirectories(target.getParent());
                Files.copy(in, target);
            }
        }
        String spec = dir.resolve("ProofgateWarmUp.tla").toString();
        List<List<String>> runs = new ArrayList<>();
        for (String config : List.of("Invariant", "Passes", "Liveness", "Tableau", "Fault")) {
            runs.add(List.of("", "-config", dir.resolve("ProofgateWarmUp" + config + ".cfg").toString(), spec));
        }
        for (String broken : List.of("Broken", "Unparsable")) {
            runs.add(List.of("", dir.resolve("ProofgateWarmUp" + broken + ".tla").toString()));
        }
        runs.add(List.of(dir.toString(), dir.resolve("bound/ProofgateStateBound.tla").toString()));
        int n = 0;
        for (List<String> run : runs) {
            List<String> tlcArgs =
                    new ArrayList<>(
                            List.of(
                                    "-tool",
                                    "-workers",
                                    "1",
                                    "-deadlock",
                                    "-metadir",
                                    dir.resolve("meta-" + n++).toString()));
            tlcArgs.addAll(run.subList(1, run.size()));
            try {
                settings.restore();
                TlcStatics.forgetModelValues();
                runOnce(run.get(0), tlcArgs.toArray(String[]::new), discard);
            } catch (Throwable e) {
                // see above: a warm-up's outcome is not read
            } finally {
                quiet(discard);
            }
        }
    }

    private static void quiet(PrintStream discard) {
        System.setOut(discard);
        System.setErr(discard);
        util.ToolIO.out = discard;
        util.ToolIO.err = discard;
    }

    /** One run of TLC, as {@code tlc2.TLC.main} makes it, without its {@code System.exit}. */
    private static int runOnce(String libraryPath, String[] tlcArgs, PrintStream output) {
        if (libraryPath.isEmpty()) {
            System.clearProperty("TLA-Library");
        } else {
            System.setProperty("TLA-Library", libraryPath);
        }
        System.setOut(output);
        System.setErr(output);
        util.ToolIO.out = output;
        util.ToolIO.err = output;
        tlc2.TLC tlc = new tlc2.TLC();
        if (!tlc.handleParameters(tlcArgs)) {
            return 1;
        }
        // as TLC's main: modules are found in the spec's folder, then on the library path
        String dir = util.FileUtil.parseDirname(tlc.getMainFile());
        tlc.setResolver(dir.isEmpty() ? new util.SimpleFilenameToStream() : new util.SimpleFilenameToStream(dir));
        int code = tlc.process();
        // TLC reports running out of heap or stack, and its own bugs, as a run's end: in a warm
        // JVM those depend on what ran before (a fuller heap, compiled frames), so the run is made
        // again in a fresh JVM
        if (HISTORY_DEPENDENT.contains(code)) {
            return -1;
        }
        return tlc2.output.EC.ExitStatus.errorConstantToExitStatus(code);
    }
}
