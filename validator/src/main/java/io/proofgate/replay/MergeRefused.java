package io.proofgate.replay;

/** Replay shard files that are not what a merge needs: the message says which file, where, and why. */
public final class MergeRefused extends Exception {

    MergeRefused(String message) {
        super(message);
    }
}
