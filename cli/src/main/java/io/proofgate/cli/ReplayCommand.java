package io.proofgate.cli;

import io.proofgate.bytecheck.ByteCheckedReplay;
import io.proofgate.bytecheck.ByteFinding;
import io.proofgate.replay.OutputFailed;
import io.proofgate.replay.Replay;
import io.proofgate.replay.ReplayException;
import io.proofgate.replay.ReplayShard;
import io.proofgate.shard.ShardKey;
import io.proofgate.store.StoreKind;
import io.proofgate.store.cuda.CudaException;
import io.proofgate.store.cuda.CudaUnavailableException;
import io.proofgate.words.FileProblems;
import io.proofgate.words.Outside;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** {@code proofgate replay FILE|-}: protocol §5. */
final class ReplayCommand implements Command {

    private final java.util.function.Function<String, String> environment;

    ReplayCommand(java.util.function.Function<String, String> environment) {
        this.environment = environment;
    }

    @Override
    public String name() {
        return "replay";
    }

    @Override
    public String summary() {
        return "replay a proofgate-events/v1 log and print verdicts and a summary";
    }

    @Override
    public String help() {
        return """
        Usage: proofgate replay [--store host|cuda] FILE|-
               proofgate replay [--shard K/N --out FILE] LOG LOG...

        Replays a JSON Lines log of scheduler events (schema proofgate-events/v1: a topology
        line, then step, finished and held events) through the validator and writes one JSON
        object per line to stdout: a plan, rejected or retired verdict as each is decided, and
        a summary once the whole log has been read. Reads stdin when FILE is "-".

        A structural error (invalid JSON, an unknown kind or field, a missing or mistyped field)
        stops the run with FILE:LINE:COLUMN: PROBLEM on stderr and no summary line. Anything
        inside recurrent_boundary_blocks is evidence: it yields verdicts, never an error.
        The log format, the decision rules and the verdicts: docs/protocol.md (§3, §5, §6).

        --store host|cuda  also check every plan on bytes: simulate vLLM's block contents
                           from the events in that page store (cuda: device memory through
                           libcuda.so.1), gather each plan's blocks, compare every page with
                           the content at the target, restore into fresh blocks and compare
                           again. stdout is unchanged; findings go to stderr, one a line.

        Several logs are replayed each on its own, in argument order: a {"kind":"log","index":I,
        "path":P} line, then its verdicts and summary, or an {"kind":"error","message":...} line for
        a log with a structural error (the run goes on with the next; exit 2 at the end).
        --shard K/N replays the logs whose position is K modulo N into the result file --out (schema
        proofgate-replay-shard/v2: the list of logs, the SHA-256 of each log of the share, the output;
        signed with an HMAC when PROOFGATE_SHARD_KEY is set), and `proofgate merge-replay` combines the N
        files into what one run over all the logs prints (docs/scale.md).

        Exit codes: 0 the log was read to the end (rejections are verdicts, not errors);
        1 the byte check found a published page that is not the target's content;
        2 usage error, unreadable file, structural error in the log, or a store that
        cannot run here.
        """;
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        List<String> files = new ArrayList<>();
        var options = Options.parse(args, java.util.Set.of(), java.util.Set.of("--store", "--shard", "--out"), files);
        StoreKind store = null;
        if (options.containsKey("--store")) {
            String name = options.get("--store");
            store =
                    StoreKind.of(name)
                            .orElseThrow(
                                    () ->
                                            new UsageException(
                                                    "--store " + name + " is not a store (expected host or cuda)"));
        }
        if (files.isEmpty()) {
            throw new UsageException("missing FILE (a log path, or - for stdin)");
        }
        if (files.size() > 1 || options.containsKey("--shard") || options.containsKey("--out")) {
            if (store != null) {
                throw new UsageException(
                        files.size() > 1
                                ? "--store checks one log; give one FILE"
                                : "--store checks one log on standard output; it does not go with "
                                        + (options.containsKey("--shard") ? "--shard" : "--out"));
            }
            if (files.contains("-")) {
                throw new UsageException("- (stdin) is one log; several logs are files");
            }
            return several(files, options, out, err);
        }
        String file = files.getFirst();
        OutputStream sink = new BufferedOutputStream(new NonClosing(out), 1 << 16);
        // stdin is never closed: the JVM may hold files on descriptor 0 when the shell closed it
        try (InputStream in =
                file.equals("-")
                        ? new java.io.FilterInputStream(System.in) {
                            @Override
                            public void close() {}
                        }
                        : Files.newInputStream(Path.of(file))) {
            String source = file.equals("-") ? "<stdin>" : file;
            if (store == null) {
                Replay.run(in, source, sink);
                sink.flush();
                return Main.OK;
            }
            ByteCheckedReplay.Result result = ByteCheckedReplay.run(in, source, sink, store);
            sink.flush();
            return report(result, store, err);
        } catch (CudaUnavailableException | CudaException e) {
            flushQuietly(sink);
            err.println("proofgate replay: --store " + store.wireName() + ": " + e.getMessage());
            return Main.USAGE;
        } catch (IllegalStateException e) {
            if (store == null) {
                throw e;
            }
            // the harness's fixed pools are too small for this log
            flushQuietly(sink);
            err.println("proofgate replay: --store " + store.wireName() + ": " + e.getMessage());
            return Main.USAGE;
        } catch (ReplayException e) {
            flushQuietly(sink);
            err.println("proofgate replay: " + e.getMessage());
            return Main.USAGE;
        } catch (OutOfMemoryError e) {
            // The connector's state (pending requests, digests reported held) outgrew the heap, or
            // the reader thread ran out while parsing (a huge line, or nothing left to hand over).
            flushQuietly(sink);
            err.println(
                    "proofgate replay: "
                            + file
                            + ": out of memory (reading the log, or holding the"
                            + " connector's state: pending requests and held digests); no summary written;"
                            + " raise the heap with PROOFGATE_JVM_OPTS=-Xmx...");
            return Main.USAGE;
        } catch (OutputFailed e) {
            err.println("proofgate replay: " + e.getMessage());
            return Main.USAGE;
        } catch (IOException e) {
            flushQuietly(sink);
            err.println("proofgate replay: " + file + ": " + FileProblems.words(e));
            return Main.USAGE;
        }
    }

