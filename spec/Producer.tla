------------------------------ MODULE Producer ------------------------------
(***************************************************************************)
(* vLLM's proof producer as an environment of its own (Mamba layers in     *)
(* align mode), beside Publication's free evidence menu, which stays the   *)
(* default: the menu says what any vLLM may send, this says what vLLM's    *)
(* scheduler and Mamba manager do, so that a change of the producer can be *)
(* checked against the same connector and the same invariants.            *)
(*                                                                         *)
(* Modelled (docs/spec.md, "vLLM's proof producer", names the vLLM code    *)
(* each part stands for and the version read):                            *)
(*  - the scheduler's chunk stops (_mamba_block_aligned_split): below the  *)
(*    last cache position L (the prompt rounded down to the block size) a  *)
(*    chunk is a whole number of blocks and one that would pass L stops at *)
(*    L; from L on the token budget decides (the target and the prompt end *)
(*    stand for every stop there); past the prompt one decode token.       *)
(*  - cache_blocks at schedule time over the tokens up to computed +       *)
(*    scheduled, and the producer's rules (Publication.tla: exact stop,    *)
(*    copy-on-write one step later, the copy target as the tail's block).  *)
(*  - the recurrent group's table in align mode: null slots up to the      *)
(*    running-state block, one new block per step that enters a new block  *)
(*    position, the previous step's state copied into it and advanced;     *)
(*    blocks older than the previous state block freed unless pinned.      *)
(*  - the partial-tail copy-on-write target, pinned, written one step      *)
(*    after the non-aligned target was produced.                          *)
(*  - preemption frees (and unpins) every block of the request; a resumed  *)
(*    request restarts from its last block boundary (the Mamba prefix-cache *)
(*    hit) with fresh blocks.                                              *)
(* Each block's content is the token it was last written at (written);    *)
(* PublishedBlockHoldsTargetState reads it through ProducerBlockContent.   *)
(***************************************************************************)
EXTENDS Publication

VARIABLES
    written,  \* vLLM: [Req -> [1..5 -> token]] the token at which the recurrent block of the
              \* current epoch at table slot k (1..4), or the copy-on-write target (5), was last
              \* written; -1: never written, or freed
    pinned,   \* vLLM: [Req -> SUBSET 1..5] the slots handed over as proof in this epoch
    tail      \* vLLM: [Req -> BOOLEAN] the request's last step produced its non-aligned target
              \* in the running block, so the next step copies it out (copy-on-write)

producerVars == <<written, pinned, tail>>
allVars == <<vars, producerVars>>

Slots == 1..5
Unwritten == [k \in Slots |-> -1]
\* Align mode gives every recurrent group the same block size (the attention page size is aligned
\* to it); the model asks the same.
MB == BT(FirstRec)
ASSUME \A i \in 1..Len(Topology) :
         Topology[i].policy = "recurrent_align" =>
            \A j \in 1..Len(Topology) : Topology[j].policy = "recurrent_align" =>
               Topology[i].block_tokens = Topology[j].block_tokens

\* _mamba_block_aligned_split: last_cache_position = num_tokens - num_tokens % block_size.
LastCachePos(r) == PromptOf[r] - (PromptOf[r] % MB)
\* The stops a step from computed d0 may end at.  Below L a chunk is rounded down to whole
\* blocks, and a chunk that would pass L is cut at L (so no prefill step passes L); from L on the
\* budget decides, and the target and the prompt end stand for all of its stops; past the prompt
\* one decode token (only where the menu has it too: a non-aligned target).
SplitStops(r, d0) ==
    IF d0 < LastCachePos(r)
    THEN {s \in {k * MB : k \in 1..4} : d0 < s /\ s <= LastCachePos(r)}
    ELSE IF d0 < PromptOf[r] THEN {s \in {Target(r), PromptOf[r]} : s > d0}
    ELSE {s \in {PromptOf[r] + 1} : s <= MaxStop(r)}
\* A resumed request's Mamba prefix-cache hit: its last block boundary (find_longest_cache_hit
\* returns a state block only at a block boundary).
ResumeFrom(r) == (done[r] \div MB) * MB
From(r) == IF status[r] = "preempted" THEN ResumeFrom(r) ELSE done[r]

\* The running-state block's table slot after a step ending at d (0 when nothing ran yet).
RunSlot(d) == (d + MB - 1) \div MB

\* The aligned checkpoints a step from d0 to d1 produces, in order: block boundaries up to the
\* target that the step produces (ProducesBoundary).
Checkpoints(r, d0, d1) ==
    SelectSeq([k \in 1..4 |-> k * MB], LAMBDA bd : bd <= Target(r) /\ ProducesBoundary(d0, d1, bd))
\* Whether this step produces the request's non-aligned target.
TailNow(r, d0, d1) == ~Aligned(r) /\ ProducesBoundary(d0, d1, Target(r))
\* Whether the step hands over the partial tail (tailBefore: the previous step produced it).
HandsTail(r, tailBefore, d0, d1) == ~Aligned(r) /\ TailHandedOver(tailBefore, TailNow(r, d0, d1))

\* The entries vLLM hands over for r in a step from d0 to d1 at epoch e: per aligned checkpoint
\* the running block of every recurrent group (the block cache_blocks hashed at that boundary),
\* then the partial tail's block of every recurrent group.
NR == Len(RecSeq)
CheckpointEntries(r, e, d0, d1) ==
    LET ck == Checkpoints(r, d0, d1) IN
    [i \in 1..(Len(ck) * NR) |->
        LET g == RecSeq[((i - 1) % NR) + 1] IN
        <<g, BlockId(r, e, g, RunSlot(d1)), ck[(i - 1) \div NR + 1]>>]
TailEntries(r, e, d1) == [i \in 1..NR |-> <<RecSeq[i], BlockId(r, e, RecSeq[i], TailSlot(RecSeq[i], d1)), Target(r)>>]
Entries(r, e, tailBefore, d0, d1) ==
    CheckpointEntries(r, e, d0, d1) \o (IF HandsTail(r, tailBefore, d0, d1) THEN TailEntries(r, e, d1) ELSE <<>>)
\* The slots an entry list names (they are pinned).
EntrySlots(v) == {v[i][2] % 10 : i \in DOMAIN v}

\* vLLM's new block ids of group g for a step from d0 to d1 (d0 = 0: a new or resumed request's
\* whole table).  Attention groups: the table's blocks.  A recurrent group in align mode: null
\* slots up to the new running-state block, then that block; nothing while the running block stays.
GroupBlocks(r, e, g, d0, d1) ==
    IF Policy(g) = "recurrent_align"
    THEN IF RunSlot(d1) = RunSlot(d0) THEN <<>>
         ELSE [k \in 1..(RunSlot(d1) - RunSlot(d0)) |->
                 IF RunSlot(d0) + k = RunSlot(d1) THEN BlockId(r, e, g, RunSlot(d1)) ELSE 0]
    ELSE LET t == Table(r, e, g, d1) IN SubSeq(t, NBlocks(g, d0) + 1, Len(t))
AllBlocks(r, e, d0, d1) == [i \in 1..NG |-> GroupBlocks(r, e, i - 1, d0, d1)]

\* The contents after a step of r from d0 to d1 (fresh: a new or resumed request's new blocks).
\* The copy-on-write target takes the running block's state before the step writes on; the step's
\* running block holds the state at d1 (a new block gets the previous state copied in first, then
\* advanced); a block older than the previous step's state block is freed unless pinned.
WrittenAfter(r, fresh, d0, d1, pins) ==
    IF fresh THEN [k \in Slots |-> IF k = RunSlot(d1) THEN d1 ELSE -1]
    ELSE [k \in Slots |->
            IF k = 5 THEN (IF tail[r] THEN written[r][RunSlot(d0)] ELSE written[r][5])
            ELSE IF k = RunSlot(d1) THEN d1
            ELSE IF k < RunSlot(d0) /\ k \notin pins THEN -1
            ELSE written[r][k]]

\* The entries vLLM hands over for x in a step that schedules it at stop s.
StepEntries(x, s) == Entries(x, epoch[x], status[x] = "running" /\ tail[x], From(x), s)

\* vLLM's scheduler output for a step that schedules B at stops st and preempts P: the evidence
\* is derived from vLLM's block state.
ProducerEvent(B, P, st) ==
    LET d0(x) == From(x)
        keyed == {x \in B : StepEntries(x, st[x]) # <<>>}
        newIds == InOrder({x \in B : status[x] = "waiting"})
        cacIds == InOrder({x \in B : status[x] # "waiting"})
    IN [kind |-> "step",
        new |-> [i \in 1..Len(newIds) |->
                   LET x == newIds[i] IN
                   [id |-> x, digest |-> DigestOf[x], prompt_tokens |-> PromptOf[x], computed |-> 0,
                    scheduled |-> st[x], block_ids |-> AllBlocks(x, epoch[x], 0, st[x])]],
        cached |-> [i \in 1..Len(cacIds) |->
                   LET x == cacIds[i] IN
                   [id |-> x, computed |-> d0(x), scheduled |-> st[x] - d0(x),
                    new_block_ids |-> AllBlocks(x, epoch[x], IF status[x] # "running" THEN 0 ELSE d0(x), st[x]),
                    resumed |-> status[x] = "preempted"]],
        preempted |-> InOrder(P),
        recurrent_boundary_blocks |-> IF keyed = {} THEN Absent ELSE [x \in keyed |-> StepEntries(x, st[x])]]

\* vLLM's side of that step, sending ev: the requests' progress and the block contents.  keepsOwn:
\* vLLM itself keeps every block it hands over until the request's epoch ends (the seed's fork);
\* otherwise a superseded state block is freed one step later (upstream vLLM).  Keeps(x): the
\* slots of x a connector pins.
ProducerMoves(B, P, st, ev, keepsOwn, Keeps(_)) ==
    LET fresh(x) == status[x] # "running"
        d0(x) == From(x)
        ent(x) == StepEntries(x, st[x])
        exact(x) == {<<ent(x)[i][1], ent(x)[i][2]>> : i \in {i \in DOMAIN ent(x) : ent(x)[i][3] = Target(x)}}
        pins(x) == (IF fresh(x) THEN {} ELSE pinned[x]) \cup (IF keepsOwn THEN EntrySlots(ent(x)) ELSE {})
    IN /\ lastEvent' = ev
       /\ status' = [x \in Req |-> IF x \in B THEN "running" ELSE IF x \in P THEN "preempted" ELSE status[x]]
       /\ done' = [x \in Req |-> IF x \in B THEN st[x] ELSE done[x]]
       /\ epoch' = [x \in Req |-> IF x \in P THEN epoch[x] + 1 ELSE epoch[x]]
       /\ reached' = [x \in Req |-> IF x \in B THEN st[x] >= Target(x) ELSE IF x \in P THEN FALSE ELSE reached[x]]
       /\ proven' = [x \in Req |->
                       IF x \in P THEN {}
                       ELSE IF x \in B /\ exact(x) # {} THEN proven[x] \cup {exact(x)}
                       ELSE proven[x]]
       /\ written' = [x \in Req |->
                        IF x \in B THEN WrittenAfter(x, fresh(x), d0(x), st[x], pins(x) \cup Keeps(x))
                        ELSE IF x \in P THEN Unwritten ELSE written[x]]
       /\ pinned' = [x \in Req |-> IF x \in B THEN pins(x) ELSE IF x \in P THEN {} ELSE pinned[x]]
       /\ tail' = [x \in Req |-> IF x \in B THEN TailNow(x, d0(x), st[x]) ELSE IF x \in P THEN FALSE ELSE tail[x]]
       /\ UNCHANGED <<held, taken>>

\* One scheduler step: schedule B at stops st, preempt P; the seed's connector (the
\* latch-at-target policy) reacts, and its workers save a plan's blocks in the step that publishes
\* it, so PublishedBlockHoldsTargetState is the safety property of EveryHandoff.tla
\* (SavedBlockHoldsItsPrefix) for a save copied in the step that asks for it.
ProducerStepKeeping(keepsOwn, B, P, st) ==
    /\ ProducerMoves(B, P, st, ProducerEvent(B, P, st), keepsOwn, LAMBDA x : {})
    /\ ConnectorAppliesStep(ProducerEvent(B, P, st))
    /\ GhostsFollowVerdicts
\* The seed's fork keeps what it hands over for the epoch.
ProducerStep(B, P, st) == ProducerStepKeeping(TRUE, B, P, st)

\* FCFS admission as in Publication; a request can be scheduled while a stop is left.
ProducerSchedulable ==
    {r \in Req : /\ status[r] \in {"waiting", "running", "preempted"}
                 /\ SplitStops(r, From(r)) # {}
                 /\ status[r] = "waiting" => \A i \in 1..(RIdx(r) - 1) : status[Requests[i]] # "waiting"}

\* A step vLLM may take: Step(B, P, st) says what follows it.
ProducerSchedulesWith(Step(_, _, _)) ==
    \E B \in SUBSET ProducerSchedulable, P \in SUBSET Preemptable :
        /\ B \cap P = {}
        /\ Cardinality(B) <= MaxBatch /\ Cardinality(P) <= 1
        /\ B \cup P # {}
        /\ \E st \in [B -> UNION {SplitStops(x, From(x)) : x \in B}] :
              /\ \A x \in B : st[x] \in SplitStops(x, From(x))
              /\ Step(B, P, st)
ProducerSchedules == ProducerSchedulesWith(ProducerStep)

\* Finishing frees the request's blocks.
ProducerFinishes ==
    /\ SchedulerFinishes
    /\ written' = [x \in Req |-> IF status'[x] = "finished" /\ status[x] # "finished" THEN Unwritten ELSE written[x]]
    /\ pinned' = [x \in Req |-> IF status'[x] = "finished" /\ status[x] # "finished" THEN {} ELSE pinned[x]]
    /\ tail' = [x \in Req |-> IF status'[x] = "finished" /\ status[x] # "finished" THEN FALSE ELSE tail[x]]

ProducerInit ==
    /\ Init
    /\ written = [r \in Req |-> Unwritten]
    /\ pinned = [r \in Req |-> {}]
    /\ tail = [r \in Req |-> FALSE]

ProducerNext == ProducerSchedules \/ ProducerFinishes \/ (RankHolds /\ UNCHANGED producerVars)

ProducerSpec == ProducerInit /\ [][ProducerNext]_allVars

\* The same connector on upstream vLLM's block lifetimes: a superseded state block is freed one
\* step later, whatever was handed over.
ProducerUpstreamNext ==
    \/ ProducerSchedulesWith(LAMBDA B, P, st : ProducerStepKeeping(FALSE, B, P, st))
    \/ ProducerFinishes
    \/ (RankHolds /\ UNCHANGED producerVars)

-----------------------------------------------------------------------------
\* What a recurrent block holds now (tokens), -1 garbage: the content vLLM last wrote there, for
\* a block of the request's current epoch; any other block was freed by preemption or finish.
\* A model of this module reads PublishedBlockHoldsTargetState through it (cfg: BlockContent <-
\* ProducerBlockContent).
ProducerBlockContent(r, b) ==
    LET e == (b % 1000) \div 100
        k == b % 10
    IN IF b \div 1000 # RIdx(r) \/ e # epoch[r] \/ k \notin Slots THEN -1 ELSE written[r][k]

ProducerTypeOK ==
    /\ written \in [Req -> [Slots -> -1..(2 * MB * 4)]]
    /\ pinned \in [Req -> SUBSET Slots]
    /\ tail \in [Req -> BOOLEAN]
=============================================================================
