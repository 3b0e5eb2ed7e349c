package io.proofgate.benchmarks;

import io.proofgate.protocol.CachedRequests;
import io.proofgate.protocol.Connector;
import io.proofgate.protocol.Event;

import org.openjdk.jmh.annotations.AuxCounters;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The core's claim (docs/performance.md, "The core against its lookup floor"): validator request evaluations per
 * second, one thread, on the synthetic mix (256 scheduled requests per step, about 13% carrying evidence, about 1%
 * preempted; see {@link io.proofgate.replay.SyntheticLog}). Events are parsed in setup, so only {@link Connector#apply}
 * is timed. Baseline: the same events where each scheduled request costs one hash-map lookup and update of its
 * progress, the least a connector must do per request. Rerun: {@code benchmarks/run ValidatorBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx2g"})
@Threads(1)
public class ValidatorBenchmark {

    @Param({"256req/13%evidence/1%preempted"})
    public String mix;

    /**
     * The synthetic log's size. The claim is on 16 MiB; smaller logs fit in the caches and show the connector's own
     * work against the floor's ({@code -- -p logBytes=1048576}).
     */
    @Param({"16777216"})
    public long logBytes;

    private SyntheticEvents input;

    /** Counts request evaluations, so JMH reports them per second. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Evaluations {
        public long requests;

        @Setup(Level.Iteration)
        public void reset() {
            requests = 0;
        }
    }

    @Setup(Level.Trial)
    public void setup() {
        input = new SyntheticEvents(11, 256, logBytes);
    }

    @Benchmark
    public Object connector(Evaluations evaluations) {
        Connector connector = new Connector(input.topology);
        int verdicts = 0;
        for (Event event : input.events) {
            verdicts += connector.apply(event).size();
        }
        evaluations.requests += input.scheduledRequests;
        return verdicts;
    }

    @Benchmark
    public void lookupBaseline(Evaluations evaluations, Blackhole sink) {
        Map<String, long[]> progress = new HashMap<>();
        for (Event event : input.events) {
            if (event instanceof Event.Step step) {
                for (Event.NewRequest request : step.newRequests()) {
                    progress.put(request.id(), new long[] {request.computed() + request.scheduled()});
                }
                // through the same flat arrays the connector reads, so the floor is not raised by records made here
                CachedRequests cached = step.cachedRequests();
                for (int i = 0; i < cached.size(); i++) {
                    long[] done = progress.get(cached.id(i));
                    if (done != null) {
                        done[0] = cached.computed(i) + cached.scheduled(i);
                    }
                }
            } else if (event instanceof Event.Finished finished) {
                progress.remove(finished.id());
            }
        }
        sink.consume(progress);
        evaluations.requests += input.scheduledRequests;
    }
}
