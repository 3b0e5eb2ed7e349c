package io.proofgate.benchmarks;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import io.proofgate.replay.EventReader;
import io.proofgate.replay.Replay;
import io.proofgate.replay.ReplayLine;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.TimeUnit;

/**
 * Replay's claim (docs/performance.md, "Replay against Jackson's parse"): {@code replay} end to end (parse, validate,
 * write verdicts to a null stream) against Jackson's streaming parser alone reading every token and value of the same
 * bytes. Both read an in-memory copy of a 16 MiB synthetic log, so disk speed is out of the ratio. Rerun: {@code
 * benchmarks/run ReplayBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx2g"})
public class ReplayBenchmark {

    // The same factory configuration as replay, so the ratio compares work, not settings.
    private static final JsonFactory JSON = EventReader.FACTORY;

    @Param({"256req/13%evidence/1%preempted"})
    public String mix;

    private byte[] log;

    @Setup(Level.Trial)
    public void setup() {
        log = new SyntheticEvents(11, 256, 16L << 20).bytes;
    }

    @Benchmark
    public void jacksonOnly(Blackhole sink) throws IOException {
        try (JsonParser parser = JSON.createParser(new ByteArrayInputStream(log))) {
            JsonToken token;
            while ((token = parser.nextToken()) != null) {
                switch (token) {
                    case FIELD_NAME -> sink.consume(parser.currentName());
                    case VALUE_STRING -> sink.consume(parser.getText());
                    case VALUE_NUMBER_INT -> sink.consume(parser.getLongValue());
                    default -> sink.consume(token);
                }
            }
        }
    }

    /** Breakdown: reading events without validating them, to see where end-to-end time goes. */
    @Benchmark
    public void readEventsOnly(Blackhole sink) throws Exception {
        try (EventReader reader = new EventReader(new ByteArrayInputStream(log), "bench")) {
            sink.consume(reader.readTopology());
            ReplayLine line;
            while ((line = reader.next()) != null) {
                sink.consume(line);
            }
        }
    }

    @Benchmark
    public Object endToEnd() throws Exception {
        return Replay.run(new ByteArrayInputStream(log), "bench", OutputStream.nullOutputStream()).counters();
    }
}
