package io.proofgate.tlc;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The entry point of a warm TLC child: one JVM that runs TLC once per request, one request after
 * the other, for {@link WarmTlcPool}. A mutation run makes hundreds of TLC runs of a few thousand
 * states each; in a fresh JVM each spends most of its time starting, loading TLC and evaluating
 * in the interpreter, while in a warm one TLC's evaluator is already compiled (measured in
 * docs/performance.md, "Mutation runs: warm TLC JVMs").
 *
 * <p>The requests come on stdin, one line each, fields separated by NUL: the file that receives
 * the run's output, the {@code TLA-Library} path (empty for none), then TLC's arguments with the
 * spec's absolute path last. Each gets one line on stdout, {@code done EXIT} with the exit code
 * TLC's own {@code main} would have ended with, or {@code failed}, after which this JVM ends: a
 * TLC that threw may have left its static state half made, so the next run gets a fresh JVM.
 * TLC's own output goes to the request's file, never to stdout, which carries only the replies.
 *
 * <p>TLC keeps a run's settings and its checker in static fields ({@code TLCGlobals} and its
 * own classes), and a run reads what the one before it left there: with the last run's checker
 * still in {@code TLCGlobals.mainChecker}, TLC evaluates {@code TLCGet("distinct")} at start as
 * a constant and drops or fails a state bound's invariant at once. So each run starts from the
 * static fields as they were before the first run, which is what a fresh JVM gives it.
 */
public final class WarmTlc {

    private WarmTlc() {}

    public static void main(String[] args) throws IOException {
        ProcessHandle.current().parent().ifPresent(parent ->
                parent.onExit().thenRun(() -> Runtime.getRuntime().halt(143)));
        PrintStream replies = new PrintStream(new FileOutputStream(java.io.FileDescriptor.out), true,
                StandardCharsets.UTF_8);
        PrintStream discard = new PrintStream(OutputStream.nullOutputStream());
        System.setOut(discard); // nothing but a reply may reach stdout, not even a late TLC thread
        System.setErr(discard);
        StaticFields pristine = StaticFields.of(tlc2.TLCGlobals.class, tlc2.TLC.class, tlc2.module.TLC.class);
        BufferedReader requests = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = requests.readLine()) != null; ) {
            String[] fields = line.split("\0", -1);
            if (fields.length < 3) {
                replies.println("failed");
                return;
            }
            int exit;
            try (PrintStream output = new PrintStream(new BufferedOutputStream(new FileOutputStream(fields[0]), 1 << 16),
                    false, StandardCharsets.UTF_8)) {
                pristine.restore();
                exit = runOnce(fields[1], Arrays.copyOfRange(fields, 2, fields.length), output);
                output.flush();
                if (output.checkError()) {
                    exit = -1;
                }
            } catch (Throwable e) { // TLC's own failure, or no room for its output
                exit = -1;
            } finally {
                System.setOut(discard);
                System.setErr(discard);
                util.ToolIO.out = discard;
                util.ToolIO.err = discard;
            }
            if (exit < 0) {
                replies.println("failed");
                return;
            }
            replies.println("done " + exit);
        }
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

    /** The values of some classes' static fields that a run may change, to put them back before the next. */
    private record StaticFields(Map<Field, Object> values) {

        static StaticFields of(Class<?>... classes) {
            Map<Field, Object> values = new LinkedHashMap<>();
            for (Class<?> c : classes) {
                for (Field f : c.getDeclaredFields()) {
                    int mods = f.getModifiers();
                    if (Modifier.isStatic(mods) && !Modifier.isFinal(mods)) {
                        f.setAccessible(true);
                        try {
                            values.put(f, f.get(null));
                        } catch (IllegalAccessException e) {
                            throw new IllegalStateException("cannot read " + f, e);
                        }
                    }
                }
            }
            return new StaticFields(values);
        }

        void restore() {
            values.forEach((f, v) -> {
                try {
                    f.set(null, v);
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("cannot reset " + f, e);
                }
            });
        }
    }
}
