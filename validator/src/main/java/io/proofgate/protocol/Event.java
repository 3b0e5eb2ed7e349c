package io.proofgate.protocol;

import java.util.List;
import java.util.Objects;

/** One input to the connector: the replay event kinds of protocol §5 (after the topology line). */
public sealed interface Event {

    /**
     * One scheduler step. {@code evidence} is the {@code recurrent_boundary_blocks} field as it arrived ({@link
     * RawValue.Absent} when the field was missing). The cached requests are kept flat ({@link CachedRequests}), the
     * form a reader builds and the connector reads.
     */
    record Step(
            long step,
            List<NewRequest> newRequests,
            CachedRequests cachedRequests,
            List<String> preempted,
            RawValue evidence)
            implements Event {
        public Step {
            newRequests = List.copyOf(newRequests);
            Objects.requireNonNull(cachedRequests, "cachedRequests");
            preempted = List.copyOf(preempted);
        }

        public Step(
                long step,
                List<NewRequest> newRequests,
                List<CachedRequest> cachedRequests,
                List<String> preempted,
                RawValue evidence) {
            this(step, newRequests, CachedRequests.of(cachedRequests), preempted, evidence);
        }
    }

    /** The request finished: its pending state is dropped, nothing is published. */
    record Finished(String id) implements Event {}

    /** Worker rank {@code rank} reports that it holds the prefix {@code digest}. */
    record Held(int rank, String digest) implements Event {}

    /**
     * vLLM asks the connector how many tokens of a waiting request's prompt it can load beyond the {@code computed}
     * that vLLM's own prefix cache gives ({@code get_num_new_matched_tokens}); the request is scheduled later as a new
     * request whose {@code external} tokens are the answer.
     */
    record Lookup(String id, String digest, long promptTokens, long computed) implements Event {}

    /**
     * A request in its first scheduled step. {@code external} of its {@code computed} tokens are the connector's hit,
     * which the connector loads into its blocks ({@code update_state_after_alloc}); the rest vLLM had.
     */
    record NewRequest(
            String id,
            String digest,
            long promptTokens,
            long computed,
            long scheduled,
            BlockIds blockIds,
            long external) {
        /** A request with no tokens from the connector. */
        public NewRequest(
                String id, String digest, long promptTokens, long computed, long scheduled, BlockIds blockIds) {
            this(id, digest, promptTokens, computed, scheduled, blockIds, 0);
        }
    }

    /** A request scheduled again; {@code resumed} is true on its first step after a preemption. */
    record CachedRequest(String id, long computed, long scheduled, BlockIds newBlockIds, boolean resumed) {}
}
