package io.proofgate.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * README.md's examples run as shown: each command it shows with its output is run from the checkout's root, by bash as
 * written, and what it prints (stdout and stderr together) must be what the README prints, timings aside. A line "…" in
 * the README stands for any number of lines, and "…" within a line for any text. The README's folders under /tmp are
 * folders of the test's own, and ./proofgate is this build's command line (the launcher only adds a build of the jar).
 *
 * <p>It runs beside the module's other classes (src/test/resources/junit-platform.properties): each command is a
 * process of its own, which reads no property the other classes set.
 */
@Execution(ExecutionMode.CONCURRENT)
class ReadmeExamplesTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** A guard against a hung command only, far above the slowest example on a loaded machine. */
    private static final long LIMIT_MINUTES = 30;

    @TempDir static Path tmp;

    /** One example: the command line as the README writes it, and the lines it shows below it. */
    record Example(int line, String command, List<String> shown) {}

    @TestFactory
    Stream<DynamicTest> everyReadmeExamplePrintsWhatTheReadmeShows() throws IOException {
        List<Example> examples = examples(Files.readAllLines(ROOT.resolve("README.md"), StandardCharsets.UTF_8));
        assertTrue(examples.size() >= 7, "README.md shows " + examples.size() + " examples");
        return examples.stream()
                .map(
                        example ->
                                DynamicTest.dynamicTest(
                                        "README.md:" + example.line() + ": " + example.command(),
                                        () -> {
                                            Run run = run(example.command());
                                            // 2 is a run that could not be judged: no example of the README is one
                                            assertTrue(
                                                    run.exit() == 0 || run.exit() == 1,
                                                    "exit " + run.exit() + ":\n" + run.output());
                                            String mismatch =
                                                    Shown.mismatch(example.shown(), run.output().lines().toList());
                                            assertEquals(
                                                    null,
                                                    mismatch,
                                                    () ->
                                                            "README.md:"
                                                                    + example.line()
                                                                    + ": "
                                                                    + mismatch
                                                                    + "\n--- printed:\n"
                                                                    + run.output());
                                        }));
    }

    /**
     * The examples: a fenced block whose first line is {@code $ COMMAND}, the rest its output; and a block holding only
     * a {@code ./proofgate} command, followed at once by a block of its output (the main job's form, which a reader
     * copies as it is).
     */
    static List<Example> examples(List<String> readme) {
        List<Example> examples = new ArrayList<>();
        List<int[]> blocks = new ArrayList<>(); // [first line inside, end fence]
        for (int i = 0; i < readme.size(); i++) {
            if (readme.get(i).startsWith("```")) {
                int end = i + 1;
                while (end < readme.size() && !readme.get(end).startsWith("```")) {
                    end++;
                }
                blocks.add(new int[] {i + 1, end});
                i = end;
            }
        }
        for (int b = 0; b < blocks.size(); b++) {
            List<String> lines = readme.subList(blocks.get(b)[0], blocks.get(b)[1]);
            if (!lines.isEmpty() && lines.getFirst().startsWith("$ ")) {
                examples.add(
                        new Example(
                                blocks.get(b)[0] + 1,
                                lines.getFirst().substring(2),
                                List.copyOf(lines.subList(1, lines.size()))));
            } else if (lines.size() == 1
                    && lines.getFirst().startsWith("./proofgate ")
                    && b + 1 < blocks.size()
                    && onlyBlankBetween(readme, blocks.get(b)[1] + 1, blocks.get(b + 1)[0] - 1)) {
                List<String> output = readme.subList(blocks.get(b + 1)[0], blocks.get(b + 1)[1]);
                examples.add(new Example(blocks.get(b)[0] + 1, lines.getFirst(), List.copyOf(output)));
            }
        }
        return examples;
    }

    private static boolean onlyBlankBetween(List<String> readme, int from, int to) {
        return readme.subList(from, to).stream().allMatch(String::isBlank);
    }

    record Run(int exit, String output) {}

    /**
     * The command line by bash from the checkout's root, ./proofgate this build's Main, /tmp/NAME a folder of the
     * test's.
     */
    private static Run run(String command) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String proofgate =
                "proofgate() { "
                        + quote(java)
                        + " --enable-native-access=ALL-UNNAMED -Xss8m -Dproofgate.root="
                        + quote(ROOT.toString())
                        + " -cp "
                        + quote(System.getProperty("java.class.path"))
                        + " io.proofgate.cli.Main \"$@\"; }; ";
        String line =
                command.replace("./proofgate ", "proofgate ")
                        .replaceAll("/tmp/([A-Za-z0-9_-]+)", Matcher.quoteReplacement(tmp.toString()) + "/$1");
        // the output goes to a file, so that the time limit holds even for a command that keeps its output open
        Path output = Files.createTempFile(tmp, "output-", ".txt");
        Process process =
                new ProcessBuilder("bash", "-c", proofgate + line)
                        .directory(ROOT.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(output.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                        .start();
        if (!process.waitFor(LIMIT_MINUTES, TimeUnit.MINUTES)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError("still running after " + LIMIT_MINUTES + " minutes: " + command);
        }
        return new Run(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
    }

    private static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    /** The README's lines against what a command printed. */
    static final class Shown {

        private static final String ANY = "…";

        /** TLC's progress lines: how many a run prints depends on how long it takes. */
        private static final Pattern PROGRESS = Pattern.compile("\\s+\\d+ s\\s+[\\d,]+ distinct states, .*");

        /** Timings, the folders named after a run, and the default worker count (the machine's cores). */
        private static final List<Pattern> TIMINGS =
                List.of(
                        Pattern.compile("\\b\\d[\\d,.]* s\\b"),
                        Pattern.compile("\\b\\d[\\d,.]* states/s\\b"),
                        Pattern.compile("\\brun-\\d+\\b"),
                        Pattern.compile("\\b\\d+ workers\\b"));

        private Shown() {}

        /** Null where {@code printed} is what {@code shown} shows; else the first shown line that it is not. */
        static String mismatch(List<String> shown, List<String> printed) {
            List<String> want = shown.stream().filter(l -> !PROGRESS.matcher(l).matches()).toList();
            List<String> got =
                    printed.stream().filter(l -> !PROGRESS.matcher(l).matches()).map(Shown::untimed).toList();
            assertFalse(want.isEmpty(), "an example that shows no output");
            // matched[i][j]: the first i shown lines are the first j printed lines
            boolean[][] matched = new boolean[want.size() + 1][got.size() + 1];
            matched[0][0] = true;
            int deepest = 0;
            for (int i = 1; i <= want.size(); i++) {
                String line = want.get(i - 1);
                boolean gap = line.strip().equals(ANY);
                Pattern pattern = gap ? null : pattern(untimed(line));
                boolean any = false;
                for (int j = 0; j <= got.size(); j++) {
                    matched[i][j] =
                            gap
                                    ? matched[i - 1][j] || (j > 0 && matched[i][j - 1])
                                    : j > 0 && matched[i - 1][j - 1] && pattern.matcher(got.get(j - 1)).matches();
                    any |= matched[i][j];
                }
                if (any) {
                    deepest = i;
                }
            }
            if (matched[want.size()][got.size()]) {
                return null;
            }
            return deepest == want.size()
                    ? "printed more after its last line \"" + want.getLast() + "\" (end the block with …)"
                    : "not printed where the README shows it: \"" + want.get(deepest) + "\"";
        }

        private static String untimed(String line) {
            for (Pattern timing : TIMINGS) {
                line =
                        timing.matcher(line)
                                .replaceAll(
                                        m ->
                                                m.group().startsWith("run-")
                                                        ? "run-N"
                                                        : m.group().replaceFirst("^[\\d,.]+", "N"));
            }
            return line;
        }

        /** The line as a pattern: literal but for each "…", which stands for any text. */
        private static Pattern pattern(String line) {
            return Pattern.compile(
                    java.util.Arrays.stream(line.split(ANY, -1))
                            .map(Pattern::quote)
                            .collect(java.util.stream.Collectors.joining(".*")));
        }
    }
}
