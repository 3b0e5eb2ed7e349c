------------------------------ MODULE AlignPool ------------------------------
(***************************************************************************)
(* vLLM's recurrent group in Mamba align mode as it runs with speculative  *)
(* decoding, a shared block pool and a checkpoint at every retained block  *)
(* boundary, and what a connector saves from it.  Producer.tla keeps the  *)
(* seed's producer (one partial tail, no speculative blocks, no reuse);   *)
(* this module is its upstream counterpart, for the safety property of    *)
(* EveryHandoff.tla, restated here on physical blocks:                     *)
(*                                                                         *)
(*   SavedBlockHoldsItsPrefix: every copy a worker makes of a save under   *)
(*   a prefix of t tokens of request r holds r's recurrent state at        *)
(*   exactly t.                                                            *)
(*                                                                         *)
(* docs/spec.md ("vLLM's align mode on a shared pool") names, for each     *)
(* part, the vLLM code it stands for and where the model is coarser.  In  *)
(* short:                                                                  *)
(*  - the block pool: a free queue, a freed block with a hash at its tail  *)
(*    and one without at its head, blocks taken from the head; a taken    *)
(*    block keeps the bytes its last writer left (Mamba blocks are not     *)
(*    zeroed).                                                             *)
(*  - the table of a request (columns from 0): the running state in column *)
(*    R = cdiv(N, B) - 1 for the N tokens computed and scheduled, S        *)
(*    speculative scratch columns after it; null columns before it; at     *)
(*    most one fresh block a step; a scratch column left behind by R is    *)
(*    moved to the tail and its column nulled.  The workers' table only    *)
(*    appends (vLLM sends the new tail), so it keeps a moved block at its  *)
(*    old column too; past the request's own columns its row still holds   *)
(*    the blocks the row's last request left there (a new request resets  *)
(*    the row's count, not its entries).                                   *)
(*  - frees at the start of a step: every column before the one that holds *)
(*    the state at the computed tokens (the superseded state block is     *)
(*    freed one step later), nulled in the scheduler's table.              *)
(*  - the aligned split: below L a prefill chunk ends on a block boundary; *)
(*    L is the prompt rounded down to the block size, one block lower with *)
(*    speculative decoding; from L the chunk runs to the prompt's end.     *)
(*  - hashing at schedule time of every full column not yet hashed, up to  *)
(*    the tokens the request has (drafts are not its tokens), that is not  *)
(*    null and that the retention interval keeps; each is handed over as   *)
(*    <<block, boundary_tokens>> in that step.                             *)
(*  - the forward pass: the state at the computed tokens copied into the   *)
(*    running column if it moved; a step computes from the state there    *)
(*    (garbage from anything else); a prefill chunk writes the state at    *)
(*    its end; a verify step writes the state after each of its 1 + S      *)
(*    tokens into R .. R + S, keeps the accepted ones, and copies the      *)
(*    state at a block boundary crossed inside the step into that          *)
(*    boundary's column.                                                   *)
(*  - preemption and finish free every block of the request; a resumed     *)
(*    request computes its prompt again (no prefix-cache hit: the restore  *)
(*    side is not modelled here).                                          *)
(* Coarser: one recurrent group (attention pages are the plan selection's, *)
(* Publication.tla), one request a step, no partial tail (Producer.tla     *)
(* models it), one tensor-parallel rank, tokens in small units.            *)
(* Beside the safety property, vLLM's own bookkeeping and scheduler rules  *)
(* are invariants, and Debug witnesses name the behaviours the models      *)
(* reach, so that a change to vLLM's side is caught where it goes wrong.   *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets

CONSTANTS
    Requests,       \* sequence of request ids, admitted in order
    PromptOf,       \* [request -> prompt tokens]
    B,              \* tokens per Mamba block (align mode: the scheduler's block)
    S,              \* speculative tokens a verify step drafts (0: no speculative decoding)
    MaxTokens,      \* [request -> tokens at which it has decoded enough]
    NB,             \* blocks in the pool, 1..NB (0 is the null block)
    Retention,      \* retention interval in tokens (0: every block boundary is kept)
    MaxPreemptions, \* preemptions per request
    HashesDrafts    \* BOOLEAN: vLLM hashes (and hands over) columns up to the scheduled
                    \* tokens, drafts included, instead of the tokens the request has

Req == {Requests[i] : i \in DOMAIN Requests}
Blocks == 1..NB
Null == 0
Garbage == <<"none", 0>>
\* A state: <<request, tokens>>, the recurrent state of the request's tokens up to there.
State(r, t) == <<r, t>>

CDiv(a, b) == (a + b - 1) \div b
Col(t) == CDiv(t, B) - 1
Max(a, b) == IF a > b THEN a ELSE b
Min(a, b) == IF a < b THEN a ELSE b

\* Drafts are fewer than a block's tokens (vLLM's are a handful; its blocks hold hundreds).
ASSUME S < B

VARIABLES
    status,   \* [Req -> {"waiting", "running", "preempted", "finished"}]
    done,     \* [Req -> tokens computed]
    epoch,    \* [Req -> preemptions so far]
    cur,      \* [Req -> column of the workers' table holding the state at done, -1: none]
    cached,   \* [Req -> columns hashed so far (num_cached)]
    publishable, \* [Req -> the hashed columns a connector may store (num_publishable_block_hashes)]
    table,    \* [Req -> Seq(block or Null)] the scheduler's table
    mirror,   \* [Req -> Seq(block)] the workers' row: only appended to, over what it held
    leftover, \* Seq(block) the row the last request to leave left: a request admitted takes its
              \* entries (two admitted after one leave both do: coarser than vLLM's own rows)
    content,  \* [Blocks -> state] what each block holds (Garbage: nothing anyone computed)
    refs,     \* [Blocks -> Nat] the request's hold plus the connector's pins
    hashed,   \* [Blocks -> BOOLEAN] a prefix-cache hash is on the block
    freeQ,    \* Seq(Blocks) the free queue, taken from the head
    offers,   \* the step's hand-offs: {[id, block, tokens]}
    saves,    \* connector: saves no worker has copied yet, {[id, block, tokens, pinned]}
    lastCopy, \* ghost: {[id, block, tokens, held]} the copy made in the last transition
    lastStep  \* ghost: {[id, from, to, verify]} the step made in the last transition

vars == <<status, done, epoch, cur, cached, publishable, table, mirror, leftover, content, refs, hashed, freeQ,
          offers, saves, lastCopy, lastStep>>

Range(s) == {s[i] : i \in DOMAIN s}
\* Column c (from 0) of table t, Null beyond its end.
At(t, c) == IF c >= 0 /\ c < Len(t) THEN t[c + 1] ELSE Null

\* A boundary the retention interval keeps: every one, or every interval's, and the last
\* block boundary of the prompt (the replay boundary).
Retained(r, t) == Retention = 0 \/ t % Retention = 0 \/ t = ((PromptOf[r] - 1) \div B) * B

-----------------------------------------------------------------------------
(* The connector (every-handoff): overridable rules.                        *)

\* mutate-begin: Policy
\* An offer it files: one within the readyTokens, the tokens whose block hashes vLLM says are
\* publishable after the step (num_publishable_block_hashes times the block size, which a
\* content-addressed connector must apply before it stores a block by its hash).
Usable(o, readyTokens) == o.tokens <= readyTokens
\* Whether it pins what it saves until a worker copied it.
Pinning == TRUE
\* The saves a step asks for: every usable offer, at its own boundary, from the block it names.
\* d0 and d1: the tokens computed before and after the step; mir: the workers' row.
StepSaves(r, offs, d0, d1, mir, readyTokens) ==
    {[id |-> r, block |-> o.block, tokens |-> o.tokens, pinned |-> Pinning] : o \in {o \in offs : Usable(o, readyTokens)}}
\* Whether the workers copy a step's saves before the scheduler's next move (a save the
\* connector's wait_for_save finishes in the step), or whenever (asynchronous).
CopiesInStep == FALSE
\* mutate-end: Policy

\* The latch-at-target policy (the seed's connector) on this producer: one save a request,
\* the hand-off at its target (the largest block boundary below the prompt's end: no partial
\* tail here), unpinned, copied in the step that offers it.
Target(r) == ((PromptOf[r] - 1) \div B) * B
LatchSaves(r, offs, d0, d1, mir, readyTokens) ==
    {[id |-> r, block |-> o.block, tokens |-> o.tokens, pinned |-> FALSE]
     : o \in {o \in offs : o.tokens = Target(r) /\ Usable(o, readyTokens)}}
LatchCopiesInStep == TRUE

\* A positional tracker: for every retained block boundary the step computed, the block at
\* that boundary's column of the workers' table, pinned; the hand-offs are not read.
PositionalSaves(r, offs, d0, d1, mir, readyTokens) ==
    {[id |-> r, block |-> At(mir, k - 1), tokens |-> k * B, pinned |-> TRUE]
     : k \in {k \in (d0 \div B + 1)..(d1 \div B) : Retained(r, k * B) /\ At(mir, k - 1) # Null}}

\* mutate-begin: vLLM
-----------------------------------------------------------------------------
(* The pool.                                                                *)

\* Release one hold on each block of X (a set), in id order: a block whose last hold goes is
\* queued, at the tail if it has a hash (still a prefix-cache hit until evicted), else at the
\* head (taken first).
RECURSIVE ReleaseSeq(_, _, _)
ReleaseSeq(xs, rf, q) ==
    IF xs = <<>> THEN <<rf, q>>
    ELSE LET b == Head(xs)
             rf1 == [rf EXCEPT ![b] = @ - 1]
             q1 == IF rf1[b] = 0 THEN (IF hashed[b] THEN Append(q, b) ELSE <<b>> \o q) ELSE q
         IN ReleaseSeq(Tail(xs), rf1, q1)
RECURSIVE SeqOf(_)
SeqOf(X) == IF X = {} THEN <<>>
            ELSE LET m == CHOOSE x \in X : \A y \in X : x <= y IN <<m>> \o SeqOf(X \ {m})
Release(X, rf, q) == ReleaseSeq(SeqOf(X), rf, q)


-----------------------------------------------------------------------------
(* The scheduler.                                                           *)

L(r) == (PromptOf[r] \div B) * B - (IF S > 0 THEN B ELSE 0)
\* The stops of a step from computed d0: a prefill chunk below L ends on a block boundary, one
\* that would pass L ends at L; from L the chunk runs to the prompt's end (the budget may stop
\* it earlier: coarser, the prompt's end stands for those stops); past the prompt a verify step
\* of one token and S drafts.
PrefillStops(r, d0) ==
    IF d0 < L(r) THEN {k * B : k \in (d0 \div B + 1)..(L(r) \div B)}
    ELSE {PromptOf[r]}
Prefilling(r) == done[r] < PromptOf[r]
Idx(r) == CHOOSE i \in DOMAIN Requests : Requests[i] = r
\* First come, first served: a waiting request is admitted after those before it.
Schedulable == {r \in Req : /\ status[r] \in {"waiting", "running", "preempted"}
                            /\ status[r] = "waiting" => \A i \in 1..(Idx(r) - 1) : status[Requests[i]] # "waiting"}

\* The table after the frees at computed d: every column before the one holding the state at d.
FreedCols(r, d) == {c \in 0..(Col(d) - 1) : At(table[r], c) # Null}
AfterFrees(t, cols) == [i \in DOMAIN t |-> IF i - 1 \in cols THEN Null ELSE t[i]]

\* The table after allocating for running column R: the scratch columns of the last S that R
\* left behind nulled, null padding up to R - 1, then the moved blocks (in column order) at the
\* tail; fresh blocks come after, up to R + S.
Moved(t, R) == {c \in (Len(t) - S)..(R - 1) : At(t, c) # Null}
Padded(t, R) == t \o [i \in 1..Max(R - Len(t), 0) |-> Null]
\* The tokens the allocation materialises columns for: every token the step schedules, the
\* drafts a verify step checks included, so that the columns the workers write (R .. R + S for
\* R = Col(N)) are the request's own.
AllocTokens(r, N) == N
Allocated(t, R) ==
    LET mv == Moved(t, R) IN
    Padded([i \in DOMAIN t |-> IF i - 1 \in mv THEN Null ELSE t[i]], R)
        \o [i \in 1..Cardinality(mv) |-> At(t, SeqOf(mv)[i])]
Fresh(t, R) == Max(R + 1 + S - Len(t), 0)

\* num_publishable_block_hashes, in columns, after a step that ends with e1 tokens computed and
\* hashedCols columns hashed so far: readiness grows to the hashed columns whose tokens are
\* computed, so a column hashed for a draft (HashesDrafts) is ready only once its tokens are
\* accepted, and not while a rejection leaves them uncomputed; p, the readiness before the step.
Ready(p, hashedCols, e1) == Max(p, Min(hashedCols, e1 \div B))
\* Readiness when a request lets its blocks go (preemption, finish): none is left.
ReadyAtRelease(p) == 0

-----------------------------------------------------------------------------
(* A step.                                                                  *)

\* The step of r that ends with e1 tokens computed: a prefill chunk that stops at e1, or a verify
\* step that accepts e1 - done[r] of its 1 + S tokens.  A new or resumed request's table starts
\* empty.
Step(r, e1) ==
    LET d0 == done[r]
        verify == ~Prefilling(r)
        a == e1 - d0
        N == IF verify THEN d0 + 1 + S ELSE e1
        R == Col(N)
        RA == Col(AllocTokens(r, N))
        \* frees first (pins keep a block held)
        fc == FreedCols(r, d0)
        rel == Release({At(table[r], c) : c \in fc}, refs, freeQ)
        t1 == AfterFrees(table[r], fc)
        \* allocation
        t2 == Allocated(t1, RA)
        nf == Fresh(t2, RA)
        q1 == rel[2]
        newIds == SubSeq(q1, 1, nf)
        t3 == t2 \o newIds
        \* the workers' row: a new or resumed request takes the row last left; what the
        \* scheduler sends is written after the request's columns, over what the row held
        row0 == IF table[r] = <<>> THEN leftover ELSE mirror[r]
        m1 == [i \in 1..Max(Len(row0), Len(t3)) |->
                 IF i > Len(table[r]) /\ i <= Len(t3) THEN t3[i] ELSE row0[i]]
        \* hashing at schedule time, up to the tokens the request has
        known == IF verify /\ ~HashesDrafts THEN d0 + 1 ELSE N
        hc == {c \in cached[r]..((known \div B) - 1) : At(t3, c) # Null /\ Retained(r, (c + 1) * B)}
        offs == {[id |-> r, block |-> At(t3, c), tokens |-> (c + 1) * B] : c \in hc}
        \* the forward pass, on the workers' table
        c1 == IF cur[r] # -1 /\ cur[r] # R THEN [content EXCEPT ![At(m1, R)] = content[At(m1, cur[r])]] ELSE content
        \* a step computes from the state in its running column (a new or resumed request from
        \* the initial state): from anything else its states are garbage
        sound == d0 = 0 \/ c1[At(m1, R)] = State(r, d0)
        Computed(t) == IF sound THEN State(r, t) ELSE Garbage
        c2 == IF verify
              THEN [b \in Blocks |->
                      IF \E i \in 0..S : At(m1, R + i) = b
                      THEN LET i == CHOOSE i \in 0..S : At(m1, R + i) = b IN
                           IF i < a THEN Computed(d0 + 1 + i) ELSE Garbage
                      ELSE c1[b]]
              ELSE [c1 EXCEPT ![At(m1, R)] = Computed(e1)]
        aligned == (e1 \div B) * B
        c3 == IF verify /\ aligned >= d0 + 1
              THEN [c2 EXCEPT ![At(m1, aligned \div B - 1)] = c2[At(m1, R + aligned - d0 - 1)]]
              ELSE c2
        pub == Ready(publishable[r], known \div B, e1)
        newSaves == StepSaves(r, offs, d0, e1, m1, pub * B)
        pinIds == {s.block : s \in {s \in newSaves : s.pinned}}
    IN /\ nf <= Len(q1)
       /\ status' = [status EXCEPT ![r] = "running"]
       /\ done' = [done EXCEPT ![r] = e1]
       /\ cur' = [cur EXCEPT ![r] = IF verify THEN R + a - 1 ELSE R]
       /\ cached' = [cached EXCEPT ![r] = known \div B]
       /\ publishable' = [publishable EXCEPT ![r] = pub]
       /\ table' = [table EXCEPT ![r] = t3]
       /\ mirror' = [mirror EXCEPT ![r] = m1]
       /\ content' = c3
       /\ refs' = [b \in Blocks |-> rel[1][b] + (IF b \in Range(newIds) THEN 1 ELSE 0)
                                    + (IF b \in pinIds THEN 1 ELSE 0)]
       \* a block taken from the queue loses its old hash (evicted), then the step hashes its own
       /\ hashed' = [b \in Blocks |-> IF \E c \in hc : At(t3, c) = b THEN TRUE
                                      ELSE IF b \in Range(newIds) THEN FALSE ELSE hashed[b]]
       /\ freeQ' = SubSeq(q1, nf + 1, Len(q1))
       /\ offers' = offs
       /\ saves' = saves \cup newSaves
       /\ lastCopy' = {}
       /\ lastStep' = {[id |-> r, from |-> d0, to |-> e1, verify |-> verify]}
       /\ UNCHANGED <<epoch, leftover>>

\* The scheduler moves on once the workers copied what the step asked for, where they must.
MayMove == CopiesInStep => saves = {}

Schedules ==
    MayMove /\ \E r \in Schedulable :
        IF Prefilling(r) THEN \E e1 \in PrefillStops(r, done[r]) : Step(r, e1)
        ELSE \E a \in 1..(1 + S) : done[r] + a <= MaxTokens[r] /\ Step(r, done[r] + a)

\* Preemption or finish: every block of the request is released.
LetsGo(r, st, d) ==
    LET rel == Release({b \in Range(table[r]) : b # Null}, refs, freeQ) IN
    /\ status' = [status EXCEPT ![r] = st]
    /\ done' = [done EXCEPT ![r] = d]
    /\ cur' = [cur EXCEPT ![r] = -1]
    /\ cached' = [cached EXCEPT ![r] = 0]
    /\ publishable' = [publishable EXCEPT ![r] = ReadyAtRelease(publishable[r])]
    /\ table' = [table EXCEPT ![r] = <<>>]
    /\ mirror' = [mirror EXCEPT ![r] = <<>>]
    /\ leftover' = mirror[r]
    /\ refs' = rel[1]
    /\ freeQ' = rel[2]
    /\ offers' = {}
    /\ lastCopy' = {}
    /\ lastStep' = {}
    /\ UNCHANGED <<content, hashed, saves>>

Preempts ==
    \E r \in Req : MayMove /\ status[r] = "running" /\ epoch[r] < MaxPreemptions
                   /\ LetsGo(r, "preempted", 0) /\ epoch' = [epoch EXCEPT ![r] = @ + 1]
Finishes ==
    \E r \in Req : MayMove /\ status[r] = "running" /\ done[r] >= PromptOf[r]
                   /\ LetsGo(r, "finished", done[r]) /\ UNCHANGED epoch

\* mutate-end: vLLM

\* A worker copies save s (asynchronously: in the step that asked for it or later); the copy
\* ends its pin.
WorkerCopies ==
    \E s \in saves :
        LET rel == IF s.pinned THEN Release({s.block}, refs, freeQ) ELSE <<refs, freeQ>> IN
        /\ lastCopy' = {[id |-> s.id, block |-> s.block, tokens |-> s.tokens, held |-> content[s.block]]}
        /\ saves' = saves \ {s}
        /\ refs' = rel[1]
        /\ freeQ' = rel[2]
        /\ offers' = {}
        /\ lastStep' = {}
        /\ UNCHANGED <<status, done, epoch, cur, cached, publishable, table, mirror, leftover, content, hashed>>

Init ==
    /\ status = [r \in Req |-> "waiting"]
    /\ done = [r \in Req |-> 0]
    /\ epoch = [r \in Req |-> 0]
    /\ cur = [r \in Req |-> -1]
    /\ cached = [r \in Req |-> 0]
    /\ publishable = [r \in Req |-> 0]
    /\ table = [r \in Req |-> <<>>]
    /\ mirror = [r \in Req |-> <<>>]
    /\ leftover = <<>>
    /\ content = [b \in Blocks |-> Garbage]
    /\ refs = [b \in Blocks |-> 0]
    /\ hashed = [b \in Blocks |-> FALSE]
    /\ freeQ = [i \in 1..NB |-> i]
    /\ offers = {}
    /\ saves = {}
    /\ lastCopy = {}
    /\ lastStep = {}

\* Every request finished and every save copied: behaviours end here, so that a model checked for
\* deadlock finds a state where vLLM or the workers cannot go on (a pool that never gives a
\* block back, a request never scheduled).
Terminated == (\A r \in Req : status[r] = "finished") /\ saves = {} /\ UNCHANGED vars

Next == Schedules \/ Preempts \/ Finishes \/ WorkerCopies \/ Terminated

Spec == Init /\ [][Next]_vars

-----------------------------------------------------------------------------
(* The safety property, for every policy.                                   *)

SavedBlockHoldsItsPrefix == \A c \in lastCopy : c.held = State(c.id, c.tokens)

\* Non-vacuity: each is expected to be violated (a model lists it under each-violated).
DebugCopyReachable == lastCopy = {}
DebugTargetCopyReachable == \A c \in lastCopy : c.tokens # Target(c.id)

\* Witnesses of vLLM's behaviours, each expected to be violated (the align-pool-witnesses models
\* list them): a change to vLLM's side that removes one of these behaviours keeps every invariant
\* (an invariant holds on fewer behaviours as on all), and is seen only here.
\* A prefill chunk ends on a block boundary below the prompt's end.
DebugStopsAtABoundary == \A x \in lastStep : x.verify \/ x.to % B # 0 \/ x.to >= PromptOf[x.id]
\* A prefill chunk runs past a block boundary without stopping there.
DebugPassesABoundary == \A x \in lastStep : x.verify \/ ~\E k \in 1..x.to : x.from < k * B /\ k * B < x.to
\* A verify step accepts every draft; one rejects some.
DebugAcceptsAll == \A x \in lastStep : ~x.verify \/ x.to - x.from < 1 + S
DebugRejectsSome == \A x \in lastStep : ~x.verify \/ x.to - x.from = 1 + S
\* A request decodes past its prompt; one finishes at its prompt's end.
DebugDecodes == \A r \in Req : done[r] <= PromptOf[r]
DebugFinishesAtItsPrompt == \A r \in Req : status[r] = "finished" => done[r] > PromptOf[r]
\* A scratch block moved: the workers' row names it at two columns.
DebugScratchMoved ==
    \A r \in Req : \A i, j \in 1..Len(table[r]) : i < j => mirror[r][i] = Null \/ mirror[r][i] # mirror[r][j]
\* A null column below the running one (a column no step wrote: passed, or freed).
DebugNullColumn == \A r \in Req : \A c \in 0..(Len(table[r]) - 1) : At(table[r], c) # Null
\* A block one request holds keeps another request's state (a freed block given out again).
DebugBlockReused ==
    \A r \in Req : \A b \in Range(table[r]) : b # Null => content[b][1] \in {r, "none"}
\* A block with a hash waits in the free queue (still a prefix-cache hit).
DebugHashedQueued == \A b \in Range(freeQ) : ~hashed[b]
\* A pin keeps a block no request holds any more.
DebugPinOutlivesTheTable == \A x \in saves : x.pinned => \E r \in Req : x.block \in Range(table[r])
\* A preempted request runs again, and hands over its first boundary again.
DebugResumes == \A r \in Req : epoch[r] > 0 => status[r] # "running"
DebugResumedOffersItsFirstBoundary == \A o \in offers : epoch[o.id] = 0 \/ o.tokens # B
\* With drafts, a chunk from below the prompt's last block boundary runs to the prompt's end.
DebugRunsPastTheLastBoundary ==
    \A x \in lastStep : x.verify \/ ~(x.from < (PromptOf[x.id] \div B) * B /\ x.to = PromptOf[x.id])
\* A worker's copy of one request's save holds another request's state (a block written through
\* another request's table: vLLM's mistakes only).
DebugCopyHoldsAnotherRequestsState == \A c \in lastCopy : c.held[1] \in {c.id, "none"}
\* A step takes the last free block.
DebugPoolExhausted == freeQ # <<>>
\* A rejected draft leaves bytes no one computed in its column (the state after a token that is
\* not the request's).
DebugRejectedDraftIsGarbage ==
    \A x \in lastStep : ~x.verify \/ x.to - x.from = 1 + S \/ content[At(mirror[x.id], cur[x.id] + 1)] # Garbage

\* The every-handoff policy's rule (its models only): a step files every hand-off whose boundary
\* its request has computed, under that boundary, from the block it names.
FilesEveryComputedOffer ==
    \A o \in offers : o.tokens <= done[o.id] =>
        \E s \in saves : s.id = o.id /\ s.block = o.block /\ s.tokens = o.tokens

\* vLLM's own contract, which the connector relies on: a block it hands over holds the
\* state at the boundary it names, at the end of the step.
OfferHoldsItsBoundary == \A o \in offers : content[o.block] = State(o.id, o.tokens)

\* vLLM's side of num_publishable_block_hashes: readiness never covers a token the request has not
\* computed (a draft's column is not ready before its draft is verified, and a rejection takes it
\* back), and a request that let its blocks go has none (preemption invalidates readiness).
ReadyOnlyComputed ==
    \A r \in Req : /\ publishable[r] * B <= done[r]
                   /\ status[r] \in {"preempted", "finished"} => publishable[r] = 0

\* vLLM's own bookkeeping, which no connector sees but every save relies on.
\* The running state: the workers' column of a running request holds its state at the tokens
\* it computed.
RunningHoldsItsState ==
    \A r \in Req : status[r] = "running" /\ cur[r] # -1 => content[At(mirror[r], cur[r])] = State(r, done[r])
\* The workers' row agrees with the scheduler's table wherever the table names a block.
RowHoldsTheTable ==
    \A r \in Req : \A c \in 0..(Len(table[r]) - 1) : At(table[r], c) # Null => At(mirror[r], c) = At(table[r], c)
\* A column hashed (a prefix-cache hit for its boundary) holds its boundary's state for as long
\* as the request holds it.
HashedHoldsItsBoundary ==
    \A r \in Req : \A c \in 0..(cached[r] - 1) :
        At(table[r], c) # Null /\ hashed[At(table[r], c)] => content[At(table[r], c)] = State(r, (c + 1) * B)
\* A running request holds no more than its previous state block, its running block and its
\* scratch blocks: a superseded state block goes one step later (a leak holds the pool's blocks
\* for nothing, and the next allocation waits).
HoldsFewBlocks ==
    \A r \in Req : Cardinality({c \in 0..(Len(table[r]) - 1) : At(table[r], c) # Null}) <= 2 + S
\* The scheduler admits requests in their order (first come, first served) and within the
\* model's bounds.
AdmittedInOrder ==
    \A i, j \in DOMAIN Requests : i < j /\ status[Requests[j]] # "waiting" => status[Requests[i]] # "waiting"
WithinBounds == \A r \in Req : done[r] \in 0..MaxTokens[r] /\ epoch[r] \in 0..MaxPreemptions
\* A step computes at least one token; a prefill chunk ends within the prompt; a preempted
\* request computes its prompt again from the start (no prefix-cache hit here).
StepsAdvance == \A x \in lastStep : x.to > x.from /\ (x.verify \/ x.to <= PromptOf[x.id])
PreemptedStartsOver == \A r \in Req : status[r] = "preempted" => done[r] = 0
\* A finished request stays finished; a request's computed tokens go back only at preemption.
FinishedStays == [][\A r \in Req : status[r] = "finished" => status'[r] = "finished"]_vars
\* Every preemption counts against the model's bound.
PreemptionsCounted ==
    [][\A r \in Req : status'[r] = "preempted" /\ status[r] # "preempted" => epoch'[r] = epoch[r] + 1]_vars
ComputedGrows == [][\A r \in Req : status'[r] # "preempted" => done'[r] >= done[r]]_vars
\* The free queue gives out every block without a hash before any block with one (a hashed
\* block is still a prefix-cache hit until it is given out again).
FreeQueueOrder ==
    \A i, j \in 1..Len(freeQ) : i < j /\ hashed[freeQ[i]] => hashed[freeQ[j]]
\* Hashing keeps up: a running request's hashed columns are the full blocks of the tokens it had
\* when last scheduled, at most one block short of those it computed (a verify step hashes before
\* its drafts are accepted).
CachedKeepsUp ==
    ~HashesDrafts =>
        /\ \A r \in Req : status[r] = "running" => cached[r] \in {done[r] \div B - 1, done[r] \div B}
        /\ \A x \in lastStep : cached[x.id] = (IF x.verify THEN x.from + 1 ELSE x.to) \div B
\* A block with a hash holds a request's state at a block boundary, in a table or in the free
\* queue (a prefix-cache hit until it is given out again, when it loses the hash).
HashedHoldsABoundary ==
    \A b \in Blocks : hashed[b] => \E r \in Req : \E k \in 1..(MaxTokens[r] \div B) : content[b] = State(r, k * B)
\* vLLM hands over only the boundaries the retention interval keeps.
OffersOnlyRetained == \A o \in offers : Retained(o.id, o.tokens)
\* The pool's bookkeeping: a block is queued exactly when nothing holds it.
PoolOK ==
    /\ \A b \in Blocks : (refs[b] = 0) <=> (b \in Range(freeQ))
    /\ Len(freeQ) = Cardinality(Range(freeQ))
    /\ \A r \in Req : \A b \in Range(table[r]) : b # Null => refs[b] >= 1
=============================================================================
