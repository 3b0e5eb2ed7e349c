package io.proofgate.benchmarks;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the benchmarks and prints each claim as a ratio against its baseline from the same run (these machines are
 * noisy; absolute numbers are printed too, for the absolute goals). Usage: {@code java -jar benchmarks.jar [REGEX]
 * [--quick] [-- JMH_OPTIONS...]}.
 */
public final class Ratios {

    /**
     * A claim: {@code benchmark / baseline}, both method names of {@code benchmarkClass}, in the unit of JMH's
     * secondary result {@code counter} (an {@code @AuxCounters} field) or, with {@code counter} empty, of the primary
     * score.
     */
    record Claim(String benchmarkClass, String benchmark, String baseline, String counter, double goal, String what) {
        Claim(String benchmarkClass, String benchmark, String baseline, double goal, String what) {
            this(benchmarkClass, benchmark, baseline, "", goal, what);
        }
    }

    static final List<Claim> CLAIMS =
            List.of(
                    // no goal: kept to see a regression of the core; no user waits on its millions of
                    // evaluations a second (a scheduler makes thousands, and replay is bound by parsing)
                    new Claim(
                            "ValidatorBenchmark",
                            "connector",
                            "lookupBaseline",
                            "requests",
                            0.0,
                            "validator request evaluations/s against one hash-map lookup per request"),
                    // no goal here: replay's goal is a whole-process one (docs/performance.md), since this
                    // in-memory ratio moves by half between two runs of one build on a shared machine
                    new Claim(
                            "ReplayBenchmark",
                            "endToEnd",
                            "jacksonOnly",
                            0.0,
                            "replay end to end against Jackson streaming alone on the same bytes"),
                    new Claim(
                            "StateGraphParseBenchmark",
                            "antlrDot",
                            "jacksonItf",
                            "bytes",
                            0.5,
                            "TLC state graph (dot) through the ANTLR grammars against Jackson reading the same states"
                                    + " as ITF JSON (bytes/s)"),
                    new Claim(
                            "PageStoreBenchmark",
                            "hostGather",
                            "hostBulkCopy",
                            0.8,
                            "host gather of 16 MiB in pages against one MemorySegment.copy of 16 MiB (goal from 64 KiB"
                                    + " pages up)"),
                    new Claim(
                            "PageStoreBenchmark",
                            "hostScatter",
                            "hostBulkCopy",
                            0.8,
                            "host scatter of 16 MiB in pages against one MemorySegment.copy of 16 MiB (goal from 64 KiB"
                                    + " pages up)"),
                    new Claim(
                            "PageStoreBenchmark",
                            "cudaGather",
                            "cudaBulkCopy",
                            0.7,
                            "CUDA gather of 16 MiB in pages (one kernel launch) against one cuMemcpyDtoDAsync_v2 of 16"
                                    + " MiB"),
                    new Claim(
                            "PageStoreBenchmark",
                            "cudaScatter",
                            "cudaBulkCopy",
                            0.7,
                            "CUDA scatter of 16 MiB in pages (one kernel launch) against one cuMemcpyDtoDAsync_v2 of 16"
                                    + " MiB"),
                    new Claim(
                            "PageStoreBenchmark",
                            "cudaGatherBatched",
                            "cudaBulkCopy",
                            0.0,
                            "CUDA gather as one cuMemcpyBatchAsync_v2 instead of the kernel, same baseline"),
                    new Claim(
                            "PageStoreBenchmark",
                            "cudaPinnedHostToDevice",
                            "cudaPinnedScale",
                            0.0,
                            "pinned host-to-device GB/s = score x 16 MiB / 1e9 (ratio against device-to-device for"
                                    + " scale)"),
                    new Claim(
                            "PageStoreBenchmark",
                            "cudaPinnedDeviceToHost",
                            "cudaPinnedScale",
                            0.0,
                            "pinned device-to-host GB/s = score x 16 MiB / 1e9 (ratio against device-to-device for"
                                    + " scale)"));

    private Ratios() {}

