package io.proofgate.bytecheck;

/**
 * What a simulated vLLM block holds: the state version the harness derives its bytes from ({@link PageBytes}). Blocks
 * that were never written hold nothing and have no value here.
 */
public sealed interface BlockContent {

    /** A 64-bit key that, with the group and block id, determines the block's bytes. */
    long key();

    /** For findings: "the recurrent state at 8256 of d1". */
    String describe();

    /** Attention KV of the prefix {@code digest}, token chunk {@code chunk} (block position in the table). */
    record Attention(String digest, long chunk) implements BlockContent {
        @Override
        public long key() {
            return PageBytes.mix(PageBytes.fnv(digest) ^ 0xA77E_0000_0000_0000L ^ chunk);
        }

        @Override
        public String describe() {
            return "attention chunk " + chunk + " of " + digest;
        }
    }

    /** The recurrent state of the prefix {@code digest} after {@code tokens} tokens. */
    record Recurrent(String digest, long tokens) implements BlockContent {
        @Override
        public long key() {
            return PageBytes.mix(PageBytes.fnv(digest) ^ 0x5EC0_0000_0000_0000L ^ tokens);
        }

        @Override
        public String describe() {
            return "the recurrent state at " + tokens + " of " + digest;
        }
    }

    /**
     * A block that vLLM released (a pinned block of a preempted or finished request): vLLM may reuse it at once, so the
     * harness scribbles over it, and a publication that still relies on it fails the byte check.
     */
    record Released(String request, long step) implements BlockContent {
        @Override
        public long key() {
            return PageBytes.mix(PageBytes.fnv(request) ^ 0xDEAD_0000_0000_0000L ^ step);
        }

        @Override
        public String describe() {
            return "garbage (released by " + request + " in step " + step + ")";
        }
    }

    /** The filler a fresh restore target holds before the scatter, so a no-op scatter shows. */
    record Fresh(long plan) implements BlockContent {
        @Override
        public long key() {
            return PageBytes.mix(0xF4E5_0000_0000_0000L ^ plan);
        }

        @Override
        public String describe() {
            return "the fresh-block filler";
        }
    }

    /**
     * Bytes that no request's tokens computed: a rejected draft's column, a state computed from such bytes, a block
     * never written (a scenario that states the blocks' contents says so).
     */
    record Uncomputed() implements BlockContent {
        @Override
        public long key() {
            return PageBytes.mix(0x0C0C_0000_0000_0000L);
        }

        @Override
        public String describe() {
            return "bytes that no request's tokens computed";
        }
    }
}
