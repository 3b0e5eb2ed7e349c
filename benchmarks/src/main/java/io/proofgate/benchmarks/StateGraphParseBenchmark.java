package io.proofgate.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.proofgate.check.CheckOptions;
import io.proofgate.check.Model;
import io.proofgate.check.ModelCatalog;
import io.proofgate.check.ModelCheck;
import io.proofgate.graph.StateGraph;
import io.proofgate.graph.StateGraphReader;
import io.proofgate.tlc.TlcProcess;
import io.proofgate.value.TlaState;
import io.proofgate.value.TlaValue;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The parser's claim (docs/performance.md, "Reading TLC state graphs"): reading TLC's {@code -dump dot,actionlabels}
 * state graph of the interleaved model (28,787 states) with the ANTLR grammars (dot, then every state label as TLA+
 * values) against Jackson's tree parser reading the same states written as ITF JSON (Apalache's Informal Trace Format:
 * sets as {"#set": [...]}, functions as {"#map": [[k, v]]}). Both parse from the UTF-8 bytes of their document in
 * memory (the dot reader as {@code StateGraphReader.read(Path)} does: TLC's ASCII is lexed from the bytes as they are).
 * The ITF document holds the states only, as the issue asks ("the same states"); the dot file also holds the 299,215
 * edges, 31 of its 55.8 MB. Each counts the bytes of its input, so the ratio is in the MB/s; the primary scores
 * are documents per second, and their ratio is the same comparison per state (both documents hold the same 28,787
 * states). Three forks with a fixed heap: in one JVM, Jackson's score alone moves by a factor of three from run to run
 * with the collector's sizing. Setup runs TLC once (about 40 s) when the spec is newer than the kept dump. Run from the
 * repository root: {@code benchmarks/run StateGraphParseBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(
        value = 3,
        jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch", "-Xss16m"})
public class StateGraphParseBenchmark {

    private byte[] dot;
    private byte[] itf;
    private final ObjectMapper json = new ObjectMapper();

    /** Input bytes parsed, reported by JMH as bytes per second beside the documents per second. */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(Scope.Thread)
    public static class Parsed {
        public long bytes;

        @Setup(Level.Iteration)
        public void reset() {
            bytes = 0;
        }
    }

    @Setup(Level.Trial)
    public void setup() throws IOException, InterruptedException {
        Path root = Path.of("").toAbsolutePath();
        Model model = ModelCatalog.of(root.resolve("spec")).resolve("spec/MCPublicationInterleaved.cfg");
        Path dir = root.resolve("target/proofgate/bench");
        Files.createDirectories(dir);
        Path file = dir.resolve("interleaved.dot");
        if (olderThanSpec(file, root.resolve("spec"))) {
            TlcProcess.run(
                    ModelCheck.command(
                                    model, new CheckOptions(2, CheckOptions.DEFAULT_HEAP, dir, Duration.ofMinutes(10)))
                            .withDumpDot(file),
                    m -> {});
        }
        dot = Files.readAllBytes(file);
        StateGraph graph = StateGraphReader.read("bench", dot);
        StringBuilder text = new StringBuilder("{\"#meta\":{\"format\":\"ITF\"},\"states\":[");
        boolean first = true;
        for (TlaState state : graph.states().values()) {
            text.append(first ? "" : ",");
            first = false;
            text.append('{');
            boolean firstVar = true;
            for (Map.Entry<String, TlaValue> variable : state.vars().entrySet()) {
                text.append(firstVar ? "" : ",").append(quote(variable.getKey())).append(':');
                itf(variable.getValue(), text);
                firstVar = false;
            }
            text.append('}');
        }
        itf = text.append("]}").toString().getBytes(StandardCharsets.UTF_8);
        System.out.printf(
                "%n%d states: dot %.1f MB, ITF %.1f MB%n", graph.states().size(), dot.length / 1e6, itf.length / 1e6);
    }

    @Benchmark
    public Object antlrDot(Parsed parsed) throws IOException {
        parsed.bytes += dot.length;
        return StateGraphReader.read("bench", dot);
    }

    @Benchmark
    public Object jacksonItf(Parsed parsed) throws IOException {
        parsed.bytes += itf.length;
        return json.readTree(itf);
    }

    /** A dump kept from an earlier run is reused only while no spec file is newer than it. */
    private static boolean olderThanSpec(Path file, Path spec) throws IOException {
        if (!Files.exists(file)) {
            return true;
        }
        var written = Files.getLastModifiedTime(file);
        try (var files = Files.list(spec)) {
            for (Path source : files.toList()) {
                if (Files.getLastModifiedTime(source).compareTo(written) > 0) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void itf(TlaValue value, StringBuilder out) {
        switch (value) {
            case TlaValue.TlaInt(long n) -> out.append(n);
            case TlaValue.TlaString(String s) -> out.append(quote(s));
            case TlaValue.TlaBool(boolean b) -> out.append(b);
            case TlaValue.TlaModelValue(String name) ->
                    out.append("{\"#unserializable\":").append(quote(name)).append('}');
            case TlaValue.TlaSeq(List<TlaValue> elements) -> list(elements, out);
            case TlaValue.TlaSet(List<TlaValue> elements) -> {
                out.append("{\"#set\":");
                list(elements, out);
                out.append('}');
            }
            case TlaValue.TlaRecord record -> {
                out.append('{');
                for (int i = 0; i < record.fields().size(); i++) {
                    out.append(i == 0 ? "" : ",").append(quote(record.fields().get(i).name())).append(':');
                    itf(record.fields().get(i).value(), out);
                }
                out.append('}');
            }
            case TlaValue.TlaFunction function -> {
                out.append("{\"#map\":[");
                for (int i = 0; i < function.pairs().size(); i++) {
                    out.append(i == 0 ? "[" : ",[");
                    itf(function.pairs().get(i).key(), out);
                    out.append(',');
                    itf(function.pairs().get(i).value(), out);
                    out.append(']');
                }
                out.append("]}");
            }
        }
    }

    private static void list(List<TlaValue> elements, StringBuilder out) {
        out.append('[');
        for (int i = 0; i < elements.size(); i++) {
            out.append(i == 0 ? "" : ",");
            itf(elements.get(i), out);
        }
        out.append(']');
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
