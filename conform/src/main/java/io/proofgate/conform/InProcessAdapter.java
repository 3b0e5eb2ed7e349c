package io.proofgate.conform;

import io.proofgate.adapter.AdapterSession;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * proofgate's validator answering in the calling thread: the same lines as {@code proofgate adapter}, without the
 * process boundary. The baseline of the throughput figure.
 */
public final class InProcessAdapter implements Adapter {

    private final AdapterSession session = new AdapterSession();
    private final Deque<String> answer = new ArrayDeque<>();
    private long waited;

    @Override
    public void send(String message) {
        long start = System.nanoTime();
        answer.addAll(session.answer(message));
        waited += System.nanoTime() - start;
    }

    @Override
    public String receive(Duration patience) {
        return answer.pollFirst(); // null: nothing more, as a silent process would be
    }

    @Override
    public String leftover(Duration patience) {
        return answer.pollFirst();
    }

    @Override
    public long waitedNanos() {
        return waited;
    }

    @Override
    public void close() {}
}
