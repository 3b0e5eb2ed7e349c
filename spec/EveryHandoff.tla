---------------------------- MODULE EveryHandoff ----------------------------
(***************************************************************************)
(* Safety whatever the policy, and the every-handoff policy, on vLLM's     *)
(* proof producer (Producer.tla).                                          *)
(*                                                                         *)
(* vLLM's contract: a hand-off <<group, block, boundary_tokens>> says that *)
(* the block holds the request's recurrent state at exactly                *)
(* boundary_tokens when the step's forward pass ends.  The block lives on  *)
(* while it is the running state block or the one before it; a superseded *)
(* state block is freed one step later (upstream vLLM), and every block of *)
(* a request is freed at preemption and at finish, unless a connector pins *)
(* it.  (keepsOwn below: the seed's fork keeps handed-over blocks until    *)
(* the request's epoch ends instead.)                                      *)
(*                                                                         *)
(* The safety property, for every connector whatever it decides:           *)
(* SavedBlockHoldsItsPrefix.  Every block a connector asks a worker to     *)
(* save under a prefix of t tokens holds, when the worker copies it, the   *)
(* recurrent state at exactly t: it was written at t and has not been      *)
(* freed or written since.  A worker copies a save in the step that asks   *)
(* for it or later (an asynchronous save ends at the worker's report), one *)
(* copy per tensor-parallel rank.                                          *)
(*                                                                         *)
(* The every-handoff policy: file every usable hand-off under the prefix   *)
(* that ends at its boundary, in the step it is offered; pin the block     *)
(* until every rank has copied it; ignore an unusable entry (one that is   *)
(* not a recurrent group's, or names a boundary that is not a hash block   *)
(* boundary the request has computed).  Its rules are the operators of     *)
(* "The policy", which spec/mutants/MCEveryHandoffMutants.tla breaks one   *)
(* at a time.                                                              *)
(*                                                                         *)
(* Coarser than vLLM: recurrent state only (the attention blocks a save    *)
(* needs are the plan selection's, Publication.tla); a freed block is      *)
(* garbage (-1) and never reused by another request; with                  *)
(* OffersBeyondComputed a step may hand over the running block for a      *)
(* boundary its request has not computed, which stands for what a          *)
(* speculative step's rejected drafts leave.                               *)
(***************************************************************************)
EXTENDS Producer

CONSTANTS
    KeepsOwn,             \* BOOLEAN: vLLM keeps the blocks it hands over for the epoch (the fork)
    OffersBeyondComputed  \* BOOLEAN: a step may hand over a boundary its request has not computed

VARIABLES
    saves,     \* connector: the saves asked of the workers that some rank has not copied yet:
               \* a set of [id, group, block, tokens, ranks], ranks: those yet to copy
    kept,      \* vLLM: [block -> content] blocks freed by preemption or finish that a pin keeps
    lastCopy   \* ghost: the copy a worker made in the last transition, {} or
               \* {[id, group, block, tokens, held]}, held: what the block held then

handoffVars == <<saves, kept, lastCopy>>
everyVars == <<allVars, handoffVars>>

\* What block b of request r holds now: a kept block what it held when its request let it go.
HeldNow(r, b) == IF b \in DOMAIN kept THEN kept[b] ELSE ProducerBlockContent(r, b)

\* The blocks of request x that outstanding saves name.
SavedBlocks(x) == {s.block : s \in {s \in saves : s.id = x}}

-----------------------------------------------------------------------------
(* The policy.                                                              *)

\* An entry the policy files: a recurrent group's, at a hash block boundary the request has
\* computed by the end of the step (d1).
Usable(e, d1) == e[1] \in RecGroups /\ e[3] > 0 /\ e[3] % HashBlock = 0 /\ e[3] <= d1
\* The block a save of entry e copies: the one the hand-off names.
SavedBlock(x, e) == e[2]
\* The slots of x the connector pins: every block an outstanding save names.
Pins(x) == {b % 10 : b \in {b \in SavedBlocks(x) : (b % 1000) \div 100 = epoch[x]}}
\* Whether the policy pins at all (the blocks a preemption or finish would free stay alive).
Pinning == TRUE
\* Whether a worker may copy save s now: from the step that asks for it on.
CopyReady(s) == TRUE

\* The saves a step asks for: one per usable entry of each scheduled request, for every rank.
StepSaves(ev, B, st) ==
    LET f == ev.recurrent_boundary_blocks
    IN IF f = Absent THEN {}
       ELSE UNION {{[id |-> x, group |-> f[x][i][1], block |-> SavedBlock(x, f[x][i]),
                     tokens |-> f[x][i][3], ranks |-> Ranks]
                    : i \in {i \in DOMAIN f[x] : Usable(f[x][i], st[x])}}
                   : x \in DOMAIN f \cap B}

-----------------------------------------------------------------------------
(* vLLM, the connector and the workers.                                     *)

\* The running block of x, handed over for a boundary one hash block past the step's end.
BeyondEntry(x, d1) == <<FirstRec, BlockId(x, epoch[x], FirstRec, RunSlot(d1)), d1 + HashBlock>>
WithBeyond(ev, x, d1) ==
    LET f == ev.recurrent_boundary_blocks
        old == IF f # Absent /\ x \in DOMAIN f THEN f[x] ELSE <<>>
    IN [ev EXCEPT !.recurrent_boundary_blocks =
          (x :> (old \o <<BeyondEntry(x, d1)>>)) @@ (IF f = Absent THEN <<>> ELSE f)]
\* The events vLLM may send for the step: its own, and with OffersBeyondComputed also one that
\* hands over a scheduled request's running block for a boundary it has not computed.
Offers(B, P, st) ==
    {ProducerEvent(B, P, st)}
    \cup (IF OffersBeyondComputed /\ HasRecurrent
          THEN {WithBeyond(ProducerEvent(B, P, st), x, st[x]) : x \in B}
          ELSE {})

\* The pinned blocks of the requests in X, with what they hold before vLLM lets them go.
KeptOf(X) == [b \in UNION {SavedBlocks(x) : x \in X} |->
                HeldNow(CHOOSE x \in X : b \in SavedBlocks(x), b)]

EveryHandoffStep(B, P, st) ==
    \E ev \in Offers(B, P, st) :
        /\ ProducerMoves(B, P, st, ev, KeepsOwn, LAMBDA x : IF Pinning THEN Pins(x) ELSE {})
        /\ saves' = saves \cup StepSaves(ev, B, st)
        /\ kept' = IF Pinning THEN KeptOf(P) @@ kept ELSE kept
        /\ lastCopy' = {}
        /\ lastVerdicts' = <<>>
        /\ UNCHANGED conn

EveryHandoffFinishes ==
    /\ ProducerFinishes
    /\ kept' = IF Pinning THEN KeptOf({x \in Req : status'[x] = "finished" /\ status[x] # "finished"}) @@ kept
               ELSE kept
    /\ lastCopy' = {}
    /\ UNCHANGED saves

\* Rank k copies save s; the last rank's copy ends the save, and with it the pin.
WorkerCopies ==
    \E s \in saves, k \in Ranks :
        /\ k \in s.ranks
        /\ CopyReady(s)
        /\ lastCopy' = {[id |-> s.id, group |-> s.group, block |-> s.block, tokens |-> s.tokens,
                         held |-> HeldNow(s.id, s.block)]}
        /\ saves' = (saves \ {s}) \cup (IF s.ranks = {k} THEN {} ELSE {[s EXCEPT !.ranks = @ \ {k}]})
        /\ kept' = LET named == {t.block : t \in saves'} IN [b \in DOMAIN kept \cap named |-> kept[b]]
        /\ UNCHANGED allVars

EveryHandoffInit ==
    /\ ProducerInit
    /\ saves = {}
    /\ kept = <<>>
    /\ lastCopy = {}

EveryHandoffNext ==
    \/ ProducerSchedulesWith(EveryHandoffStep)
    \/ EveryHandoffFinishes
    \/ WorkerCopies

EveryHandoffSpec == EveryHandoffInit /\ [][EveryHandoffNext]_everyVars

-----------------------------------------------------------------------------
(* The safety property, for every policy.                                   *)

SavedBlockHoldsItsPrefix == \A c \in lastCopy : c.held = c.tokens

EveryHandoffTypeOK ==
    /\ \A s \in saves : s.ranks \subseteq Ranks /\ s.ranks # {}
    /\ \A b \in DOMAIN kept : kept[b] \in -1..(2 * MB * 4)
=============================================================================
