------------------------------ MODULE Restore ------------------------------
(***************************************************************************)
(* The restore half: a connector's hit and load for a hybrid request, and  *)
(* what computing from the hit gives.                                      *)
(*                                                                         *)
(* The store holds what the store half saved, each entry right for its     *)
(* prefix (the store models check that half: EveryHandoff.tla,             *)
(* AlignPool.tla): a recurrent group's state at a checkpoint, per group    *)
(* and tensor-parallel rank, and the attention KV of a prefix of hash      *)
(* blocks.  It may lack any of them.  For a waiting request vLLM asks the  *)
(* connector how many prompt tokens it holds (get_num_new_matched_tokens), *)
(* takes the answer as computed, allocates the request's state block and   *)
(* lets the connector load it (update_state_after_alloc, then the worker's *)
(* load, asynchronous: the request waits for it); then the scheduler       *)
(* computes the prompt from there on.                                      *)
(*                                                                         *)
(* A state is <<prompt, tokens applied>> (Garbage: bytes no one computed). *)
(* A block vLLM allocates keeps what its last user left in it; a request   *)
(* computed from 0 starts from the zero state.  Cache            *)
(* transparency, the property: a request that restores a prefix goes on    *)
(* from exactly the state computing the prefix would have given, in every  *)
(* recurrent group on every rank, with the attention KV of every token     *)
(* it takes as computed (CacheTransparent).                                *)
(*                                                                         *)
(* The connector's rules are the operators of "The policy", which          *)
(* spec/mutants/MCRestoreMutants.tla replaces one at a time with the       *)
(* field's mistakes.                                                       *)
(*                                                                         *)
(* Coarser than vLLM: prompts of one length, computed in one step from the *)
(* hit; a store of one prompt's prefixes (another prompt has no hit); one  *)
(* block id stands for a request's state blocks of every recurrent group  *)
(* (one value per group and rank); vLLM's own prefix cache (LocalHits)     *)
(* holds one prompt's prefixes, as the store does.                         *)
(***************************************************************************)
EXTENDS Integers, FiniteSets

CONSTANTS
    Requests,  \* the requests
    DigestOf,  \* [Requests -> digests]: each request's prompt; the store holds the prefixes of Stored
    Stored,    \* the prompt whose prefixes the store holds
    P,         \* the prompts' tokens
    MB,        \* the Mamba block size: a recurrent state is saved at multiples of it (align mode)
    HB,        \* the hash block size: attention KV is saved by hash blocks
    Groups,    \* the recurrent groups
    Ranks,     \* the tensor-parallel ranks
    NB,        \* the state blocks in vLLM's pool
    LocalHits  \* BOOLEAN: vLLM's own prefix cache may hold a prefix of Stored too

Max(S) == CHOOSE x \in S : \A y \in S : y <= x
Min(S) == CHOOSE x \in S : \A y \in S : x <= y

GK == Groups \X Ranks
\* The one pair a partial store lacks (one group on one rank: any other is the same up to names).
Lacking == <<Max(Groups), Max(Ranks)>>
\* Where the store may hold recurrent state: every Mamba block boundary, and the prompt's end.
Checkpoints == {c \in 1..P : c % MB = 0} \cup {P}
HashBounds == {a \in 1..P : a % HB = 0}
Blocks == 1..NB
Garbage == <<"garbage", -1>>
\* The state of computing the first t tokens of prompt d.
State(d, t) == <<d, t>>

VARIABLES
    stored,  \* [Checkpoints -> SUBSET GK]: the (group, rank) states of Stored's prefix the store holds
             \* at a checkpoint
    attn,    \* the longest prefix of Stored whose attention KV the store holds (a hash block
             \* boundary), 0: none
    status,  \* [Requests -> {"waiting", "loading", "aborting", "running", "done", "finished", "aborted"}]
    computed, \* [Requests -> Nat]: the tokens vLLM takes as computed, its own hit and the connector's
    blk,     \* [Requests -> Blocks \cup {0}]: the request's state block, 0 before it has one
    free,    \* the blocks vLLM may allocate
    st,      \* [Blocks -> [GK -> states]]: the state each block holds
    attnAt,  \* [Requests -> Nat]: the tokens whose attention KV the load put in place
    result,  \* ghost: [Requests -> [GK -> states]]: the state after computing the prompt
    localAttn, \* the longest prefix of Stored whose attention KV vLLM's own prefix cache holds
    localRec   \* the checkpoints below the prompt's end at which vLLM's own prefix cache holds the
               \* state of Stored in every recurrent group

vars == <<stored, attn, status, computed, blk, free, st, attnAt, result, localAttn, localRec>>

-----------------------------------------------------------------------------
(* The policy.                                                              *)
\* mutate-begin: Policy

\* Whether the store holds checkpoint c's state in every recurrent group on every rank.
Holds(c) == stored[c] = GK
\* The longest checkpoint strictly below the prompt's end the store holds in every group on every
\* rank, with the attention KV of every token below it; 0: none.
LongestHeld ==
    LET ok == {c \in Checkpoints : c < P /\ Holds(c) /\ attn >= c}
    IN IF ok = {} THEN 0 ELSE Max(ok)
\* The prefix the connector offers for a request of the stored prompt: its hit is what lies beyond
\* vLLM's own.
Claim == LongestHeld
\* The tokens the connector answers beyond the n that vLLM's own prefix cache already gives
\* (get_num_new_matched_tokens is passed n): its hit past n, if any.
External(n) == IF Claim > n THEN Claim - n ELSE 0
\* The checkpoint whose state the load puts in the block for h tokens taken as computed: h's own.
LoadFrom(h) == h
\* The block the load writes for request r: its own.
LoadBlock(r) == blk[r]
\* Whether vLLM keeps a request's block until its load is over when the request is aborted.
KeepsUntilLoaded == TRUE
\* mutate-end: Policy

-----------------------------------------------------------------------------
(* vLLM, the connector and the workers.                                     *)
\* mutate-begin: vLLM

\* Where vLLM computes from, for h tokens taken as computed: h, but for the whole prompt, whose
\* last token vLLM computes again for its logits.
Start(h) == IF h >= P THEN P - 1 ELSE h
\* vLLM's own prefix-cache hit for a request of the stored prompt: the hybrid coordinator's
\* intersection of every group's hit, the longest checkpoint below the prompt's end where the
\* attention KV reaches and every recurrent group has the state cached.
LocalHit ==
    LET ok == {c \in localRec : c <= localAttn} IN IF ok = {} THEN 0 ELSE Max(ok)

\* vLLM takes its own prefix-cache hit n for a waiting request, asks the connector for the tokens
\* beyond it, and allocates the request's state block.  Without external tokens the block starts
\* from the state at n (the zero state for n = 0; vLLM's cached state otherwise); with some, it
\* waits for the load, with whatever bytes its last user left.
Lookup(r) ==
    /\ status[r] = "waiting"
    /\ \E b \in free :
        LET n == IF DigestOf[r] = Stored THEN LocalHit ELSE 0
            ext == IF DigestOf[r] = Stored THEN External(n) ELSE 0
        IN /\ computed' = [computed EXCEPT ![r] = n + ext]
           /\ blk' = [blk EXCEPT ![r] = b]
           /\ free' = free \ {b}
           /\ attnAt' = [attnAt EXCEPT ![r] = n]
           /\ IF ext = 0
              THEN /\ st' = [st EXCEPT ![b] = [gk \in GK |-> State(DigestOf[r], n)]]
                   /\ status' = [status EXCEPT ![r] = "running"]
              ELSE /\ status' = [status EXCEPT ![r] = "loading"]
                   /\ UNCHANGED st
    /\ UNCHANGED <<stored, attn, result, localAttn, localRec>>

\* The worker's load: the state saved at LoadFrom(computed) for every group and rank the store holds
\* there, into LoadBlock(r), and the attention KV up to there (as far as the store holds it).  An
\* aborted request's block goes back to the pool when its load is over.
Load(r) ==
    /\ status[r] \in {"loading", "aborting"}
    /\ LET src == LoadFrom(computed[r])
           t == LoadBlock(r)
       IN st' = [st EXCEPT ![t] = [gk \in GK |-> IF src \in Checkpoints /\ gk \in stored[src]
                                                THEN State(Stored, src) ELSE st[t][gk]]]
    /\ attnAt' = [attnAt EXCEPT ![r] = Min({computed[r], Max({attnAt[r], attn})})]
    /\ IF status[r] = "loading"
       THEN /\ status' = [status EXCEPT ![r] = "running"]
            /\ UNCHANGED free
       ELSE /\ status' = [status EXCEPT ![r] = "aborted"]
            /\ free' = IF KeepsUntilLoaded THEN free \cup {blk[r]} ELSE free
    /\ UNCHANGED <<stored, attn, computed, blk, result, localAttn, localRec>>

\* The request is aborted while its load runs.
Abort(r) ==
    /\ status[r] = "loading"
    /\ status' = [status EXCEPT ![r] = "aborting"]
    /\ free' = IF KeepsUntilLoaded THEN free ELSE free \cup {blk[r]}
    /\ UNCHANGED <<stored, attn, computed, blk, st, attnAt, result, localAttn, localRec>>

\* The scheduler computes the prompt from Start(computed) on: the block's state advances by the tokens
\* computed; applied to another prompt's state, or to garbage, they give garbage.
Compute(r) ==
    /\ status[r] = "running"
    /\ LET b == blk[r]
           after == [gk \in GK |-> IF st[b][gk][1] = DigestOf[r]
                                   THEN State(DigestOf[r], st[b][gk][2] + (P - Start(computed[r]))) ELSE Garbage]
       IN /\ result' = [result EXCEPT ![r] = after]
          /\ st' = [st EXCEPT ![b] = after]
    /\ status' = [status EXCEPT ![r] = "done"]
    /\ UNCHANGED <<stored, attn, computed, blk, free, attnAt, localAttn, localRec>>

\* The request finishes: its block goes back to the pool, its bytes left in it.
Finish(r) ==
    /\ status[r] = "done"
    /\ status' = [status EXCEPT ![r] = "finished"]
    /\ free' = free \cup {blk[r]}
    /\ UNCHANGED <<stored, attn, computed, blk, st, attnAt, result, localAttn, localRec>>

\* mutate-end: vLLM

Init ==
    /\ stored \in [Checkpoints -> {GK, GK \ {Lacking}, {}}]
    /\ attn \in {0} \cup HashBounds
    /\ status = [r \in Requests |-> "waiting"]
    /\ computed = [r \in Requests |-> 0]
    /\ blk = [r \in Requests |-> 0]
    /\ free = Blocks
    /\ st = [b \in Blocks |-> [gk \in GK |-> Garbage]]
    /\ attnAt = [r \in Requests |-> 0]
    /\ result = [r \in Requests |-> [gk \in GK |-> Garbage]]
    /\ localAttn \in IF LocalHits THEN {0} \cup {c \in Checkpoints : c < P} ELSE {0}
    /\ localRec \in IF LocalHits THEN SUBSET {c \in Checkpoints : c < P} ELSE {{}}

Next == \E r \in Requests : Lookup(r) \/ Load(r) \/ Abort(r) \/ Compute(r) \/ Finish(r)

Spec == Init /\ [][Next]_vars

-----------------------------------------------------------------------------
(* Properties.                                                              *)

\* Cache transparency: a computed request's state is the prompt's in every recurrent group on
\* every rank, and the attention KV of every token it takes as computed was loaded.
CacheTransparent ==
    \A r \in Requests : status[r] \in {"done", "finished"} =>
        /\ result[r] = [gk \in GK |-> State(DigestOf[r], P)]
        /\ attnAt[r] >= Start(computed[r])

\* The same, where it goes wrong first: a request about to compute holds exactly the state at the
\* tokens it takes as computed (for none, the zero state).
RestoredStateIsExact ==
    \A r \in Requests : status[r] = "running" => st[blk[r]] = [gk \in GK |-> State(DigestOf[r], Start(computed[r]))]

\* vLLM's bookkeeping: a block is free or held by one request that is not yet over.
PoolOK ==
    \A b \in Blocks :
        Cardinality({r \in Requests : blk[r] = b /\ status[r] \in {"loading", "aborting", "running", "done"}})
            + (IF b \in free THEN 1 ELSE 0) <= 1

TypeOK ==
    /\ status \in [Requests -> {"waiting", "loading", "aborting", "running", "done", "finished", "aborted"}]
    /\ computed \in [Requests -> 0..P]
    /\ free \subseteq Blocks

\* Reachability (each must be violated): a restore from a hit computes the prompt, and one from
\* the longest checkpoint below the prompt.
DebugRestoreReachable == ~\E r \in Requests : status[r] = "done" /\ computed[r] > 0
DebugLongestHitReachable == ~\E r \in Requests : status[r] = "done" /\ computed[r] = Max({c \in Checkpoints : c < P})
=============================================================================
