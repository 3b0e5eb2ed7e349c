-------------------------- MODULE MCRestoreMutants --------------------------
(* The field's restore mistakes (docs/spec.md, "The restore half"), as     *)
(* rules a cfg in this folder named MCRestore*.cfg puts in place of the    *)
(* connector's or vLLM's (Restore.tla).  Each names CacheTransparent as    *)
(* what TLC must report violated (spec/models.json): the property every    *)
(* restore keeps, not an invariant written for the mistake.                *)
EXTENDS MCRestore

\* The last token twice (vLLM #51094, LMCache #5151): a hit of the whole prompt, loaded from the
\* state saved under the whole prompt, which has applied the last token that vLLM computes again.
MutantTwiceClaim ==
    LET ok == {c \in Checkpoints : c <= P /\ Holds(c) /\ attn >= c}
    IN IF ok = {} THEN 0 ELSE Max(ok)
\* Attention restored without the recurrent state (LMCache #2845): the hit is the longest
\* checkpoint the attention KV reaches, whether or not the state is held there.
MutantAttentionClaim ==
    LET ok == {c \in Checkpoints : c < P /\ attn >= c}
    IN IF ok = {} THEN 0 ELSE Max(ok)
\* A hit at a boundary one group or one rank lacks (vLLM #46453): the store is asked for group 1 on
\* rank 0 alone.
MutantFirstHolds(c) == <<Min(Groups), Min(Ranks)>> \in stored[c]
\* A hit off the Mamba block grid (vLLM #44599): the longest hash block the attention KV reaches,
\* with the recurrent state of the block boundary below it.
MutantOffGridClaim ==
    LET ok == {a \in HashBounds : a < P /\ attn >= a /\ a \div MB > 0 /\ Holds((a \div MB) * MB)}
    IN IF ok = {} THEN 0 ELSE Max(ok)
MutantOffGridLoadFrom(h) == (h \div MB) * MB
\* A hit past the last checkpoint saved: the longest block boundary the attention KV reaches,
\* loaded from the last checkpoint held at or below it.
MutantPastClaim ==
    LET ok == {c \in Checkpoints : c < P /\ attn >= c /\ \E c2 \in Checkpoints : c2 <= c /\ Holds(c2)}
    IN IF ok = {} THEN 0 ELSE Max(ok)
MutantPastLoadFrom(h) ==
    LET held == {c \in Checkpoints : c <= h /\ Holds(c)} IN IF held = {} THEN h ELSE Max(held)
\* A load into the block of another request: the other request's, when it has one.
MutantOtherBlock(r) ==
    IF \E o \in Requests \ {r} : blk[o] # 0
    THEN blk[CHOOSE o \in Requests \ {r} : blk[o] # 0]
    ELSE blk[r]
\* The connector counts its tokens from 0, not from the local hit vLLM passes it: vLLM adds them
\* to its own hit, and takes as computed more than the state loaded holds.
MutantExternalFromZero(n) == Claim
\* vLLM gives an aborted request's block back at once, its load still to come.
MutantFreesAtAbort == FALSE
=============================================================================
