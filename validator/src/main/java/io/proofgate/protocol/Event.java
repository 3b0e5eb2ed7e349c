package io.proofgate.protocol;

import java.util.List;
import java.util.Objects;

/** One input to the connector: the replay event kinds of protocol §5 (after the topology line). */
public sealed interface Event {

    /**
     * One scheduler step. {@code evidence} is the {@code recurrent_boundary_blocks} field as it
     * arrived ({@link RawValue.Absent} when the field was missing). The cached requests are kept
     * flat ({@link CachedRequests}), the form a reader builds and the connector reads.
     */
    record Step(long step, List<NewRequest> newRequests, CachedRequests cachedRequests,
                         List<String> preempted, RawValue evidence) implements Event {
        public Step {
            newRequests = List.copyOf(newRequests);
            Objects.requireNonNull(cachedRequests, "cachedRequests");
            preempted = List.copyOf(preempted);
        }

        public Step(long step, List<NewRequest> newRequests, List<CachedRequest> cachedRequests,
                             List<String> preempted, RawValue evidence) {
            this(step, newRequests, CachedRequests.of(cachedRequests), preempted, evidence);
        }
    }

    /** The request finished: its pending state is dropped, nothing is published. */
    record Finished(String id) implements Event {}

    /** Worker rank {@code rank} reports that it holds the prefix {@code digest}. */
    record Held(int rank, String digest) implements Event {}

    /** A request in its first scheduled step. */
    record NewRequest(String id, String digest, long promptTokens, long computed, long scheduled,
                      BlockIds blockIds) {}

    /** A request scheduled again; {@code resumed} is true on its first step after a preemption. */
    record CachedRequest(String id, long computed, long scheduled, BlockIds newBlockIds, boolean resumed) {}
}