    /** {@code ""}, or {@code " [name=value,...]"} with the parameters zero-padded so that they sort by size. */
    static String paramsOf(RunResult result) {
        var params = result.getParams();
        if (params.getParamsKeys().isEmpty()) {
            return "";
        }
        List<String> pairs = new ArrayList<>();
        for (String key : params.getParamsKeys()) {
            String value = params.getParam(key);
            pairs.add(key + "=" + (value.matches("\\d+") ? String.format("%8s", value) : value));
        }
        return " [" + String.join(",", pairs) + "]";
    }

    public static void main(String[] args) throws RunnerException {
        String include = ".*";
        boolean quick = false;
        List<String> jmh = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--quick")) {
                quick = true;
            } else if (args[i].equals("--")) {
                jmh.addAll(List.of(args).subList(i + 1, args.length));
                break;
            } else if (args[i].startsWith("-")) {
                System.err.println(
                        "benchmarks: unknown option "
                                + args[i]
                                + "; JMH's own options go after --"
                                + " (usage: [REGEX] [--quick] [-- JMH_OPTIONS...], e.g. -- -f 3 -wi 5)");
                System.exit(2);
            } else {
                include = args[i];
            }
        }
        CommandLineOptions given;
        try {
            given = new CommandLineOptions(jmh.toArray(String[]::new));
        } catch (CommandLineOptionException e) {
            System.err.println("benchmarks: JMH's options after --: " + e.getMessage());
            System.exit(2);
            return;
        }
        // JMH's options after -- override the benchmarks' annotations; --quick overrides both
        ChainedOptionsBuilder options =
                new OptionsBuilder().include("io\\.proofgate\\.benchmarks\\..*" + include + ".*");
        if (quick) {
            options.warmupIterations(1)
                    .measurementIterations(2)
                    .measurementTime(TimeValue.seconds(1))
                    .warmupTime(TimeValue.seconds(1));
        }
        options.parent(given);
        Collection<RunResult> results = new Runner(options.build()).run();
        Map<String, double[]> scores = new HashMap<>();
        for (RunResult result : results) {
            String label = result.getParams().getBenchmark();
            String name = label.substring(label.lastIndexOf('.', label.lastIndexOf('.') - 1) + 1);
            var primary = result.getPrimaryResult();
            // Parameterized benchmarks: one score per parameter set, compared with the baseline's same set.
            String params = paramsOf(result);
            scores.put(name + params, new double[] {primary.getScore(), primary.getScoreError()});
            // Counters (@AuxCounters) come as secondary results, kept as "name params:counter".
            result.getSecondaryResults()
                    .forEach(
                            (counter, counted) ->
                                    scores.put(
                                            name + params + ":" + counter,
                                            new double[] {counted.getScore(), counted.getScoreError()}));
        }
        List<String> lines = new ArrayList<>();
        lines.add(String.format("%-50s %14s %14s %8s %6s", "claim", "score", "baseline", "ratio", "goal"));
        for (Claim claim : CLAIMS) {
            String prefix = claim.benchmarkClass() + "." + claim.benchmark();
            boolean any = false;
            String unit = claim.counter().isEmpty() ? "" : ":" + claim.counter();
            for (String key : new java.util.TreeSet<>(scores.keySet())) {
                if (key.contains(":") || (!key.equals(prefix) && !key.startsWith(prefix + " "))) {
                    continue;
                }
                String params = key.substring(prefix.length());
                double[] score = scores.get(key + unit);
                double[] baseline = scores.get(claim.benchmarkClass() + "." + claim.baseline() + params + unit);
                if (score == null || baseline == null) {
                    // a claim in a counter's unit is never made from scores in another unit
                    continue;
                }
                any = true;
                lines.add(
                        String.format(
                                "%-50s %14.4g %14.4g %8.3f %6s",
                                key,
                                score[0],
                                baseline[0],
                                score[0] / baseline[0],
                                claim.goal() == 0 ? "-" : ">=" + claim.goal()));
            }
            if (any) {
                lines.add("    " + claim.what());
            }
        }
        System.out.println();
        lines.forEach(System.out::println);
    }
}
