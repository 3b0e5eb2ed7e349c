---------------------------- MODULE Publication ----------------------------
(***************************************************************************)
(* Recurrent-state publication protocol of the proofgate connector         *)
(* (docs/protocol.md section 3).                                                  *)
(*                                                                         *)
(* Modelled:                                                               *)
(*  - vLLM as an environment that, per step, admits (new), schedules       *)
(*    (cached, possibly resumed) and preempts requests, with progress      *)
(*    below, at or past the target, and sends any recurrent_boundary_blocks*)
(*    value: absent, null, not a mapping, another request's key, null,     *)
(*    not a list, empty, malformed, unknown group, non-recurrent group,    *)
(*    null block, future, intermediate, exact complete, exact incomplete,  *)
(*    duplicate group, conflicting (a second pinned copy) and chunked      *)
(*    (intermediate then exact).  vLLM also finishes requests.             *)
(*  - worker ranks reporting that they hold a digest (quorum).             *)
(*  - the connector: latch, poison, pending store, quorum retirement,      *)
(*    publication and block selection, exactly in protocol section 3 order.  *)
(*  - the restore half (protocol section 3, "Restore rules"), in models    *)
(*    that name looked-up requests (LookedUp): vLLM looks a waiting        *)
(*    request up before admitting it, the connector answers with its hit   *)
(*    (the longest prefix it published under the request's digest, on    *)
(*    the recurrent block grid, below the prompt's end), and the request's *)
(*    first step computes the rest of its prompt on top of the hit, which  *)
(*    the connector loads into the request's own blocks.                   *)
(*  - block contents as state versions (tokens of recurrent state a block  *)
(*    holds): the table's recurrent slot always holds the running state    *)
(*    (it advances every step), a pinned proof block holds the state at    *)
(*    its boundary, a non-aligned target's copy-on-write block exists one  *)
(*    step after the target was reached, and preemption unpins blocks     *)
(*    (their contents become garbage, -1).  See BlockContent.              *)
(*                                                                         *)
(* Abstracted:                                                             *)
(*  - tokens move in a few stops per request (a chunk boundary, the target,*)
(*    the prompt end, one decode token); one topology per model; block ids *)
(*    are computed from (request, epoch, group, slot), see BlockId.        *)
(*  - a resumed request keeps its computed tokens (prefix-cache hit).      *)
(*  - step numbers are not modelled (they would make every path distinct); *)
(*    a generator numbers the steps of a path 1, 2, 3, ...                 *)
(*                                                                         *)
(* One TLA+ step = one whole replay event (protocol section 5) processed     *)
(* atomically, as Connector.apply(event) does: a scheduler step (with any  *)
(* number of new, cached and preempted requests), a finished event, or a   *)
(* held event.  Because TLC labels state-graph edges with action names     *)
(* only, the event is stored in lastEvent and the verdicts it produced in  *)
(* lastVerdicts.  Encoding of values as JSON: docs/spec.md.                *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets, TLC

CONSTANTS
    Requests,        \* sequence of request ids (strings), e.g. <<"r1", "r2">>
    DigestOf,        \* [request id -> digest string]; two requests may share one
    PromptOf,        \* [request id -> prompt_tokens]
    Topology,        \* sequence of [policy, block_tokens, window_tokens]; group g is Topology[g+1]
    TpDegree,        \* tp_degree: ranks 0..TpDegree-1
    MinSpan,         \* min_span_tokens
    MaxSpan,         \* max_span_tokens
    ChunkTokens,     \* a chunked-prefill stop below every target; 0 = no chunk stop
    MaxPreemptions,  \* preemptions per request (bounds epoch)
    MaxBatch,        \* most requests scheduled in one step
    TableFault,      \* [request id -> "none", "null", "repeat", "short", "shared", "lowid", "lownull" or
                     \* "unordered"] (see Table)
    EvidenceKinds,   \* [request id -> evidence labels vLLM may send for it] (see EvidenceValue)
    FieldKinds,      \* whole-field shapes vLLM may send: "absent", "null", "text", "true",
                     \* "int", "number", "list", "object" (the empty mapping {}), "other_empty"
                     \* (an empty list for a request not scheduled), "mapping"
    Absent,          \* model value: the field is omitted from the step
    JsonNull,        \* model value: JSON null
    JsonText,        \* model value: the JSON string "text"
    JsonTrue,        \* model value: JSON true
    JsonInt,         \* model value: the JSON integer 7 (a TLA+ integer would be compared with strings)
    JsonNumber,      \* model value: the JSON number 1.5
    JsonList,        \* model value: the JSON list [] (only as a whole field)
    JsonObject       \* model value: the JSON object {} (only as a request's value)

HashBlock == 256

Req == {Requests[i] : i \in 1..Len(Requests)}
IdxOf == [r \in Req |-> CHOOSE i \in 1..Len(Requests) : Requests[i] = r]
RIdx(r) == IdxOf[r]
Digests == {DigestOf[r] : r \in Req}
Ranks == 0..(TpDegree - 1)
NG == Len(Topology)
Groups == 0..(NG - 1)
Policy(g) == Topology[g + 1].policy
BT(g) == Topology[g + 1].block_tokens
Window(g) == Topology[g + 1].window_tokens
RecGroups == {g \in Groups : Policy(g) = "recurrent_align"}
HasRecurrent == RecGroups # {}
FirstRec == CHOOSE g \in RecGroups : \A h \in RecGroups : g <= h
LastRec == CHOOSE g \in RecGroups : \A h \in RecGroups : g >= h
\* The recurrent groups in index order.
RecSeq == SelectSeq([i \in 1..NG |-> i - 1], LAMBDA g : g \in RecGroups)
Markers == {JsonNull, JsonText, JsonTrue, JsonInt, JsonNumber, JsonList, JsonObject}
\* JSON's name for the kind of a marker (the reasons' found= fact).
KindOf(x) == CASE x = JsonNull -> "null" [] x = JsonText -> "string" [] x = JsonTrue -> "boolean"
               [] x = JsonInt -> "integer" [] x = JsonNumber -> "number" [] x = JsonList -> "list"
               [] x = JsonObject -> "mapping"
Min(S) == CHOOSE m \in S : \A x \in S : m <= x

\* protocol section 2: target = floor((prompt_tokens - 1) / 256) * 256.
TargetOf == [r \in Req |-> ((PromptOf[r] - 1) \div HashBlock) * HashBlock]
Target(r) == TargetOf[r]
Tracked(r) == MinSpan <= Target(r) /\ Target(r) <= MaxSpan
\* The target is aligned when it is a block boundary of every recurrent group.
Aligned(r) == \A g \in RecGroups : Target(r) % BT(g) = 0
\* Token counts a scheduler step may stop at: a chunk boundary below the target,
\* the target, the prompt end (past the target) and, for a non-aligned target
\* (whose copy-on-write proof comes one step later), one decode token.
MaxStop(r) == IF Aligned(r) THEN PromptOf[r] ELSE PromptOf[r] + 1
\* Chunk stops below a target (overridable: a model may have two, so that a cached step
\* can end below the target).
ChunkStops == {ChunkTokens}
Stops(r) == {s \in {Target(r), PromptOf[r], MaxStop(r)} : s > 0}
            \cup {s \in ChunkStops : 0 < s /\ s < Target(r)}
IntermediateBoundary == IF ChunkTokens > 0 THEN ChunkTokens ELSE HashBlock
FutureBoundary(r) == Target(r) + HashBlock

Ceil(a, b) == (a + b - 1) \div b
NBlocks(g, d) == Ceil(d, BT(g))

\* Block ids: 1000*request index + 100*epoch + 10*group + slot.  Slots 1..4
\* are table positions; 5 = pinned exact-target block, 6 = a second pinned
\* exact-target copy (conflicting), 7 = pinned intermediate block,
\* 8 = pinned future block.  0 is the null block.
BlockId(r, e, g, k) == 1000 * RIdx(r) + 100 * e + 10 * g + k
ASSUME \A r \in {Requests[i] : i \in 1..Len(Requests)} :
         \A g \in 0..(Len(Topology) - 1) :
            Ceil(PromptOf[r] + 1, Topology[g + 1].block_tokens) <= 4
ASSUME \A r \in {Requests[i] : i \in 1..Len(Requests)} :
         MinSpan <= ((PromptOf[r] - 1) \div 256) * 256 =>
            ChunkTokens < ((PromptOf[r] - 1) \div 256) * 256
ASSUME MaxPreemptions <= 9 /\ Len(Topology) <= 9 /\ MaxBatch < Len(Requests)

\* The request table of group g at epoch e covering d tokens (vLLM block_ids).  A faulty
\* vLLM (TableFault) sends a null first group-0 block ("null"), repeats the first group-0
\* block in slot 2 ("repeat"), sends one block fewer than d needs, and never the block of the
\* target's last token, in the groups ShortGroups names (group 0 unless a model overrides it)
\* ("short": the table stays shorter than a plan's selection, however far the request runs), or
\* gives group 1 the ids of group 0 ("shared": one block in two groups); "lowid" is no fault:
\* the first group-0 block is 1, the smallest block that is not null; "lownull" is block 1
\* and then a null block; "unordered" is no fault either: vLLM's free-block queue hands a request
\* its blocks in any order, so each table lists its slots as 2, 1, 4, 3 (position k holds chunk
\* k all the same: a connector that sorts a table copies the chunks out of order).
\* (Tables are built for every candidate step, so the fault-free case takes the short way.)
ShortGroups(r) == {0}
\* The requests vLLM looks up in the connector before admitting them (the restore half): none
\* unless a model overrides it; a model that does writes proofgate-events/v2 logs.
LookedUp == {}
\* The tokens of a looked-up request's prompt that vLLM's own prefix cache holds (the lookup's
\* computed): none unless a model overrides it.
OwnHit(r) == 0
TableLen(r, g, d) ==
    IF TableFault[r] = "short" /\ g \in ShortGroups(r) /\ NBlocks(g, d) > 0
    THEN NBlocks(g, IF d < Target(r) THEN d ELSE Target(r)) - 1
    ELSE NBlocks(g, d)
Table(r, e, g, d) ==
    IF TableFault[r] = "none" THEN [k \in 1..NBlocks(g, d) |-> BlockId(r, e, g, k)]
    ELSE [k \in 1..TableLen(r, g, d) |->
            CASE TableFault[r] = "null" /\ g = 0 /\ k = 1 -> 0
              [] TableFault[r] = "repeat" /\ g = 0 /\ k = 2 -> BlockId(r, e, 0, 1)
              [] TableFault[r] = "shared" /\ g = 1 -> BlockId(r, e, 0, k)
              [] TableFault[r] \in {"lowid", "lownull"} /\ g = 0 /\ k = 1 -> 1
              [] TableFault[r] = "lownull" /\ g = 0 /\ k = 2 -> 0
              [] TableFault[r] = "unordered" -> BlockId(r, e, g, <<2, 1, 4, 3>>[k])
              [] OTHER -> BlockId(r, e, g, k)]
FullTable(r, e, d) == [i \in 1..NG |-> Table(r, e, i - 1, d)]
NewBlocks(r, e, d0, d1) ==
    [i \in 1..NG |-> LET t1 == Table(r, e, i - 1, d1) IN SubSeq(t1, TableLen(r, i - 1, d0) + 1, Len(t1))]

VARIABLES
    status,        \* vLLM: [Req -> {"waiting","running","preempted","finished"}]
    done,          \* vLLM: [Req -> tokens computed after the request's last step]
    epoch,         \* vLLM: [Req -> preemptions so far]; blocks of older epochs are unpinned
    reached,       \* vLLM: [Req -> BOOLEAN] a step of this epoch ended at or past the target (CoW exists)
    held,          \* ranks: [Digests -> SUBSET Ranks] ranks that report holding the digest
    proven,        \* ghost: [Req -> set of complete exact-target proofs sent since last preemption]
    pending,       \* connector: function from pending request ids to [digest, target, done, table, latch]
    plans,         \* connector counter: plans published
    rejected,      \* connector counter: rejected verdicts (recurrent_boundary_metadata_rejected)
    skippedQuorum, \* connector counter: store_skipped_quorum
    retiredFinished, \* connector counter: pending stores retired by finished
    poisoned,      \* ghost: requests with a rejected verdict
    planCount,     \* ghost: [Req -> number of plans published]
    stored,        \* connector: the prefixes published, as <<digest, target>> pairs (what a hit may claim)
    taken,         \* vLLM: [looked-up request ids -> tokens of the connector's hit], until the request's first step
    lastEvent,     \* the replay event of the last transition (edges carry action names only)
    lastVerdicts   \* the verdicts the connector produced for lastEvent, in output order

env == <<status, done, epoch, reached, held, proven, taken>>
conn == <<pending, plans, rejected, skippedQuorum, retiredFinished, poisoned, planCount, stored>>
vars == <<status, done, epoch, reached, held, proven, pending, plans, rejected,
          skippedQuorum, retiredFinished, poisoned, planCount, stored, taken, lastEvent, lastVerdicts>>

InOrder(S) == SelectSeq(Requests, LAMBDA x : x \in S)
Range(f) == {f[i] : i \in DOMAIN f}
FullQuorum(d) == held[d] = Ranks

-----------------------------------------------------------------------------
(* Evidence values vLLM may send (JSON mapping: docs/spec.md).              *)

PerGroup(r, e, k, bd) == [i \in 1..Len(RecSeq) |-> <<RecSeq[i], BlockId(r, e, RecSeq[i], k), bd>>]
ExactEntries(r, e, k) == PerGroup(r, e, k, Target(r))
\* A second pinned copy of the last recurrent group only (a conflict in a later group).
MixedEntries(r, e) ==
    [i \in 1..Len(RecSeq) |-> <<RecSeq[i], BlockId(r, e, RecSeq[i], IF i = Len(RecSeq) THEN 6 ELSE 5), Target(r)>>]
NonRecGroup == CHOOSE g \in Groups : Policy(g) # "recurrent_align"

\* The complete exact-target proof that label kd carries (as a latch-shaped set).
ProofSet(r, e, k) == {<<x[1], x[2]>> : x \in Range(ExactEntries(r, e, k))}

\* The value of recurrent_boundary_blocks[r] for evidence label kd.
EvidenceValue(r, kd) ==
    LET e == epoch[r] IN
    CASE kd = "null"           -> JsonNull
      [] kd = "notalist"       -> JsonText
      [] kd = "notalist_bool"  -> JsonTrue
      [] kd = "notalist_int"   -> JsonInt
      [] kd = "notalist_number" -> JsonNumber
      [] kd = "notalist_mapping" -> JsonObject
      [] kd = "empty"          -> <<>>
      [] kd = "malformed"      -> << <<FirstRec, BlockId(r, e, FirstRec, 5)>> >>
      [] kd = "malformed_bool" -> << <<FirstRec, JsonTrue, Target(r)>> >>
      [] kd = "malformed_text" -> << JsonText >>
      [] kd = "malformed_null" -> << JsonNull >>
      [] kd = "malformed_first" -> << <<JsonText, BlockId(r, e, FirstRec, 5), Target(r)>> >>
      [] kd = "malformed_last" -> << <<FirstRec, BlockId(r, e, FirstRec, 5), JsonNumber>> >>
      [] kd = "unknown"        -> << <<NG, BlockId(r, e, FirstRec, 5), Target(r)>> >>
      [] kd = "unknown_max"    -> << <<2147483647, BlockId(r, e, FirstRec, 5), Target(r)>> >>
      [] kd = "unknown_negative" -> << <<-1, BlockId(r, e, FirstRec, 5), Target(r)>> >>
      [] kd = "nonrecurrent"   -> << <<NonRecGroup, BlockId(r, e, NonRecGroup, 5), Target(r)>> >>
      [] kd = "nullblock"      -> << <<FirstRec, 0, IntermediateBoundary>> >>
      [] kd = "future"         -> PerGroup(r, e, 8, FutureBoundary(r))
      [] kd = "intermediate"   -> PerGroup(r, e, 7, IntermediateBoundary)
      [] kd = "exact"          -> ExactEntries(r, e, 5)
      [] kd = "exact_alt"      -> ExactEntries(r, e, 6)
      [] kd = "exact_mixed"    -> MixedEntries(r, e)
      [] kd = "incomplete"     -> << <<FirstRec, BlockId(r, e, FirstRec, 5), Target(r)>> >>
      [] kd = "incomplete_last" -> << <<LastRec, BlockId(r, e, LastRec, 5), Target(r)>> >>
      \* a failing entry after a passing (intermediate) one: entry=1
      [] kd = "future_second"  -> << <<FirstRec, BlockId(r, e, FirstRec, 7), IntermediateBoundary>>,
                                     <<FirstRec, BlockId(r, e, FirstRec, 8), FutureBoundary(r)>> >>
      [] kd = "malformed_long" -> << <<FirstRec, BlockId(r, e, FirstRec, 7), IntermediateBoundary>>,
                                     <<FirstRec, BlockId(r, e, FirstRec, 5), Target(r), Target(r)>> >>
      [] kd = "duplicate"      -> << <<FirstRec, BlockId(r, e, FirstRec, 5), Target(r)>>,
                                     <<FirstRec, BlockId(r, e, FirstRec, 6), Target(r)>> >>
      \* the same exact-target entry twice: still a duplicate (row duplicate_group)
      [] kd = "duplicate_same" -> << <<FirstRec, BlockId(r, e, FirstRec, 5), Target(r)>>,
                                     <<FirstRec, BlockId(r, e, FirstRec, 5), Target(r)>> >>
      \* the duplicate after an intermediate entry of the same group: first names the exact one
      [] kd = "duplicate_late" -> << <<FirstRec, BlockId(r, e, FirstRec, 7), IntermediateBoundary>>,
                                     <<FirstRec, BlockId(r, e, FirstRec, 5), Target(r)>>,
                                     <<FirstRec, BlockId(r, e, FirstRec, 6), Target(r)>> >>
      \* an intermediate entry naming block 1, the smallest block that is not null
      [] kd = "intermediate_block1" -> << <<FirstRec, 1, IntermediateBoundary>> >>
      [] kd = "chunked"        -> PerGroup(r, e, 7, IntermediateBoundary) \o ExactEntries(r, e, 5)

\* Honest vLLM: pinned blocks name states that exist.  Exact-target proof
\* exists in the step that reaches an aligned target, and one step after
\* reaching a non-aligned target (copy-on-write); fresh after every resume.
ProofReady(r, d1) == IF Aligned(r) THEN d1 >= Target(r) ELSE reached[r]
Available(r, d1, kd) ==
    CASE kd \in {"exact", "exact_alt", "exact_mixed", "duplicate", "duplicate_same", "duplicate_late", "chunked",
                 "incomplete",
                 "incomplete_last"} ->
              /\ ProofReady(r, d1)
              /\ (kd \in {"incomplete", "incomplete_last"} => Cardinality(RecGroups) >= 2)
              /\ (kd = "chunked" => ChunkTokens > 0)
              \* a second pinned copy only after a first proof of this epoch was sent
              /\ (kd \in {"exact_alt", "exact_mixed"} => proven[r] # {})
      [] kd = "intermediate" -> ChunkTokens > 0 /\ d1 >= ChunkTokens
      [] kd = "intermediate_block1" -> d1 >= IntermediateBoundary
      [] kd \in {"future", "future_second"} -> d1 > Target(r)
      [] kd = "nonrecurrent" -> RecGroups # Groups
      [] OTHER -> TRUE
ProofLabels == {"exact", "exact_alt", "exact_mixed", "chunked"}
\* The complete proof a proof label carries.
ProofOf(r, e, kd) ==
    IF kd = "exact_mixed" THEN {<<x[1], x[2]>> : x \in Range(MixedEntries(r, e))}
    ELSE ProofSet(r, e, IF kd = "exact_alt" THEN 6 ELSE 5)

\* State-space reduction: protocol section 3 says the connector reads evidence only
\* for a tracked request that is scheduled and whose digest is not at full quorum.
\* For any other scheduled request vLLM sends no key, a complete exact proof, or an
\* empty list (which poisons wherever it is read), never the other kinds, which
\* would only add copies of the same transition.  A connector that read such a
\* request's evidence would reject it: QuorumSkipsValidation and
\* UntrackedGetsNoVerdict catch that (mutants MCValidateBeforeQuorum and
\* MCValidateUntracked).
Examined(r) ==
    /\ ~FullQuorum(DigestOf[r])
    /\ \/ status[r] = "waiting" /\ Tracked(r)
       \/ r \in DOMAIN pending
UnexaminedKinds == {"exact", "empty"}
SentKinds(r) == IF Examined(r) THEN EvidenceKinds[r] ELSE UnexaminedKinds

\* Another request's key: the first request not scheduled, with its own exact proof.
OtherId(B) == InOrder(Req \ B)[1]

\* The whole field for a step scheduling B with per-request labels lab.
FieldValue(B, fk, lab) ==
    CASE fk = "absent" -> Absent
      [] fk = "null"   -> JsonNull
      [] fk = "text"   -> JsonText
      [] fk = "true"   -> JsonTrue
      [] fk = "int"    -> JsonInt
      [] fk = "number" -> JsonNumber
      [] fk = "list"   -> JsonList
      [] fk = "object" -> JsonObject
      \* an empty list keyed by a request the step does not schedule: a connector that read it
      \* would poison a pending store that is not even scheduled
      [] fk = "other_empty" -> OtherId(B) :> <<>>
      [] fk = "mapping" ->
            LET keyed == {x \in B : lab[x] # "other"} IN
            IF keyed = {}
            THEN OtherId(B) :> ExactEntries(OtherId(B), epoch[OtherId(B)], 5)
            ELSE [x \in keyed |-> EvidenceValue(x, lab[x])]

-----------------------------------------------------------------------------
(* Connector: protocol section 3 validation, in table order.                  *)
(* proofgate mutate mutates the definitions between the two markers.       *)
\* mutate-begin: Connector

Keep == [kind |-> "keep"]
Latch(s) == [kind |-> "latch", latch |-> s]
\* facts: what the reason states besides code and target (docs/spec.md, "Reasons").
Poison(c, facts) == [kind |-> "poison", code |-> c, facts |-> facts]

\* Overridable rules (mutants replace exactly one of these).
IsFuture(bd, S) == bd > S                      \* row "boundary > target"
IsIntermediate(bd, S) == bd < S                \* row "boundary < target"
CoversRecurrent(gs) == gs = RecGroups          \* row "do not cover every recurrent group"
DropLatch(p) == [p EXCEPT !.latch = {}]        \* "every preempted request loses its latch"
PublishesOnNewStep == ~HasRecurrent            \* "never publishes on the new-request step"
ConnectorSeesQuorum(d) == FullQuorum(d)        \* quorum check of the new request and cached step rules
\* Plan block of a recurrent group: exactly its latched block (never the table).
RecurrentSelection(g, p) ==
    IF \E x \in p.latch : x[1] = g THEN << (CHOOSE x \in p.latch : x[1] = g)[2] >> ELSE << >>

IsInt(v) == v \notin Markers
\* Per-entry rows, in table order; "" = passes.
EntryCode(e, S) ==
    IF e \in Markers \/ Len(e) # 3 \/ ~(IsInt(e[1]) /\ IsInt(e[2]) /\ IsInt(e[3]))
        THEN "malformed_entry"
    ELSE IF e[1] < 0 \/ e[1] >= NG THEN "unknown_group"
    ELSE IF Policy(e[1]) # "recurrent_align" THEN "non_recurrent_group"
    ELSE IF e[2] <= 0 THEN "null_block"
    ELSE IF IsFuture(e[3], S) THEN "future_boundary"
    ELSE ""
IsExact(e, S) == ~IsIntermediate(e[3], S)
\* The code of entry i given that entries 1..i-1 passed.
CodeAt(v, i, S) ==
    LET c == EntryCode(v[i], S) IN
    IF c # "" THEN c
    ELSE IF IsExact(v[i], S) /\ \E j \in 1..(i - 1) : IsExact(v[j], S) /\ v[j][1] = v[i][1]
        THEN "duplicate_group"
    ELSE ""
\* Why entry e is not a list of three integers.
\* (JsonInt stands for 7 only as a whole field or a request's value, JsonList for [] only as a
\* whole field (a request's empty list is <<>>); inside
\* an entry TLA+ integers and tuples are used, so a marker there is never an integer.)
Malformation(e) ==
    IF e \in Markers THEN [found |-> KindOf(e)]
    ELSE IF Len(e) # 3 THEN [length |-> Len(e)]
    ELSE LET j == Min({j \in 1..3 : e[j] \in Markers}) IN [element |-> j - 1, found |-> KindOf(e[j])]
\* The facts of failing entry i (1-based; reasons count entries from 0).
FactsAt(v, i, S) ==
    LET c == CodeAt(v, i, S)
        e == v[i]
    IN IF c = "malformed_entry" THEN [entry |-> i - 1] @@ Malformation(e)
       ELSE [observed |-> e[3], group |-> e[1], block |-> e[2], entry |-> i - 1] @@
            (CASE c = "non_recurrent_group" -> [policy |-> Policy(e[1])]
               [] c = "duplicate_group" ->
                    [first |-> v[Min({j \in 1..(i - 1) : IsExact(v[j], S) /\ v[j][1] = e[1]})][2]]
               [] OTHER -> <<>>)
RECURSIVE FirstFailing(_, _, _)
FirstFailing(v, i, S) ==
    IF i > Len(v) THEN 0
    ELSE IF CodeAt(v, i, S) # "" THEN i
    ELSE FirstFailing(v, i + 1, S)

\* The block a proof or latch names for group g (0 when it names none).
BlockOf(X, g) == IF \E x \in X : x[1] = g THEN (CHOOSE x \in X : x[1] = g)[2] ELSE 0
\* A conflict names the first recurrent group whose block differs from the latch.
ConflictFacts(X, L, S) ==
    LET differ == {g \in RecGroups : BlockOf(X, g) # BlockOf(L, g)} IN
    [observed |-> S, group |-> Min(differ), block |-> BlockOf(X, Min(differ)),
     latched |-> BlockOf(L, Min(differ))]

\* protocol section 3 decision table for request r with latch L.
Validate(field, r, L) ==
    LET S == Target(r) IN
    IF field = Absent \/ field = JsonNull THEN Keep                 \* field absent or null
    ELSE IF field = JsonObject THEN Keep                            \* {}: no key for r
    ELSE IF field \in Markers THEN Poison("not_a_mapping", [found |-> KindOf(field)])
    ELSE IF r \notin DOMAIN field THEN Keep                         \* no key for r
    ELSE LET v == field[r] IN
      IF v = JsonNull THEN Keep                                     \* value null
      ELSE IF v \in Markers THEN Poison("not_a_list", [found |-> KindOf(v)])
      ELSE IF v = <<>> THEN Poison("empty", <<>>)                   \* empty list
      ELSE LET i == FirstFailing(v, 1, S) IN
        IF i > 0 THEN Poison(CodeAt(v, i, S), FactsAt(v, i, S))
        ELSE LET X == {<<v[j][1], v[j][2]>> : j \in {j \in 1..Len(v) : IsExact(v[j], S)}} IN
          IF X = {} THEN Keep                                       \* all intermediate
          ELSE IF ~CoversRecurrent({x[1] : x \in X})
               THEN Poison("incomplete", [group |-> Min(RecGroups \ {x[1] : x \in X})])
          ELSE IF L = {} THEN Latch(X)                              \* latch them
          ELSE IF X = L THEN Keep                                   \* same set
          ELSE Poison("conflict", ConflictFacts(X, L, S))           \* different set

\* Plan block selection (protocol section 3).
\* A full or sliding group takes table entries From..To (1-based); a table shorter than To
\* cannot be selected from (short_table).
SelFrom(g, p) == IF Policy(g) = "sliding"
                 THEN (IF p.target > Window(g) THEN p.target - Window(g) ELSE 0) \div BT(g) + 1
                 ELSE 1
SelTo(g, p) == Ceil(p.target, BT(g))
Short(g, p) == Policy(g) # "recurrent_align" /\ Len(p.table[g + 1]) < SelTo(g, p)
Selection(g, p) ==
    IF Policy(g) = "recurrent_align" THEN RecurrentSelection(g, p)
    ELSE SubSeq(p.table[g + 1], SelFrom(g, p), SelTo(g, p))
\* Groups are checked in order: short table, then a null block; repeats over the whole plan.
Pos(sel) == UNION {{<<i, k>> : k \in DOMAIN sel[i]} : i \in 1..NG}
\* Occurrences of block b in the selections of groups 0..i-1.
Occ(sel, b, i) == Cardinality({x \in Pos(sel) : x[1] <= i /\ sel[x[1]][x[2]] = b})
Repeated(sel) == {b \in {sel[x[1]][x[2]] : x \in Pos(sel)} : Occ(sel, b, NG) >= 2}
\* The reason's facts of an invalid selection, or <<>> when the selection is valid.
SelectionFacts(p) ==
    LET short == {g \in Groups : Short(g, p)}
        sel == [i \in 1..NG |-> IF i - 1 \in short THEN <<>> ELSE Selection(i - 1, p)]
        bad == short \cup {g \in Groups : \E k \in DOMAIN sel[g + 1] : sel[g + 1][k] <= 0}
    IN IF bad # {} THEN
           LET g == Min(bad) IN
           IF g \in short THEN [group |-> g, problem |-> "short_table"]
           ELSE [group |-> g, block |-> sel[g + 1][Min({k \in DOMAIN sel[g + 1] : sel[g + 1][k] <= 0})],
                 problem |-> "null_block"]
       \* all distinct (the common case, checked first: it is cheap)
       ELSE IF Cardinality({sel[x[1]][x[2]] : x \in Pos(sel)}) = Cardinality(Pos(sel)) THEN <<>>
       ELSE LET b == Min(Repeated(sel)) IN
            [group |-> Min({i \in 1..NG : Occ(sel, b, i) >= 2}) - 1, block |-> b,
             problem |-> "repeated_block"]
RecurrentPairs(sel) ==
    SelectSeq([i \in 1..NG |-> IF Policy(i - 1) = "recurrent_align" /\ Len(sel[i]) = 1
                               THEN <<i - 1, sel[i][1]>> ELSE <<>>],
              LAMBDA x : x # <<>>)

\* Outcome of one request: pend is <<record>> when it stays pending, <<>> otherwise.
Out(pend, verdicts, dp, dr, dq) ==
    [pend |-> pend, verdicts |-> verdicts, plans |-> dp, rejected |-> dr, skipped |-> dq]
Nothing == Out(<<>>, <<>>, 0, 0, 0)
RejectedVerdict(r, code, facts) == [kind |-> "rejected", id |-> r, code |-> code, target |-> Target(r)] @@ facts

\* Publish step (5): done >= target and (no recurrent groups, or the latch is complete).
Publish(r, p, mayPublish) ==
    IF mayPublish /\ p.done >= p.target
       /\ (~HasRecurrent \/ CoversRecurrent({x[1] : x \in p.latch}))
    THEN LET facts == SelectionFacts(p) IN
         IF facts = <<>>
         THEN LET sel == [i \in 1..NG |-> Selection(i - 1, p)] IN
              Out(<<>>, <<[kind |-> "plan", id |-> r, digest |-> p.digest, span |-> p.target,
                           blocks_by_group |-> sel, recurrent |-> RecurrentPairs(sel)]>>,
                  1, 0, 0)
         ELSE Out(<<>>, <<RejectedVerdict(r, "invalid_selection", facts)>>, 0, 1, 0)
    ELSE Out(<<p>>, <<>>, 0, 0, 0)

\* Validation of r's evidence against latch L; a topology without recurrent groups never
\* looks at the evidence.
Validation(field, r, L) == IF HasRecurrent THEN Validate(field, r, L) ELSE Keep
Rejection(r, v) == Out(<<>>, <<RejectedVerdict(r, v.code, v.facts)>>, 0, 1, 0)

\* A tracked new request below full quorum: validate, then create the pending store.
NewTracked(r, field, entry) ==
    LET v == Validation(field, r, {}) IN
      IF v.kind = "poison" THEN Rejection(r, v)
      ELSE Publish(r, [digest |-> DigestOf[r], target |-> Target(r),
                       done |-> entry.computed + entry.scheduled,
                       table |-> entry.block_ids,
                       latch |-> IF v.kind = "latch" THEN v.latch ELSE {}],
                   PublishesOnNewStep)

\* New request (first scheduled step): a target out of range or a digest at full quorum is
\* neither tracked nor validated.
NewRequest(r, field, entry) ==
    IF ~Tracked(r) THEN Nothing                                      \* target out of range
    ELSE IF ConnectorSeesQuorum(DigestOf[r]) THEN Out(<<>>, <<>>, 0, 0, 1)
    ELSE NewTracked(r, field, entry)

\* Cached step, steps (2) to (5): validate, extend or replace the table, progress, publish.
CachedBelowQuorum(r, field, entry, p) ==
    LET v == Validation(field, r, p.latch) IN
      IF v.kind = "poison" THEN Rejection(r, v)
      ELSE Publish(r,
             [p EXCEPT !.latch = IF v.kind = "latch" THEN v.latch ELSE p.latch,
                       !.table = IF entry.resumed THEN entry.new_block_ids
                                 ELSE [i \in 1..NG |-> p.table[i] \o entry.new_block_ids[i]],
                       !.done = entry.computed + entry.scheduled],
             TRUE)

\* Cached step of a pending request: (1) full quorum retires it without looking at the evidence.
CachedStep(r, field, entry, p) ==
    IF ConnectorSeesQuorum(p.digest)
    THEN Out(<<>>, <<[kind |-> "retired", id |-> r, cause |-> "quorum"]>>, 0, 0, 1)
    ELSE CachedBelowQuorum(r, field, entry, p)

RECURSIVE CatVerdicts(_, _)
CatVerdicts(outs, ids) ==
    IF ids = <<>> THEN <<>> ELSE outs[Head(ids)].verdicts \o CatVerdicts(outs, Tail(ids))
RECURSIVE SumField(_, _, _)
SumField(outs, ids, f) ==
    IF ids = <<>> THEN 0 ELSE outs[Head(ids)][f] + SumField(outs, Tail(ids), f)

\* Restore rules (protocol section 3).  A hit is a prefix the connector published under the
\* request's digest, on every recurrent group's block grid, strictly below the prompt's end (vLLM
\* computes the last prompt token again), beyond vLLM's own tokens: the longest such, or none.
OnGrid(s) == \A g \in RecGroups : s % BT(g) = 0
Longest(H) == CHOOSE s \in H : \A t \in H : t <= s
HitTokens(ev) ==
    LET H == {s \in {x[2] : x \in {y \in stored : y[1] = ev.digest}} :
                s < ev.prompt_tokens /\ s > ev.computed /\ OnGrid(s)}
    IN IF H = {} THEN 0 ELSE Longest(H) - ev.computed

\* The connector's answer to a lookup.
ConnectorAnswersLookup(ev) == lastVerdicts' = <<[kind |-> "hit", id |-> ev.id, tokens |-> HitTokens(ev)]>>

\* The blocks of group g a load of span s writes, for a request vLLM had `from` tokens of: an
\* attention group's from vLLM's tokens to the span (a sliding group's within its window), a
\* recurrent group's at the span's column (a span is a multiple of its block size, at least one
\* block); null blocks left out, and the table's end is the end of what it can write.
LoadFirst(g, from, s) ==
    IF Policy(g) = "recurrent_align" THEN s \div BT(g) - 1
    ELSE IF Policy(g) = "sliding" /\ s - Window(g) > from THEN (s - Window(g)) \div BT(g)
    ELSE from \div BT(g)
\* (A recurrent group's last column is the span's, s \div BT(g): the span is on its grid.)
LoadEnd(g, s) == Ceil(s, BT(g))
LoadRow(row, g, from, s) ==
    LET end == IF LoadEnd(g, s) < Len(row) THEN LoadEnd(g, s) ELSE Len(row)
    IN SelectSeq(SubSeq(row, LoadFirst(g, from, s) + 1, end), LAMBDA b : b > 0)
\* A new request vLLM scheduled with the connector's hit (external tokens): the load, before the
\* step computes; none for a request without.
LoadOf(entry) ==
    IF "external" \in DOMAIN entry /\ entry.external # 0
    THEN LET from == entry.computed - entry.external IN
         <<[kind |-> "load", id |-> entry.id, digest |-> entry.digest, span |-> entry.computed,
            blocks_by_group |-> [i \in 1..NG |-> LoadRow(entry.block_ids[i], i - 1, from, entry.computed)]]>>
    ELSE <<>>

\* The connector's atomic reaction to one scheduler step event ev.
ConnectorAppliesStep(ev) ==
    LET P == Range(ev.preempted)
        pend0 == [x \in DOMAIN pending |-> IF x \in P THEN DropLatch(pending[x]) ELSE pending[x]]
        NewE == [x \in {ev.new[i].id : i \in DOMAIN ev.new} |->
                   ev.new[CHOOSE i \in DOMAIN ev.new : ev.new[i].id = x]]
        CacE == [x \in {ev.cached[i].id : i \in DOMAIN ev.cached} |->
                   ev.cached[CHOOSE i \in DOMAIN ev.cached : ev.cached[i].id = x]]
        B == DOMAIN NewE \cup DOMAIN CacE
        outs == [x \in B |->
                   IF x \in DOMAIN NewE
                   THEN LET o == NewRequest(x, ev.recurrent_boundary_blocks, NewE[x])
                        IN [o EXCEPT !.verdicts = LoadOf(NewE[x]) \o o.verdicts]
                   ELSE IF x \in DOMAIN pend0
                   THEN CachedStep(x, ev.recurrent_boundary_blocks, CacE[x], pend0[x])
                   ELSE Nothing]                                  \* not tracked: ignored
        ids == InOrder(DOMAIN NewE) \o InOrder(DOMAIN CacE)
        keep == (DOMAIN pend0 \ B) \cup {x \in B : outs[x].pend # <<>>}
        verdicts == CatVerdicts(outs, ids)
    IN /\ pending' = [x \in keep |-> IF x \in B THEN outs[x].pend[1] ELSE pend0[x]]
       /\ lastVerdicts' = verdicts
       /\ plans' = plans + SumField(outs, ids, "plans")
       /\ rejected' = rejected + SumField(outs, ids, "rejected")
       /\ skippedQuorum' = skippedQuorum + SumField(outs, ids, "skipped")
       /\ retiredFinished' = retiredFinished
       /\ stored' = stored \cup {<<verdicts[i].digest, verdicts[i].span>> :
                                  i \in {i \in DOMAIN verdicts : verdicts[i].kind = "plan"}}
\* mutate-end: Connector

\* The ghosts follow from the verdicts, outside the Connector part (they are the spec's own
\* bookkeeping, which mutating the connector must not change).
GhostsFollowVerdicts ==
    /\ poisoned' = poisoned \cup {lastVerdicts'[i].id : i \in {i \in DOMAIN lastVerdicts' : lastVerdicts'[i].kind = "rejected"}}
    /\ planCount' = [x \in Req |-> planCount[x]
                        + Cardinality({i \in DOMAIN lastVerdicts' : lastVerdicts'[i].kind = "plan" /\ lastVerdicts'[i].id = x})]

-----------------------------------------------------------------------------
(* vLLM's proof producer (Mamba layers in align mode): the three rules a    *)
(* producer change edits.  The environment below sends free evidence (the   *)
(* menu, the default); Producer.tla runs vLLM's block state instead and     *)
(* derives the evidence from it with these rules (docs/spec.md, "vLLM's     *)
(* proof producer").  They are here, outside the Connector part, so that a  *)
(* named mistake of the producer is an edit of this module.                 *)

\* A step whose cache_blocks call covers the request's tokens d0+1..d1 produces the recurrent
\* state at boundary bd in its running block only when it stops exactly there (the exact-stop
\* rule): a call that runs past bd leaves the state at d1 in that block, and align mode has
\* already made the slot bd would have had a null block.
ProducesBoundary(d0, d1, bd) == d1 = bd
\* A non-aligned target's state is copied out of the running block (partial-tail copy-on-write)
\* in the step after the one that produced it, and handed over in that step's output: produced
\* says whether the request's previous step produced it, now whether this step does.
TailHandedOver(produced, now) == produced
\* The block a partial-tail proof of group g names, in a step ending at d: the copy-on-write
\* target (slot 5), which keeps the state; never the running block (table slot NBlocks(g, d)),
\* which the step goes on writing.
TailSlot(g, d) == 5

-----------------------------------------------------------------------------
(* Environment actions; each one is one replay event.                       *)

\* vLLM admits in arrival order (FCFS): a waiting request is scheduled only
\* after every earlier request in Requests has been admitted (MayAdmit; overridable:
\* gen-selection serves one request per behaviour, whichever it is).
MayAdmit(r) == \A i \in 1..(RIdx(r) - 1) : status[Requests[i]] # "waiting"
Schedulable == {r \in Req : /\ status[r] \in {"waiting", "running", "preempted"}
                            /\ done[r] < MaxStop(r)
                            /\ status[r] = "waiting" => MayAdmit(r)
                            \* a looked-up request is admitted only after its lookup
                            /\ status[r] = "waiting" /\ r \in LookedUp => r \in DOMAIN taken}
Preemptable == {r \in Req : status[r] = "running" /\ epoch[r] < MaxPreemptions}
\* A new request stops before MaxStop, so one more step is always possible; a looked-up one
\* computes the rest of its prompt on top of its hit, in one step (as the conformance kit sends it).
NextStops(r) ==
    IF status[r] = "waiting" /\ r \in LookedUp THEN {PromptOf[r]}
    ELSE {s \in Stops(r) : s > done[r] /\ (status[r] = "waiting" => s < MaxStop(r))}

\* A looked-up request is admitted with its own prefix-cache hit and the connector's hit (its
\* external tokens) as computed.
NewEntry(r, s) ==
    IF r \in LookedUp
    THEN [id |-> r, digest |-> DigestOf[r], prompt_tokens |-> PromptOf[r], computed |-> OwnHit(r) + taken[r],
          external |-> taken[r], scheduled |-> s - OwnHit(r) - taken[r], block_ids |-> FullTable(r, epoch[r], s)]
    ELSE [id |-> r, digest |-> DigestOf[r], prompt_tokens |-> PromptOf[r], computed |-> 0,
          scheduled |-> s, block_ids |-> FullTable(r, epoch[r], s)]
CachedEntry(r, s, e) ==
    [id |-> r, computed |-> done[r], scheduled |-> s - done[r],
     new_block_ids |-> IF status[r] = "preempted" THEN FullTable(r, e, s)
                       ELSE NewBlocks(r, e, done[r], s),
     resumed |-> status[r] = "preempted"]

\* vLLM sends one scheduler output: preemptions P, scheduled requests B with
\* stops st, and recurrent_boundary_blocks built from fk and labels lab.
StepWith(B, P, st, fk, lab) ==
    LET epoch1 == [x \in Req |-> IF x \in P THEN epoch[x] + 1 ELSE epoch[x]]
        ev == [kind |-> "step",
               new |-> [i \in 1..Len(InOrder({x \in B : status[x] = "waiting"})) |->
                          LET x == InOrder({y \in B : status[y] = "waiting"})[i]
                          IN NewEntry(x, st[x])],
               cached |-> [i \in 1..Len(InOrder({x \in B : status[x] # "waiting"})) |->
                          LET x == InOrder({y \in B : status[y] # "waiting"})[i]
                          IN CachedEntry(x, st[x], epoch[x])],
               preempted |-> InOrder(P),
               recurrent_boundary_blocks |-> FieldValue(B, fk, lab)]
    IN /\ lastEvent' = ev
       /\ status' = [x \in Req |-> IF x \in B THEN "running"
                                   ELSE IF x \in P THEN "preempted" ELSE status[x]]
       /\ done' = [x \in Req |-> IF x \in B THEN st[x] ELSE done[x]]
       /\ epoch' = epoch1
       /\ reached' = [x \in Req |-> IF x \in B THEN st[x] >= Target(x)
                                    ELSE IF x \in P THEN FALSE ELSE reached[x]]
       /\ proven' = [x \in Req |->
                       IF x \in P THEN {}
                       ELSE IF x \in B /\ fk = "mapping" /\ lab[x] \in ProofLabels
                       THEN proven[x] \cup {ProofOf(x, epoch[x], lab[x])}
                       ELSE proven[x]]
       /\ taken' = [x \in DOMAIN taken \ B |-> taken[x]]
       /\ UNCHANGED held
       /\ ConnectorAppliesStep(ev)
       /\ GhostsFollowVerdicts

SchedulerSendsStep(B, P) ==
    /\ \E st \in [B -> UNION {NextStops(x) : x \in B}] :
         /\ \A x \in B : st[x] \in NextStops(x)
         /\ \/ /\ B = {} \/ ~HasRecurrent
               /\ StepWith(B, P, st, "absent", [x \in B |-> "other"])
            \* without recurrent groups the field is never read: a model may send it anyway, as a
            \* whole-field shape (a mapping would need a recurrent group to name)
            \/ /\ B # {} /\ ~HasRecurrent
               /\ \E fk \in FieldKinds \ {"mapping", "absent"} : StepWith(B, P, st, fk, [x \in B |-> "other"])
            \/ /\ B # {} /\ HasRecurrent
               /\ \E fk \in FieldKinds \ {"mapping"} :
                     /\ (fk # "absent" => \E x \in B : Examined(x))
                     /\ StepWith(B, P, st, fk, [x \in B |-> "other"])
            \/ /\ B # {} /\ HasRecurrent /\ "mapping" \in FieldKinds
               /\ \E lab \in [B -> UNION {SentKinds(x) : x \in B} \cup {"other"}] :
                     /\ \A x \in B : lab[x] = "other"
                                    \/ (lab[x] \in SentKinds(x) /\ Available(x, st[x], lab[x]))
                     /\ StepWith(B, P, st, "mapping", lab)

\* A scheduler step: schedule B (admit, continue or resume) and preempt P.
SchedulerSchedules ==
    \E B \in SUBSET Schedulable, P \in SUBSET Preemptable :
        /\ B \cap P = {}
        /\ Cardinality(B) <= MaxBatch /\ Cardinality(P) <= 1
        /\ B \cup P # {}
        /\ SchedulerSendsStep(B, P)

\* The same, restricted to steps that schedule r (for fairness).
SchedulerSchedulesRequest(r) ==
    \E B \in SUBSET Schedulable, P \in SUBSET Preemptable :
        /\ r \in B /\ B \cap P = {}
        /\ Cardinality(B) <= MaxBatch /\ Cardinality(P) <= 1
        /\ SchedulerSendsStep(B, P)

\* vLLM finishes (or aborts) an admitted request: drop its pending state.
SchedulerFinishes ==
    \E r \in Req :
        /\ status[r] \in {"running", "preempted"}
        /\ status' = [status EXCEPT ![r] = "finished"]
        /\ lastEvent' = [kind |-> "finished", id |-> r]
        /\ IF r \in DOMAIN pending
           THEN /\ pending' = [x \in DOMAIN pending \ {r} |-> pending[x]]
                /\ lastVerdicts' = <<[kind |-> "retired", id |-> r, cause |-> "finished"]>>
                /\ retiredFinished' = retiredFinished + 1
           ELSE UNCHANGED <<pending, retiredFinished>> /\ lastVerdicts' = <<>>
        \* a finished request's progress is never read again: forget it (merges states)
        /\ done' = [done EXCEPT ![r] = 0]
        /\ epoch' = [epoch EXCEPT ![r] = 0]
        /\ reached' = [reached EXCEPT ![r] = FALSE]
        /\ proven' = [proven EXCEPT ![r] = {}]
        /\ UNCHANGED <<held, plans, rejected, skippedQuorum, poisoned, planCount, stored, taken>>

\* A worker rank reports holding a digest (quorum); no verdict.  Ranks report
\* in rank order (ranks are symmetric; this keeps one order of each set), unless a model
\* overrides RanksInAnyOrder (then a higher rank may hold a digest alone, which a connector
\* that took quorum from one rank would mistake for full quorum).
RanksInAnyOrder == FALSE
RankHolds ==
    \E k \in Ranks, d \in Digests :
        /\ k \notin held[d]
        /\ RanksInAnyOrder \/ \A j \in 0..(k - 1) : j \in held[d]
        /\ held' = [held EXCEPT ![d] = @ \cup {k}]
        /\ lastEvent' = [kind |-> "held", rank |-> k, digest |-> d]
        /\ lastVerdicts' = <<>>
        /\ UNCHANGED <<status, done, epoch, reached, proven, taken>>
        /\ UNCHANGED conn

\* vLLM looks up a waiting request it may admit next (get_num_new_matched_tokens, with the
\* tokens its own prefix cache holds) and takes the connector's hit for the request's first
\* step.  Asked once per request: vLLM asks again when it cannot allocate the request's
\* blocks, which these models do not run out of.
SchedulerLooksUp ==
    \E r \in LookedUp :
        /\ status[r] = "waiting" /\ MayAdmit(r) /\ r \notin DOMAIN taken
        /\ LET ev == [kind |-> "lookup", id |-> r, digest |-> DigestOf[r], prompt_tokens |-> PromptOf[r],
                      computed |-> OwnHit(r)]
           IN /\ lastEvent' = ev
              /\ ConnectorAnswersLookup(ev)
        /\ taken' = [x \in DOMAIN taken \cup {r} |-> IF x = r THEN lastVerdicts'[1].tokens ELSE taken[x]]
        /\ UNCHANGED <<status, done, epoch, reached, held, proven>>
        /\ UNCHANGED conn

Init ==
    /\ status = [r \in Req |-> "waiting"]
    /\ done = [r \in Req |-> 0]
    /\ epoch = [r \in Req |-> 0]
    /\ reached = [r \in Req |-> FALSE]
    /\ held = [d \in Digests |-> {}]
    /\ proven = [r \in Req |-> {}]
    /\ pending = <<>>
    /\ plans = 0 /\ rejected = 0 /\ skippedQuorum = 0 /\ retiredFinished = 0
    /\ poisoned = {}
    /\ planCount = [r \in Req |-> 0]
    /\ stored = {}
    /\ taken = <<>>
    \* The initial state records the topology line, so every path of the state graph
    \* starts with the replay log's first line.
    /\ lastEvent = [kind |-> "topology", schema |-> IF LookedUp = {} THEN "proofgate-events/v1" ELSE "proofgate-events/v2",
                     tp_degree |-> TpDegree,
                     hash_block_size |-> HashBlock, min_span_tokens |-> MinSpan,
                     max_span_tokens |-> MaxSpan, groups |-> Topology]
    /\ lastVerdicts = <<>>

\* Environment = vLLM and the ranks; the connector reacts inside each event.
Next == SchedulerSchedules \/ SchedulerFinishes \/ RankHolds \/ SchedulerLooksUp

Spec == Init /\ [][Next]_vars
FairSpec == Spec /\ \A r \in Req : WF_vars(SchedulerSchedulesRequest(r))

-----------------------------------------------------------------------------
(* Invariants.                                                              *)

LatchShape == SUBSET (Groups \X Nat)
TypeOK ==
    /\ status \in [Req -> {"waiting", "running", "preempted", "finished"}]
    /\ done \in [Req -> Nat] /\ \A r \in Req : done[r] <= MaxStop(r)
    /\ epoch \in [Req -> 0..MaxPreemptions]
    /\ reached \in [Req -> BOOLEAN]
    /\ held \in [Digests -> SUBSET Ranks]
    /\ DOMAIN pending \subseteq Req
    /\ \A r \in DOMAIN pending :
         /\ DOMAIN pending[r] = {"digest", "target", "done", "table", "latch"}
         /\ pending[r].target = Target(r) /\ pending[r].digest = DigestOf[r]
         /\ pending[r].done \in Nat /\ Len(pending[r].table) = NG
         /\ pending[r].latch \subseteq (Groups \X Nat)
    /\ {plans, rejected, skippedQuorum, retiredFinished} \subseteq Nat
    /\ poisoned \subseteq Req
    /\ planCount \in [Req -> Nat]
    /\ stored \subseteq Digests \X Nat
    /\ DOMAIN taken \subseteq LookedUp /\ \A r \in DOMAIN taken : taken[r] \in Nat
    /\ lastEvent.kind \in {"topology", "step", "finished", "held", "lookup"}
    /\ \A i \in DOMAIN lastVerdicts : lastVerdicts[i].kind \in {"plan", "rejected", "retired", "hit", "load"}

Plans == {lastVerdicts[i] : i \in {i \in DOMAIN lastVerdicts : lastVerdicts[i].kind = "plan"}}

\* The recurrent state version a block holds now (tokens), -1 = garbage.
BlockContent(r, b) ==
    LET e == (b % 1000) \div 100
        g == (b % 100) \div 10
        k == b % 10
    IN IF b \div 1000 # RIdx(r) \/ e # epoch[r] THEN -1       \* unpinned by preemption
       ELSE IF k \in 1..4 THEN (IF k = NBlocks(g, done[r]) THEN done[r] ELSE -1)  \* table slot
       ELSE IF k \in {5, 6} THEN Target(r)
       ELSE IF k = 7 THEN IntermediateBoundary
       ELSE IF k = 8 THEN FutureBoundary(r)
       ELSE -1

\* protocol section 1: every published recurrent block holds the state at the target.
PublishedBlockHoldsTargetState ==
    \A p \in Plans : \A i \in DOMAIN p.recurrent :
        BlockContent(p.id, p.recurrent[i][2]) = p.span

\* protocol section 3: a plan's recurrent blocks come from the latch, never from the table.
PlanNeverTakesTableSlot ==
    \A p \in Plans : \A i \in DOMAIN p.recurrent : p.recurrent[i][2] % 10 \notin 1..4

\* A plan's recurrent blocks were proven by complete exact-target evidence since
\* the request's last preemption.
PlanProvenSinceLastPreemption ==
    HasRecurrent => \A p \in Plans : Range(p.recurrent) \in proven[p.id]

\* A latch is only ever a complete exact-target proof sent since the last preemption.
LatchProvenSinceLastPreemption ==
    \A r \in DOMAIN pending : pending[r].latch # {} => pending[r].latch \in proven[r]

\* protocol section 2: a poisoned request is never retried, so never publishes.
PoisonedNeverPublishes == \A r \in poisoned : planCount[r] = 0 /\ r \notin DOMAIN pending

\* protocol section 3: a topology with recurrent groups never publishes on the new-request step.
NoPlanOnNewRequestStep ==
    HasRecurrent /\ lastEvent.kind = "step" =>
        \A p \in Plans : \A i \in DOMAIN lastEvent.new : lastEvent.new[i].id # p.id

\* protocol section 3: at most one plan per request.
AtMostOnePlanPerRequest == \A r \in Req : planCount[r] <= 1

\* protocol section 3: finished requests hold no pending state.
FinishedHoldsNoPending == \A r \in Req : status[r] = "finished" => r \notin DOMAIN pending

\* protocol section 3: a request scheduled while its digest is at full quorum ends the
\* step with no pending state and no plan (retired, or skipped as a new request).
QuorumRetiresScheduledStore ==
    lastEvent.kind = "step" =>
      \A r \in {lastEvent.new[i].id : i \in DOMAIN lastEvent.new}
               \cup {lastEvent.cached[i].id : i \in DOMAIN lastEvent.cached} :
         FullQuorum(DigestOf[r]) => r \notin DOMAIN pending /\ \A p \in Plans : p.id # r

\* Protocol section 3, cached step (1) and new request: at full quorum the evidence is not
\* looked at, so a request scheduled while its digest is at full quorum is never rejected.
QuorumSkipsValidation ==
    lastEvent.kind = "step" =>
      \A i \in DOMAIN lastVerdicts :
         lastVerdicts[i].kind = "rejected" => ~FullQuorum(DigestOf[lastVerdicts[i].id])

\* Protocol section 3: a request whose target is outside [min_span_tokens, max_span_tokens] is
\* neither tracked nor validated, so no verdict of the store half ever names it.
UntrackedGetsNoVerdict ==
    \A i \in DOMAIN lastVerdicts : lastVerdicts[i].kind \in {"plan", "rejected", "retired"} => Tracked(lastVerdicts[i].id)

\* The restore half, whatever the connector's policy (protocol section 3, "Restore rules"): a
\* lookup is answered with one hit, and a hit claims only a prefix published under the request's
\* digest (whose recurrent blocks held the state there: PublishedBlockHoldsTargetState), on every
\* recurrent group's block grid, strictly below the prompt's end (else the last token is applied
\* twice).
HitClaimsOnlyWhatIsStored ==
    lastEvent.kind = "lookup" =>
        /\ Len(lastVerdicts) = 1
        /\ lastVerdicts[1].kind = "hit" /\ lastVerdicts[1].id = lastEvent.id
        /\ LET x == lastEvent.id
               s == lastEvent.computed + lastVerdicts[1].tokens
           IN lastVerdicts[1].tokens > 0 =>
                /\ s < PromptOf[x]
                /\ \A g \in RecGroups : s % BT(g) = 0
                /\ \E y \in Req : planCount[y] > 0 /\ DigestOf[y] = DigestOf[x] /\ Target(y) = s

\* A request vLLM scheduled with a hit is loaded once, with the state of its digest at the hit,
\* into its own blocks, each recurrent group's at the hit's column (attention is never restored
\* without the state); no other request is loaded.
NewOf(x) == lastEvent.new[CHOOSE i \in DOMAIN lastEvent.new : lastEvent.new[i].id = x]
RestoredNew == {lastEvent.new[i].id : i \in {i \in DOMAIN lastEvent.new :
                    "external" \in DOMAIN lastEvent.new[i] /\ lastEvent.new[i].external > 0}}
LoadsIntoItsOwnBlocks ==
    lastEvent.kind = "step" =>
      /\ \A x \in RestoredNew :
           Cardinality({i \in DOMAIN lastVerdicts : lastVerdicts[i].kind = "load" /\ lastVerdicts[i].id = x}) = 1
      /\ \A i \in DOMAIN lastVerdicts : lastVerdicts[i].kind = "load" =>
           LET v == lastVerdicts[i] IN
           /\ v.id \in RestoredNew
           /\ v.digest = DigestOf[v.id] /\ v.span = NewOf(v.id).computed
           /\ \A k \in 1..NG : Range(v.blocks_by_group[k]) \subseteq Range(NewOf(v.id).block_ids[k]) \ {0}
           /\ \A g \in RecGroups : v.blocks_by_group[g + 1] = <<NewOf(v.id).block_ids[g + 1][v.span \div BT(g)]>>

-----------------------------------------------------------------------------
(* The rules (protocol section 3), stated beside the connector: for each   *)
(* verdict, when it must happen and when it must not.  Each is an action   *)
(* property: it relates a state, the event that follows it (lastEvent')    *)
(* and what the connector did (lastVerdicts', pending', the counters').    *)
(* None uses a definition of the Connector part, so that a mistake made    *)
(* there is not copied here (proofgate mutate measures what they catch).   *)

\* The event of the step and the requests it names.
EvIds(seq) == {seq[i].id : i \in DOMAIN seq}
EvNew == EvIds(lastEvent'.new)
EvCached == EvIds(lastEvent'.cached)
EvEntry(seq, x) == seq[CHOOSE i \in DOMAIN seq : seq[i].id = x]
EvField == lastEvent'.recurrent_boundary_blocks
\* The verdicts of the store half naming x in the step, in output order (a load is the restore
\* half's: LoadRuleProp).
VerdictsOf(x) == SelectSeq(lastVerdicts', LAMBDA v : v.id = x /\ v.kind # "load")
\* Requests whose evidence the connector must read: a new request with its target in bounds and
\* its digest below full quorum, and a pending request scheduled while its digest is below it.
ReadsNew(x) == x \in EvNew /\ MinSpan <= Target(x) /\ Target(x) <= MaxSpan /\ held[DigestOf[x]] # Ranks
ReadsCached(x) == x \in EvCached /\ x \in DOMAIN pending /\ held[pending[x].digest] # Ranks
Reads(x) == ReadsNew(x) \/ ReadsCached(x)
\* The latch the evidence is judged against: none for a new request.
LatchIn(x) == IF x \in EvNew THEN {} ELSE pending[x].latch

\* An entry is a list of three integers [group, block, boundary].
Int3(e) == e \notin Markers /\ Len(e) = 3 /\ \A j \in 1..3 : e[j] \notin Markers
\* The rows of the per-entry table, in order; an entry takes the first row it matches.
RowMatches(row, e, S) ==
    CASE row = "malformed_entry" -> ~Int3(e)
      [] row = "unknown_group" -> e[1] \notin Groups
      [] row = "non_recurrent_group" -> Policy(e[1]) # "recurrent_align"
      [] row = "null_block" -> e[2] < 1
      [] row = "future_boundary" -> e[3] > S
EntryRows == <<"malformed_entry", "unknown_group", "non_recurrent_group", "null_block", "future_boundary">>
\* (Rows are tried in order: a later row is only read once the earlier ones did not match.)
RECURSIVE RowFrom(_, _, _)
RowFrom(e, S, k) == IF k > Len(EntryRows) THEN ""
                    ELSE IF RowMatches(EntryRows[k], e, S) THEN EntryRows[k] ELSE RowFrom(e, S, k + 1)
EntryRow(e, S) == RowFrom(e, S, 1)
\* An entry at the target (an earlier one for the same group makes it a duplicate_group).
AtTarget(e, S) == e[3] = S
Twice(v, i, S) == AtTarget(v[i], S) /\ \E j \in 1..(i - 1) : AtTarget(v[j], S) /\ v[j][1] = v[i][1]
\* The first failing entry of list v from entry i on (0 when every entry passes).
RECURSIVE FailingFrom(_, _, _)
FailingFrom(v, i, S) == IF i > Len(v) THEN 0
                        ELSE IF EntryRow(v[i], S) # "" \/ Twice(v, i, S) THEN i ELSE FailingFrom(v, i + 1, S)
Failing(v, S) == FailingFrom(v, 1, S)
FailCode(v, i, S) == IF EntryRow(v[i], S) # "" THEN EntryRow(v[i], S) ELSE "duplicate_group"
\* The proof a list of passing entries carries: its entries at the target, as <<group, block>>.
ProofIn(v, S) == {<<v[i][1], v[i][2]>> : i \in {i \in 1..Len(v) : v[i][3] = S}}
Least(S) == CHOOSE m \in S : \A y \in S : m <= y
BlockFor(X, g) == IF \E p \in X : p[1] = g THEN (CHOOSE p \in X : p[1] = g)[2] ELSE 0

\* What the evidence for x asks of the connector given latch L: [row, facts] where row is
\* "keep" (nothing for x, only intermediate entries, or the latched proof again), "latch"
\* (facts: the proof) or a rejection code (facts: the reason's).
Judged(row, facts) == [row |-> row, facts |-> facts]
Judgement(x, L) ==
    LET f == EvField
        S == Target(x)
    IN IF ~HasRecurrent \/ f \in {Absent, JsonNull, JsonObject} THEN Judged("keep", <<>>)
       ELSE IF f \in Markers THEN Judged("not_a_mapping", [found |-> KindOf(f)])
       ELSE IF x \notin DOMAIN f \/ f[x] = JsonNull THEN Judged("keep", <<>>)
       ELSE IF f[x] = <<>> THEN Judged("empty", <<>>)
       ELSE IF f[x] \in Markers THEN Judged("not_a_list", [found |-> KindOf(f[x])])
       ELSE LET v == f[x]
                i == Failing(v, S)
                e == v[i]
            IN IF i > 0 /\ FailCode(v, i, S) = "malformed_entry"
               THEN Judged("malformed_entry", [entry |-> i - 1] @@
                      (IF e \in Markers THEN [found |-> KindOf(e)]
                       ELSE IF Len(e) # 3 THEN [length |-> Len(e)]
                       ELSE LET j == Least({j \in 1..3 : e[j] \in Markers})
                            IN [element |-> j - 1, found |-> KindOf(e[j])]))
               ELSE IF i > 0
               THEN LET c == FailCode(v, i, S) IN
                    Judged(c, [observed |-> e[3], group |-> e[1], block |-> e[2], entry |-> i - 1] @@
                      (IF c = "non_recurrent_group" THEN [policy |-> Policy(e[1])]
                       ELSE IF c = "duplicate_group"
                       THEN [first |-> v[Least({j \in 1..(i - 1) : AtTarget(v[j], S) /\ v[j][1] = e[1]})][2]]
                       ELSE <<>>))
               ELSE LET X == ProofIn(v, S)
                        missing == RecGroups \ {p[1] : p \in X}
                        differ == {g \in RecGroups : BlockFor(X, g) # BlockFor(L, g)}
                    IN IF X = {} THEN Judged("keep", <<>>)
                       ELSE IF missing # {} THEN Judged("incomplete", [group |-> Least(missing)])
                       ELSE IF L = {} THEN Judged("latch", X)
                       ELSE IF X = L THEN Judged("keep", <<>>)
                       ELSE Judged("conflict", [observed |-> S, group |-> Least(differ),
                                                block |-> BlockFor(X, Least(differ)),
                                                latched |-> BlockFor(L, Least(differ))])
Rejects(j) == j.row \notin {"keep", "latch"}
\* The latch after the evidence was read.
LatchOut(x) == LET j == Judgement(x, LatchIn(x)) IN IF j.row = "latch" THEN j.facts ELSE LatchIn(x)
\* The store after the step, before publication: progress, table and latch.
DoneOut(x) == IF x \in EvNew THEN EvEntry(lastEvent'.new, x).computed + EvEntry(lastEvent'.new, x).scheduled
              ELSE EvEntry(lastEvent'.cached, x).computed + EvEntry(lastEvent'.cached, x).scheduled
TableOut(x) ==
    IF x \in EvNew THEN EvEntry(lastEvent'.new, x).block_ids
    ELSE LET c == EvEntry(lastEvent'.cached, x) IN
         IF c.resumed THEN c.new_block_ids ELSE [i \in 1..NG |-> pending[x].table[i] \o c.new_block_ids[i]]
\* Ready to publish: the prompt is computed up to the target, the latch covers every recurrent
\* group, and, with recurrent groups, the step is not the request's first.
Ready(x) == /\ DoneOut(x) >= Target(x)
            /\ {p[1] : p \in LatchOut(x)} = RecGroups
            /\ (HasRecurrent => x \in EvCached)

\* The plan's blocks per group: a recurrent group its latched block; a full group the table's
\* blocks up to the target; a sliding group only those the window reaches.
Upto(x, g) == (Target(x) + BT(g) - 1) \div BT(g)
FromBlock(x, g) == IF Policy(g) = "sliding" /\ Target(x) > Window(g) THEN (Target(x) - Window(g)) \div BT(g) + 1 ELSE 1
TooShort(x, g) == Policy(g) # "recurrent_align" /\ Len(TableOut(x)[g + 1]) < Upto(x, g)
Chosen(x, g) ==
    IF Policy(g) = "recurrent_align" THEN <<BlockFor(LatchOut(x), g)>>
    ELSE [k \in 1..(Upto(x, g) - FromBlock(x, g) + 1) |-> TableOut(x)[g + 1][FromBlock(x, g) + k - 1]]
ChosenAll(x) == [i \in 1..NG |-> IF TooShort(x, i - 1) THEN <<>> ELSE Chosen(x, i - 1)]
\* Where a block sits in the plan: <<group index, position>>.
Spots(x) == UNION {{<<i, k>> : k \in DOMAIN ChosenAll(x)[i]} : i \in 1..NG}
Uses(x, b, upto) == Cardinality({s \in Spots(x) : s[1] <= upto /\ ChosenAll(x)[s[1]][s[2]] = b})
\* Why the plan cannot be published: [group, problem(, block)], or <<>> when it can.
SelectionProblem(x) ==
    LET sel == ChosenAll(x)
        short == {g \in Groups : TooShort(x, g)}
        nulls == {g \in Groups : \E k \in DOMAIN sel[g + 1] : sel[g + 1][k] < 1}
        twice == {b \in {sel[s[1]][s[2]] : s \in Spots(x)} : Uses(x, b, NG) > 1}
    IN IF short \cup nulls # {}
       THEN LET g == Least(short \cup nulls) IN
            IF g \in short THEN [group |-> g, problem |-> "short_table"]
            ELSE [group |-> g, block |-> sel[g + 1][Least({k \in DOMAIN sel[g + 1] : sel[g + 1][k] < 1})],
                  problem |-> "null_block"]
       ELSE IF twice = {} THEN <<>>
       ELSE [group |-> Least({i \in 1..NG : Uses(x, Least(twice), i) > 1}) - 1, block |-> Least(twice),
             problem |-> "repeated_block"]
Pairs(x) == SelectSeq([i \in 1..NG |-> IF Policy(i - 1) = "recurrent_align" THEN <<i - 1, ChosenAll(x)[i][1]>>
                                        ELSE <<>>], LAMBDA p : p # <<>>)
RejectedWith(x, code, facts) == [kind |-> "rejected", id |-> x, code |-> code, target |-> Target(x)] @@ facts

IsStepNext == lastEvent'.kind = "step"

\* Row "target out of bounds": a new request whose target is outside [min_span_tokens,
\* max_span_tokens] gets no verdict and no store.
UntrackedIgnoredProp ==
    [][IsStepNext => \A x \in EvNew : ~(MinSpan <= Target(x) /\ Target(x) <= MaxSpan) =>
                        VerdictsOf(x) = <<>> /\ x \notin DOMAIN pending']_vars
\* Row "digest at full quorum" (new request): no verdict, no store, counted as skipped.
QuorumSkipsAdmissionProp ==
    [][IsStepNext => \A x \in EvNew : MinSpan <= Target(x) /\ Target(x) <= MaxSpan /\ held[DigestOf[x]] = Ranks =>
                        VerdictsOf(x) = <<>> /\ x \notin DOMAIN pending']_vars
\* Cached step (1): a pending store whose digest reached full quorum is retired, whatever
\* its evidence says.
QuorumRetiresProp ==
    [][IsStepNext => \A x \in EvCached : x \in DOMAIN pending /\ held[pending[x].digest] = Ranks =>
                        VerdictsOf(x) = <<[kind |-> "retired", id |-> x, cause |-> "quorum"]>>
                        /\ x \notin DOMAIN pending']_vars
\* A scheduled request with no store is ignored: no verdict, and no store is made for it.
NoStoreIgnoredProp ==
    [][IsStepNext => \A x \in EvCached : x \notin DOMAIN pending =>
                        VerdictsOf(x) = <<>> /\ x \notin DOMAIN pending']_vars
\* A pending store that is not scheduled keeps its state (its latch is dropped when it is
\* preempted), whatever the evidence says about it.
UnscheduledKeptProp ==
    [][IsStepNext => \A x \in DOMAIN pending \ (EvNew \cup EvCached) :
                        /\ VerdictsOf(x) = <<>> /\ x \in DOMAIN pending'
                        /\ pending'[x] = IF x \in Range(lastEvent'.preempted)
                                         THEN [pending[x] EXCEPT !.latch = {}] ELSE pending[x]]_vars
\* Evidence rows (not_a_mapping ... conflict): a request whose evidence is read is rejected,
\* with the code of the first row its evidence matches, exactly when it matches one.
RejectionCodeProp ==
    [][IsStepNext => \A x \in EvNew \cup EvCached : Reads(x) =>
          LET j == Judgement(x, LatchIn(x)) IN
          IF Rejects(j) THEN Len(VerdictsOf(x)) = 1 /\ VerdictsOf(x)[1].kind = "rejected"
                             /\ VerdictsOf(x)[1].code = j.row /\ x \notin DOMAIN pending'
          ELSE \A i \in DOMAIN VerdictsOf(x) : VerdictsOf(x)[i].kind = "rejected" =>
                  VerdictsOf(x)[i].code = "invalid_selection"]_vars
\* protocol section 4: a rejection's reason states the row's facts, and only those.
RejectionReasonProp ==
    [][IsStepNext => \A x \in EvNew \cup EvCached : Reads(x) =>
          LET j == Judgement(x, LatchIn(x)) IN
          Rejects(j) => VerdictsOf(x) = <<RejectedWith(x, j.row, j.facts)>>]_vars
\* Latch rule: a complete exact-target proof with an empty latch is latched; the same proof
\* again changes nothing; every store that stays pending has the progress and table of the step.
LatchRuleProp ==
    [][IsStepNext => \A x \in EvNew \cup EvCached : Reads(x) /\ x \in DOMAIN pending' =>
          pending'[x] = [digest |-> DigestOf[x], target |-> Target(x), done |-> DoneOut(x),
                         table |-> TableOut(x), latch |-> LatchOut(x)]]_vars
\* Publish rule: a store whose evidence passes is published (or its selection rejected) in the
\* step it is ready, and stays pending while it is not.
PublishWhenReadyProp ==
    [][IsStepNext => \A x \in EvNew \cup EvCached : Reads(x) /\ ~Rejects(Judgement(x, LatchIn(x))) =>
          IF Ready(x) THEN Len(VerdictsOf(x)) = 1 /\ x \notin DOMAIN pending'
                           /\ VerdictsOf(x)[1].kind \in {"plan", "rejected"}
          ELSE VerdictsOf(x) = <<>> /\ x \in DOMAIN pending']_vars
\* Selection rule: the plan names, per group, the blocks its policy selects (a recurrent group
\* its latched block, never the table's); a selection that is short, holds a null block or
\* names a block twice is rejected as invalid_selection with the first problem.
PlanSelectionProp ==
    [][IsStepNext => \A x \in EvNew \cup EvCached : Reads(x) /\ ~Rejects(Judgement(x, LatchIn(x))) /\ Ready(x) =>
          VerdictsOf(x) = IF SelectionProblem(x) = <<>>
                          THEN <<[kind |-> "plan", id |-> x, digest |-> DigestOf[x], span |-> Target(x),
                                  blocks_by_group |-> ChosenAll(x), recurrent |-> Pairs(x)]>>
                          ELSE <<RejectedWith(x, "invalid_selection", SelectionProblem(x))>>]_vars
\* Output order (protocol section 5): new requests' verdicts first, then cached ones', each in
\* the order the event lists them.
OutputPosition(x) == IF x \in EvNew THEN CHOOSE i \in DOMAIN lastEvent'.new : lastEvent'.new[i].id = x
                      ELSE Len(lastEvent'.new) + CHOOSE i \in DOMAIN lastEvent'.cached : lastEvent'.cached[i].id = x
\* A restored request's load comes before its other verdicts (it starts at allocation).
VerdictOrderProp ==
    [][IsStepNext => \A i, k \in DOMAIN lastVerdicts' :
          i < k => \/ OutputPosition(lastVerdicts'[i].id) < OutputPosition(lastVerdicts'[k].id)
                   \/ lastVerdicts'[i].id = lastVerdicts'[k].id /\ lastVerdicts'[i].kind = "load"
                      /\ lastVerdicts'[k].kind # "load"]_vars
\* Counters (protocol section 5 summary): each step adds its plans, its rejections and the
\* requests it skipped or retired at full quorum.
Count(kd) == Len(SelectSeq(lastVerdicts', LAMBDA v : v.kind = kd))
CountersProp ==
    [][IsStepNext =>
          /\ plans' = plans + Count("plan")
          /\ rejected' = rejected + Count("rejected")
          /\ skippedQuorum' = skippedQuorum + Count("retired")
                + Cardinality({x \in EvNew : MinSpan <= Target(x) /\ Target(x) <= MaxSpan /\ held[DigestOf[x]] = Ranks})
          /\ retiredFinished' = retiredFinished]_vars
\* A finished event retires the request's store (one verdict) or says nothing; a held event
\* says nothing and changes no store.
FinishedRetiresProp ==
    [][lastEvent'.kind = "finished" =>
          LET x == lastEvent'.id IN
          /\ lastVerdicts' = IF x \in DOMAIN pending THEN <<[kind |-> "retired", id |-> x, cause |-> "finished"]>>
                             ELSE <<>>
          /\ DOMAIN pending' = DOMAIN pending \ {x}]_vars
HeldSaysNothingProp ==
    [][lastEvent'.kind = "held" => lastVerdicts' = <<>> /\ pending' = pending]_vars
\* Restore rules (protocol section 3): a lookup is answered with one hit, the longest prefix
\* published under the request's digest that lies on every recurrent group's block grid, strictly
\* below the prompt's end and beyond vLLM's own tokens, less vLLM's tokens (0 for none); the
\* lookup changes no store.
PublishedTargets(d) == {Target(y) : y \in {y \in Req : planCount[y] > 0 /\ DigestOf[y] = d}}
Restorable(x, c) == {s \in PublishedTargets(DigestOf[x]) : c < s /\ s < PromptOf[x] /\ \A g \in RecGroups : s % BT(g) = 0}
Most(S) == CHOOSE m \in S : \A y \in S : y <= m
HitRuleProp ==
    [][lastEvent'.kind = "lookup" =>
          LET x == lastEvent'.id
              R == Restorable(x, lastEvent'.computed)
          IN /\ lastVerdicts' = <<[kind |-> "hit", id |-> x,
                                   tokens |-> IF R = {} THEN 0 ELSE Most(R) - lastEvent'.computed]>>
             /\ pending' = pending]_vars
\* A new request scheduled with external tokens is loaded: per group, the blocks of its table
\* (1-based columns lo..hi, null blocks left out) that hold the tokens from vLLM's own to the
\* hit: a full group's all of them, a sliding group's those in the window before the hit, a
\* recurrent group's the one at the hit's column.  A request without is not loaded.
LoadLo(e, g) ==
    LET from == e.computed - e.external IN
    CASE Policy(g) = "recurrent_align" -> e.computed \div BT(g)
      [] Policy(g) = "sliding" /\ e.computed - Window(g) > from -> (e.computed - Window(g)) \div BT(g) + 1
      [] OTHER -> from \div BT(g) + 1
LoadHi(e, g) == IF Policy(g) = "recurrent_align" THEN e.computed \div BT(g) ELSE (e.computed + BT(g) - 1) \div BT(g)
Written(e, g) ==
    LET row == e.block_ids[g + 1]
        lo == IF LoadLo(e, g) < 1 THEN 1 ELSE LoadLo(e, g)
        hi == IF LoadHi(e, g) > Len(row) THEN Len(row) ELSE LoadHi(e, g)
    IN SelectSeq([k \in 1..(IF hi < lo THEN 0 ELSE hi - lo + 1) |-> row[lo + k - 1]], LAMBDA b : b > 0)
LoadRuleProp ==
    [][IsStepNext => \A x \in EvNew :
          LET e == EvEntry(lastEvent'.new, x) IN
          SelectSeq(lastVerdicts', LAMBDA v : v.id = x /\ v.kind = "load")
            = IF "external" \in DOMAIN e /\ e.external > 0
              THEN <<[kind |-> "load", id |-> x, digest |-> DigestOf[x], span |-> e.computed,
                      blocks_by_group |-> [i \in 1..NG |-> Written(e, i - 1)]]>>
              ELSE <<>>]_vars
\* The target rule (protocol section 2): the largest multiple of the hash block strictly below
\* the prompt's end.
TargetRule == \A x \in Req : Target(x) % HashBlock = 0 /\ Target(x) < PromptOf[x] /\ PromptOf[x] <= Target(x) + HashBlock

-----------------------------------------------------------------------------
(* Liveness: a request that keeps being scheduled and holds a complete      *)
(* exact-target proof is eventually published or retired (leaves pending),  *)
(* provided it is not preempted (checked in a model with MaxPreemptions=0). *)
ProvenStoreEventuallyLeavesPending ==
    \A r \in Req :
        (r \in DOMAIN pending /\ pending[r].latch # {}) ~> (r \notin DOMAIN pending)

-----------------------------------------------------------------------------
(* Non-vacuity: each is expected to be violated (MCReachability.cfg).       *)
HasVerdict(kd, c) == \E i \in DOMAIN lastVerdicts :
    lastVerdicts[i].kind = kd /\ (c = "" \/ (kd = "rejected" /\ lastVerdicts[i].code = c)
                                         \/ (kd = "retired" /\ lastVerdicts[i].cause = c))
DebugPlanReachable == ~HasVerdict("plan", "")
DebugNotAMappingReachable == ~HasVerdict("rejected", "not_a_mapping")
DebugNotAListReachable == ~HasVerdict("rejected", "not_a_list")
DebugEmptyReachable == ~HasVerdict("rejected", "empty")
DebugMalformedEntryReachable == ~HasVerdict("rejected", "malformed_entry")
DebugUnknownGroupReachable == ~HasVerdict("rejected", "unknown_group")
DebugNonRecurrentGroupReachable == ~HasVerdict("rejected", "non_recurrent_group")
DebugNullBlockReachable == ~HasVerdict("rejected", "null_block")
DebugFutureBoundaryReachable == ~HasVerdict("rejected", "future_boundary")
DebugDuplicateGroupReachable == ~HasVerdict("rejected", "duplicate_group")
DebugIncompleteReachable == ~HasVerdict("rejected", "incomplete")
DebugConflictReachable == ~HasVerdict("rejected", "conflict")
DebugInvalidSelectionReachable == ~HasVerdict("rejected", "invalid_selection")
DebugRetiredQuorumReachable == ~HasVerdict("retired", "quorum")
DebugRetiredFinishedReachable == ~HasVerdict("retired", "finished")
DebugSkippedAtAdmissionReachable ==
    ~(lastEvent.kind = "step" /\ skippedQuorum > 0 /\ DOMAIN lastEvent.new # {}
      /\ \A i \in DOMAIN lastEvent.new : FullQuorum(DigestOf[lastEvent.new[i].id]))
DebugPublishAfterResumeReachable ==
    ~(\E p \in Plans : epoch[p.id] > 0)
=============================================================================