    /**
     * Several logs, or a shard of them: each replayed on its own after a log line (docs/scale.md). A log with a
     * structural error ends with an error line, its message on stderr too, and the run goes on with the next; the exit
     * is 2 when any log had one.
     */
    private int several(List<String> files, java.util.Map<String, String> options, PrintStream out, PrintStream err)
            throws UsageException {
        ShardOption shard =
                options.containsKey("--shard") ? ShardOption.parse(options.get("--shard")) : ShardOption.WHOLE;
        String outFile = options.get("--out");
        if (options.containsKey("--shard") && outFile == null) {
            throw new UsageException(
                    "--shard K/N writes its result file: give --out FILE (proofgate merge-replay combines them)");
        }
        if (outFile != null && !options.containsKey("--shard")) {
            // a shard file is not replay's output: one written where the output was asked for would read as it
            throw new UsageException(
                    "--out FILE writes a shard's result file, for proofgate merge-replay: give --shard K/N too (1"
                            + " shard: --shard 0/1); replay's output goes to standard output");
        }
        Optional<ShardKey> key;
        try {
            key = outFile == null ? Optional.empty() : ShardKey.from(environment);
        } catch (ShardKey.Refused e) {
            err.println("proofgate replay: " + e.getMessage());
            return Main.USAGE;
        }
        if (outFile != null) {
            Optional<String> refused =
                    AtomicFile.refusal(
                            Path.of(outFile),
                            () -> files.stream().map(Path::of).toList(),
                            log ->
                                    "it is also a log of the run ("
                                            + Outside.quoted(log.toString())
                                            + "), which its result file would replace");
            if (refused.isPresent()) {
                err.println("proofgate replay: --out " + Outside.bare(outFile) + ": " + refused.get());
                return Main.USAGE;
            }
        }
        List<String> errors;
        try {
            if (outFile == null) {
                OutputStream sink = new BufferedOutputStream(new NonClosing(out), 1 << 16);
                errors = ReplayShard.replay(files, shard.index(), shard.count(), sink);
                sink.flush();
            } else {
                List<String> found = new ArrayList<>();
                AtomicFile.write(
                        Path.of(outFile),
                        file -> {
                            // the HMAC covers every byte before the end line, which carries it
                            javax.crypto.Mac mac = key.map(ShardKey::mac).orElse(null);
                            OutputStream sink = mac == null ? file : new MacOutput(file, mac);
                            ReplayShard.line(
                                    sink,
                                    ReplayShard.header(
                                            files,
                                            shard.index(),
                                            shard.count(),
                                            ReplayShard.hashes(files, shard.index(), shard.count())));
                            found.addAll(ReplayShard.replay(files, shard.index(), shard.count(), sink));
                            ReplayShard.line(
                                    file,
                                    ReplayShard.end(
                                            mac == null ? null : java.util.HexFormat.of().formatHex(mac.doFinal())));
                        });
                errors = found;
            }
        } catch (OutputFailed e) {
            err.println("proofgate replay: " + (outFile == null ? "" : outFile + ": ") + e.getMessage());
            return Main.USAGE;
        } catch (IOException e) {
            err.println("proofgate replay: " + (outFile == null ? "stdout" : outFile) + ": " + FileProblems.words(e));
            return Main.USAGE;
        }
        errors.forEach(error -> err.println("proofgate replay: " + error));
        return errors.isEmpty() ? Main.OK : Main.USAGE;
    }

    /** Findings on stderr, one a line, exit 1; a passing check is one line on stderr, exit 0. */
    private static int report(ByteCheckedReplay.Result result, StoreKind store, PrintStream err) {
        if (result.findingCount() == 0) {
            err.println(
                    "proofgate replay: byte check passed on the "
                            + store.wireName()
                            + " store: "
                            + result.plansChecked()
                            + " plans, "
                            + result.pagesChecked()
                            + " pages");
            return Main.OK;
        }
        for (ByteFinding finding : result.findings()) {
            err.println("proofgate replay: byte check failed: " + finding.message());
        }
        if (result.findingCount() > result.findings().size()) {
            err.println(
                    "proofgate replay: byte check failed: "
                            + (result.findingCount() - result.findings().size())
                            + " more findings not shown");
        }
        return Main.FINDINGS;
    }

    private static void flushQuietly(OutputStream sink) {
        try {
            sink.flush();
        } catch (IOException ignored) {
            // stdout is gone; the error on stderr is what matters now
        }
    }
}
