package io.proofgate.protocol;

import io.proofgate.words.PoisonCode;
import io.proofgate.words.RetireCause;

import java.math.BigInteger;
import java.util.List;

/** What the connector decided about one request in one event (protocol §5 output lines). */
public sealed interface Verdict {

    long step();

    String id();

    /**
     * The store plan: attention blocks from the table, recurrent blocks from the latch; the wire writes {@code target}
     * as {@code span}.
     */
    record Plan(long step, String id, String digest, long target, BlockIds blocksByGroup, List<GroupBlock> recurrent)
            implements Verdict {
        public Plan {
            recurrent = List.copyOf(recurrent);
        }
    }

    /**
     * A poisoned attempt. {@code observed}, {@code group} and {@code block} are null where they do not apply; {@code
     * target} is the request's target.
     */
    record Rejected(
            long step,
            String id,
            PoisonCode code,
            String reason,
            BigInteger observed,
            long target,
            Integer group,
            BigInteger block)
            implements Verdict {}

    /** Pending state dropped without a plan. */
    record Retired(long step, String id, RetireCause cause) implements Verdict {}

    /**
     * The answer to a lookup: {@code tokens} of the prompt beyond the tokens vLLM has, which the connector loads if
     * vLLM takes them (0: none). {@code step} is the last step's.
     */
    record Hit(long step, String id, long tokens) implements Verdict {}

    /**
     * What the connector loads for a request that vLLM scheduled with its hit: the state of prefix {@code digest} at
     * {@code restored} tokens (vLLM's own and the hit; the wire's {@code span}), into {@code blocksByGroup}, the
     * request's own blocks that hold the tokens it loads (an attention group's below there, a recurrent group's state
     * block at it).
     */
    record Load(long step, String id, String digest, long restored, BlockIds blocksByGroup) implements Verdict {}
}
