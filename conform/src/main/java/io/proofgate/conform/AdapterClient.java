package io.proofgate.conform;

import io.proofgate.words.Capability;
import io.proofgate.words.Formats;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The kit's side of {@code proofgate-adapter/v1}: the hello, then messages sent ahead of their answers, each answered
 * by lines up to the end marker, in order. Every line is read strictly ({@link AnswerReader}).
 */
public final class AdapterClient implements AutoCloseable {

    static final String HELLO = "{\"kind\":\"hello\",\"protocol\":\"" + Formats.ADAPTER + "\"}";
    static final String SUMMARY = "{\"kind\":\"summary\"}";

    private final Adapter adapter;
    private final Duration patience;
    private final AnswerLimits limits;
    private final Line.Hello hello;
    private long answers;

    private AdapterClient(Adapter adapter, Duration patience, AnswerLimits limits, Line.Hello hello) {
        this.adapter = adapter;
        this.patience = patience;
        this.limits = limits;
        this.hello = hello;
    }

    /** Says hello to the adapter; its answer must be one hello line in the kit's protocol. */
    public static AdapterClient open(Adapter adapter, Duration patience) throws AdapterException {
        return open(adapter, patience, AnswerLimits.DEFAULT);
    }

    /**
     * The least time the hello may take, whatever the patience: it includes the adapter's start (an interpreter and its
     * imports, a framework such as vLLM among them), which a loaded machine stretches far more than an answer. A hung
     * adapter is still found at its hello, in a minute.
     */
    static final Duration HELLO_PATIENCE = Duration.ofSeconds(60);

    /** As {@link #open(Adapter, Duration)}, each answer bounded by {@code limits}. */
    public static AdapterClient open(Adapter adapter, Duration patience, AnswerLimits limits) throws AdapterException {
        List<Line> answer;
        try {
            answer =
                    exchange(
                            adapter, patience.compareTo(HELLO_PATIENCE) > 0 ? patience : HELLO_PATIENCE, limits, HELLO);
        } catch (AdapterException e) {
            adapter.close();
            throw new AdapterException("did not answer the hello: it " + e.getMessage());
        }
        if (answer.size() != 1 || !(answer.getFirst() instanceof Line.Hello hello)) {
            adapter.close();
            throw new AdapterException("answered the hello without exactly one hello line");
        }
        if (!hello.protocol().equals(Formats.ADAPTER)) {
            adapter.close();
            throw new AdapterException(
                    "speaks "
                            + io.proofgate.words.Outside.quoted(hello.protocol())
                            + "; the kit speaks "
                            + Formats.ADAPTER);
        }
        return new AdapterClient(adapter, patience, limits, hello);
    }

    public Line.Hello hello() {
        return hello;
    }

    public Set<Capability> capabilities() {
        return hello.capabilities();
    }

    /**
     * Sends messages without waiting for their answers: the protocol lets the kit send ahead, and one round trip per
     * scenario instead of one per event is most of the throughput through a pipe. Reading the answers finds where an
     * adapter that is gone stopped.
     */
    void send(List<String> messages) {
        adapter.send(messages);
    }

    /**
     * Sends namespace probes ahead, as a scenario's messages are sent, and reads each answer: one namespace line, or
     * one error line (a refusal). Anything else breaks the protocol.
     */
    public List<Line> namespace(List<String> probes) throws AdapterException {
        send(probes);
        List<Line> answers = new ArrayList<>(probes.size());
        for (int i = 0; i < probes.size(); i++) {
            List<Line> answer;
            try {
                answer = answer();
            } catch (AdapterException e) {
                throw new AdapterException(
                        "namespace probe " + (i + 1) + " of " + probes.size() + ": the adapter " + e.getMessage());
            }
            if (answer.size() != 1
                    || !(answer.getFirst() instanceof Line.Namespace || answer.getFirst() instanceof Line.Refused)) {
                throw new AdapterException(
                        "namespace probe "
                                + (i + 1)
                                + " of "
                                + probes.size()
                                + ": the adapter answered"
                                + " without exactly one namespace or error line");
            }
            answers.add(answer.getFirst());
        }
        return answers;
    }

    /** The next answer, the end marker left out. */
    List<Line> answer() throws AdapterException {
        answers++;
        return answer(adapter, patience, limits);
    }

    /** Answers read so far. */
    long answers() {
        return answers;
    }

    private static List<Line> exchange(Adapter adapter, Duration patience, AnswerLimits limits, String message)
            throws AdapterException {
        adapter.send(message);
        return answer(adapter, patience, limits);
    }

    private static List<Line> answer(Adapter adapter, Duration patience, AnswerLimits limits) throws AdapterException {
        List<Line> answer = new ArrayList<>();
        long bytes = 0;
        long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            long left = Math.max(0, deadline - System.nanoTime());
            String text;
            try {
                text = adapter.receive(Duration.ofNanos(left));
            } catch (AdapterException e) {
                throw answer.isEmpty()
                        ? e
                        : new AdapterException(e.getMessage() + ", after " + lines(answer.size()) + " of its answer");
            }
            if (text == null) {
                throw new AdapterException(
                        (answer.isEmpty()
                                        ? "gave no answer within " + seconds(patience) + " (it hangs)"
                                        : "printed "
                                                + lines(answer.size())
                                                + " but no end marker {\"kind\":\"end\"} within "
                                                + seconds(patience))
                                + adapter.diagnostics());
            }
            // before the line is kept: what the kit holds of one answer is bounded, whatever the adapter prints
            // (blank lines too: they are not kept, but a flood of them would never end the answer)
            bytes += AnswerLimits.utf8Length(text) + 1;
            if (text.isBlank() && bytes <= limits.bytes()) {
                continue;
            }
            if (answer.size() >= limits.lines() || bytes > limits.bytes()) {
                throw new AdapterException(
                        "printed more than "
                                + (answer.size() >= limits.lines()
                                        ? limits.lines() + " lines"
                                        : limits.bytes() + " bytes")
                                + " in one answer without its end marker {\"kind\":\"end\"} (the limit of"
                                + " one answer; raise it with "
                                + (answer.size() >= limits.lines() ? "--max-answer-lines" : "--max-answer-bytes")
                                + ")");
            }
            Line line = AnswerReader.read(text);
            if (line instanceof Line.End) {
                return answer;
            }
            answer.add(line);
        }
    }

    private static String lines(int count) {
        return count + " line" + (count == 1 ? "" : "s");
    }

    private static String seconds(Duration patience) {
        return patience.toMillis() % 1000 == 0 ? patience.toSeconds() + " s" : patience.toMillis() + " ms";
    }

    long waitedNanos() {
        return adapter.waitedNanos();
    }

    /**
     * Ends the adapter: closes its input, looks whether it printed anything after its last answer (that would be output
     * nothing compared) or exited with a failure (a crash at its end, which its answers do not show), then stops it.
     * Returns that problem, or null.
     */
    public String finish() {
        String line = adapter.leftover(Duration.ofMillis(Math.min(2000, patience.toMillis())));
        String exit = line == null ? adapter.failedExit() : null;
        adapter.close();
        return line != null ? "printed after its last answer: " + Json.excerpt(line) : exit;
    }

    @Override
    public void close() {
        adapter.close();
    }
}
