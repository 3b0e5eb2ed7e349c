--------------------------- MODULE MCAlignPoolGen ---------------------------
(***************************************************************************)
(* The align-pool generation models: vLLM's align mode with speculative    *)
(* decoding, preemption and a shared pool whose freed blocks are given out *)
(* again (AlignPool.tla), with no connector of the model's own, each       *)
(* transition written as the replay event vLLM's connector hooks see       *)
(* (lastEvent, as Publication.tla's), and after it what every block holds  *)
(* and which blocks vLLM let go (lastContents): the ground truth the       *)
(* conformance kit judges any connector's plans by.  The connector's       *)
(* policy stays out of the events: its saves are the adapter's, and a pin  *)
(* is the kit's to honour (docs/generation.md, "Scenarios with the blocks' *)
(* contents").                                                             *)
(***************************************************************************)
EXTENDS MCAlignPool

VARIABLES lastEvent, lastContents

\* Each request's prompt, as the events name it: requests of the model never share a prefix.
DigestOf == "r1" :> "d1" @@ "r2" :> "d2"

\* One decode step past each prompt.
Decode1 == "r1" :> 6 @@ "r2" :> 4

\* No saves of the model's own: vLLM alone moves.
NoSaves(r, offs, d0, d1, mir, readyTokens) == {}

\* One recurrent group in align mode; a target is a block boundary (hash block = Mamba block).
Topology ==
    [kind |-> "topology", schema |-> "proofgate-events/v1", tp_degree |-> 1, hash_block_size |-> B,
     min_span_tokens |-> 1,
     groups |-> <<[policy |-> "recurrent_align", block_tokens |-> B, window_tokens |-> 0]>>]

\* The hand-offs of a step as recurrent_boundary_blocks' entries of request r: [group, block,
\* boundary], by boundary.
Handoffs(offs) ==
    LET ts == SeqOf({o.tokens : o \in offs}) IN
    [i \in 1..Len(ts) |-> LET o == CHOOSE o \in offs : o.tokens = ts[i] IN <<0, o.block, o.tokens>>]

\* The step event of the step in lastStep': a request admitted (new), resumed after a
\* preemption (its whole table again), or running on (the table's new tail); computed is what the
\* request had computed (after a verify step, the drafts it accepted), scheduled what the step
\* computes, the drafts included.
StepEvent ==
    LET x == CHOOSE x \in lastStep' : TRUE
        r == x.id
        scheduled == IF x.verify THEN 1 + S ELSE x.to - x.from
        fresh == table[r] = <<>>
        entry ==
            IF fresh /\ epoch[r] = 0
            THEN [new |-> <<[id |-> r, digest |-> DigestOf[r], prompt_tokens |-> PromptOf[r], computed |-> x.from,
                             scheduled |-> scheduled, block_ids |-> <<table'[r]>>]>>]
            ELSE [cached |-> <<[id |-> r, computed |-> x.from, scheduled |-> scheduled,
                                new_block_ids |-> <<IF fresh THEN table'[r]
                                                    ELSE SubSeq(table'[r], Len(table[r]) + 1, Len(table'[r]))>>,
                                resumed |-> fresh]>>]
    IN IF offers' = {} THEN [kind |-> "step"] @@ entry
       ELSE [kind |-> "step", recurrent_boundary_blocks |-> r :> Handoffs(offers')] @@ entry

EventOf ==
    IF lastStep' # {} THEN StepEvent
    ELSE LET r == CHOOSE r \in Req : status'[r] # status[r] IN
         IF status'[r] = "preempted" THEN [kind |-> "step", preempted |-> <<r>>]
         ELSE [kind |-> "finished", id |-> r]

\* What block b holds, in the scenarios' words: "d1@4", the recurrent state of prompt d1 at 4
\* tokens, or "none" (bytes no request's tokens computed).
Holds(b, c) == IF c[b] = Garbage THEN "none" ELSE DigestOf[c[b][1]] \o "@" \o ToString(c[b][2])
\* The blocks the transition let go: those a step frees at its start (before its forward pass),
\* or every block of a request preempted or finished.  With no pins here, each goes back to the
\* free queue; a connector that pins one keeps it from there (the kit honours its pins).
ReleasedBy ==
    IF lastStep' # {}
    THEN LET r == (CHOOSE x \in lastStep' : TRUE).id IN {At(table[r], c) : c \in FreedCols(r, done[r])}
    ELSE LET r == CHOOSE r \in Req : status'[r] # status[r] IN {b \in Range(table[r]) : b # Null}
ContentsOf(c, released) == [blocks |-> [b \in Blocks |-> Holds(b, c)], released |-> released]

GenInit == Init /\ lastEvent = Topology /\ lastContents = ContentsOf(content, {})
GenNext == (Schedules \/ Preempts \/ Finishes) /\ lastEvent' = EventOf /\ lastContents' = ContentsOf(content', ReleasedBy)
=============================================================================
