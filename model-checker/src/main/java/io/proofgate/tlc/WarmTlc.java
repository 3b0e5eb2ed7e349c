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
 * The entry point of a warm TLC child: one JVM that runs TLC once per request, one request after
 * the other, for {@link WarmTlcPool}. A mutation run makes hundreds of TLC runs of a few thousand
 * states each; in a fresh JVM each spends most of its time starting, loading TLC and evaluating
 * in the interpreter, while in a warm one TLC's evaluator is already compiled (measured in
 * docs/performance.md, "Mutation runs: warm TLC JVMs").
 *
 * <p>The requests come on stdin, one line each, fields separated by NUL: the file that receives
 * the run's output, the {@code TLA-Library} path (empty for none), then TLC's arguments with the
 * spec's absolute path last. Each gets one line on stdout: {@code done EXIT}, with the exit code
 * TLC's own {@code main} would have ended with; {@code last EXIT}, the same, after which this JVM
 * ends; or {@code failed}, after which it ends too, since a TLC that threw may have left its
 * static state half made. TLC's own output goes to the request's file, never to stdout, which
 * carries only the replies.
 *
 * <p>Every run starts from the same static state of TLC ({@link TlcStatics}): every class of
 * TLC's initialised, then a warm-up on models of its own ({@code warm-up/}) that compiles the
 * paths the project's models take. A run that still loaded one of TLC's classes ends the child
 * after it ({@code last}): the next run could not start from that same state. (Only TLC's own
 * classes count: the JDK makes classes of its own, for method handles, at any time.)
 */
public final class WarmTlc {

    private static final String WARM_UP = "warm-up/";
    private static final List<String> WARM_UP_FILES = List.of("ProofgateWarmUp.tla",
            "ProofgateWarmUpInvariant.cfg", "ProofgateWarmUpPasses.cfg", "ProofgateWarmUpLiveness.cfg", "ProofgateWarmUpTableau.cfg",
            "ProofgateWarmUpFault.cfg", "ProofgateWarmUpBroken.tla", "ProofgateWarmUpBroken.cfg",
            "ProofgateWarmUpUnparsable.tla", "ProofgateWarmUpUnparsable.cfg",
            "bound/ProofgateStateBound.tla", "bound/ProofgateStateBound.cfg");

    private WarmTlc() {}

    public static void main(String[] args) throws IOException {
        ProcessHandle.current().parent().ifPresent(parent ->
                parent.onExit().thenRun(() -> Runtime.getRuntime().halt(143)));
        PrintStream replies = new PrintStream(new FileOutputStream(java.io.FileDescriptor.out), true,
                StandardCharsets.UTF_8);
        PrintStream discard = new PrintStream(OutputStream.nullOutputStream());
        PrintStream log = new PrintStream(new FileOutputStream(java.io.FileDescriptor.err), true, StandardCharsets.UTF_8);
        System.setOut(discard); // nothing but a reply may reach stdout, not even a late TLC thread
        System.setErr(discard);
        TlcClasses classes = TlcClasses.of(tlc2.TLC.class);
        TlcStatics settings = TlcStatics.fields(classes.initialiseAll());
        warmUp(settings, discard);
        TlcStatics strings = TlcStatics.strings();
        BufferedReader requests = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = requests.readLine()) != null; ) {
            String[] fields = line.split("\0", -1);
            if (fields.length < 3) {
                replies.println("failed");
                end();
            }
            Set<String> loaded = classes.loaded();
            int exit;
            try (PrintStream output = new PrintStream(new BufferedOutputStream(new FileOutputStream(fields[0]), 1 << 16),
                    false, StandardCharsets.UTF_8)) {
                settings.restore();
                strings.restore();
                TlcStatics.forgetModelValues();
                exit = runOnce(fields[1], Arrays.copyOfRange(fields, 2, fields.length), output);
                output.flush();
                if (output.checkError()) {
                    exit = -1;
                }
            } catch (Throwable e) { // TLC's own failure, or no room for its output
                exit = -1;
            } finally {
                quiet(discard);
            }
            if (exit < 0) {
                replies.println("failed");
                end();
            }
            Set<String> now = classes.loaded();
            if (!now.equals(loaded)) {
                now.removeAll(loaded);
                log.println("this run loaded " + now + ": the next run gets another JVM");
                replies.println("last " + exit);
                end();
            }
            replies.println("done " + exit);
        }
        end();
    }

    /** Ends this JVM: TLC leaves threads that are not daemons (RMI's), which would keep it. */
    private static void end() {
        Runtime.getRuntime().halt(0);
    }

    /**
     * Runs TLC on the warm-up models, each ending as the project's runs end (a violation, a pass,
     * two liveness lassos, one through a tableau, an evaluation error, two modules SANY refuses,
     * a state bound), so that the code those endings take is compiled before the first request,
     * and what they leave in TLC's strings is there before {@link TlcStatics#strings()} is taken.
     * Its outcomes are not read: a warm-up that went wrong costs only later restarts.
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
            List<String> tlcArgs = new ArrayList<>(List.of("-tool", "-workers", "1", "-deadlock",
                    "-metadir", dir.resolve("meta-" + n++).toString()));
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
        return tlc2.output.EC.ExitStatus.errorConstantToExitStatus(tlc.process());
    }
}
