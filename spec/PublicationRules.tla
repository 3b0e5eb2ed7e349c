--------------------------- MODULE PublicationRules ---------------------------
(***************************************************************************)
(* The rules (protocol section 3), stated apart from the connector: for    *)
(* each verdict, when it must happen and when it must not.  Each is an     *)
(* action property: it relates a state, the event that follows it          *)
(* (lastEvent') and what the connector did (lastVerdicts', pending', the   *)
(* counters').  Publication.tla instantiates this module (Rules) with its  *)
(* own constants, variables and vLLM-side definitions.  None of its        *)
(* Connector part is in scope here, so that a mistake made there is not    *)
(* copied (proofgate mutate measures what the rules catch); where the two  *)
(* state the same thing they use the same name (Validate, Keep, Latch,     *)
(* Poison, EntryCode, CodeAt, FirstFailing, BlockOf, Selection, SelFrom,   *)
(* SelTo, Short, Pos, Occ, SelectionFacts, RecurrentPairs,                 *)
(* RejectedVerdict, Longest, Min), each defined here on its own.           *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets, TLC

CONSTANTS
    Absent, JsonNull, JsonObject,   \* Publication.tla's model values
    MinSpan, MaxSpan, HashBlock,    \* the topology's bounds on targets, the hash block
    PromptOf, DigestOf,             \* [request id -> prompt_tokens], [request id -> digest]
    Req, Ranks, Groups, RecGroups, NG, HasRecurrent, Markers,
    Policy(_), BT(_), Window(_),    \* a group's policy, block tokens and window
    Target(_),                      \* a request's target (protocol section 2)
    KindOf(_),                      \* JSON's name for the kind of a marker
    Range(_)                        \* the values of a sequence

VARIABLES
    held, pending, plans, rejected, skippedQuorum, retiredFinished, planCount,
    done, lastEvent, lastVerdicts,
    vars                            \* Publication.tla's tuple of every variable


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
EntryCode(e, S) == RowFrom(e, S, 1)
\* An entry at the target (an earlier one for the same group makes it a duplicate_group).
AtTarget(e, S) == e[3] = S
Twice(v, i, S) == AtTarget(v[i], S) /\ \E j \in 1..(i - 1) : AtTarget(v[j], S) /\ v[j][1] = v[i][1]
\* The first failing entry of list v from entry i on (0 when every entry passes).
RECURSIVE FirstFailing(_, _, _)
FirstFailing(v, i, S) == IF i > Len(v) THEN 0
                        ELSE IF EntryCode(v[i], S) # "" \/ Twice(v, i, S) THEN i ELSE FirstFailing(v, i + 1, S)
CodeAt(v, i, S) == IF EntryCode(v[i], S) # "" THEN EntryCode(v[i], S) ELSE "duplicate_group"
\* The proof a list of passing entries carries: its entries at the target, as <<group, block>>.
ProofIn(v, S) == {<<v[i][1], v[i][2]>> : i \in {i \in 1..Len(v) : v[i][3] = S}}
Min(S) == CHOOSE m \in S : \A y \in S : m <= y
BlockOf(X, g) == IF \E p \in X : p[1] = g THEN (CHOOSE p \in X : p[1] = g)[2] ELSE 0

\* What the evidence for x asks of the connector given latch L (its validation): Keep
\* (nothing for x, only intermediate entries, or the latched proof again), Latch (the proof)
\* or Poison (a rejection code and the reason's facts).
Keep == [kind |-> "keep"]
Latch(s) == [kind |-> "latch", latch |-> s]
Poison(c, facts) == [kind |-> "poison", code |-> c, facts |-> facts]
Validate(x, L) ==
    LET f == EvField
        S == Target(x)
    IN IF ~HasRecurrent \/ f \in {Absent, JsonNull, JsonObject} THEN Keep
       ELSE IF f \in Markers THEN Poison("not_a_mapping", [found |-> KindOf(f)])
       ELSE IF x \notin DOMAIN f \/ f[x] = JsonNull THEN Keep
       ELSE IF f[x] = <<>> THEN Poison("empty", <<>>)
       ELSE IF f[x] \in Markers THEN Poison("not_a_list", [found |-> KindOf(f[x])])
       ELSE LET v == f[x]
                i == FirstFailing(v, 1, S)
                e == v[i]
            IN IF i > 0 /\ CodeAt(v, i, S) = "malformed_entry"
               THEN Poison("malformed_entry", [entry |-> i - 1] @@
                      (IF e \in Markers THEN [found |-> KindOf(e)]
                       ELSE IF Len(e) # 3 THEN [length |-> Len(e)]
                       ELSE LET j == Min({j \in 1..3 : e[j] \in Markers})
                            IN [element |-> j - 1, found |-> KindOf(e[j])]))
               ELSE IF i > 0
               THEN LET c == CodeAt(v, i, S) IN
                    Poison(c, [observed |-> e[3], group |-> e[1], block |-> e[2], entry |-> i - 1] @@
                      (IF c = "non_recurrent_group" THEN [policy |-> Policy(e[1])]
                       ELSE IF c = "duplicate_group"
                       THEN [first |-> v[Min({j \in 1..(i - 1) : AtTarget(v[j], S) /\ v[j][1] = e[1]})][2]]
                       ELSE <<>>))
               ELSE LET X == ProofIn(v, S)
                        missing == RecGroups \ {p[1] : p \in X}
                        differ == {g \in RecGroups : BlockOf(X, g) # BlockOf(L, g)}
                    IN IF X = {} THEN Keep
                       ELSE IF missing # {} THEN Poison("incomplete", [group |-> Min(missing)])
                       ELSE IF L = {} THEN Latch(X)
                       ELSE IF X = L THEN Keep
                       ELSE Poison("conflict", [observed |-> S, group |-> Min(differ),
                                                block |-> BlockOf(X, Min(differ)),
                                                latched |-> BlockOf(L, Min(differ))])
Poisons(v) == v.kind = "poison"
\* The latch after the evidence was read.
LatchOut(x) == LET v == Validate(x, LatchIn(x)) IN IF v.kind = "latch" THEN v.latch ELSE LatchIn(x)
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
SelTo(x, g) == (Target(x) + BT(g) - 1) \div BT(g)
SelFrom(x, g) == IF Policy(g) = "sliding" /\ Target(x) > Window(g) THEN (Target(x) - Window(g)) \div BT(g) + 1 ELSE 1
Short(x, g) == Policy(g) # "recurrent_align" /\ Len(TableOut(x)[g + 1]) < SelTo(x, g)
Selection(x, g) ==
    IF Policy(g) = "recurrent_align" THEN <<BlockOf(LatchOut(x), g)>>
    ELSE [k \in 1..(SelTo(x, g) - SelFrom(x, g) + 1) |-> TableOut(x)[g + 1][SelFrom(x, g) + k - 1]]
Selections(x) == [i \in 1..NG |-> IF Short(x, i - 1) THEN <<>> ELSE Selection(x, i - 1)]
\* Where a block sits in the plan: <<group index, position>>.
Pos(x) == UNION {{<<i, k>> : k \in DOMAIN Selections(x)[i]} : i \in 1..NG}
Occ(x, b, upto) == Cardinality({s \in Pos(x) : s[1] <= upto /\ Selections(x)[s[1]][s[2]] = b})
\* Why the plan cannot be published: [group, problem(, block)], or <<>> when it can.
SelectionFacts(x) ==
    LET sel == Selections(x)
        short == {g \in Groups : Short(x, g)}
        nulls == {g \in Groups : \E k \in DOMAIN sel[g + 1] : sel[g + 1][k] < 1}
        twice == {b \in {sel[s[1]][s[2]] : s \in Pos(x)} : Occ(x, b, NG) > 1}
    IN IF short \cup nulls # {}
       THEN LET g == Min(short \cup nulls) IN
            IF g \in short THEN [group |-> g, problem |-> "short_table"]
            ELSE [group |-> g, block |-> sel[g + 1][Min({k \in DOMAIN sel[g + 1] : sel[g + 1][k] < 1})],
                  problem |-> "null_block"]
       ELSE IF twice = {} THEN <<>>
       ELSE [group |-> Min({i \in 1..NG : Occ(x, Min(twice), i) > 1}) - 1, block |-> Min(twice),
             problem |-> "repeated_block"]
RecurrentPairs(x) == SelectSeq([i \in 1..NG |-> IF Policy(i - 1) = "recurrent_align" THEN <<i - 1, Selections(x)[i][1]>>
                                        ELSE <<>>], LAMBDA p : p # <<>>)
RejectedVerdict(x, code, facts) == [kind |-> "rejected", id |-> x, code |-> code, target |-> Target(x)] @@ facts

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
          LET v == Validate(x, LatchIn(x)) IN
          IF Poisons(v) THEN Len(VerdictsOf(x)) = 1 /\ VerdictsOf(x)[1].kind = "rejected"
                             /\ VerdictsOf(x)[1].code = v.code /\ x \notin DOMAIN pending'
          ELSE \A i \in DOMAIN VerdictsOf(x) : VerdictsOf(x)[i].kind = "rejected" =>
                  VerdictsOf(x)[i].code = "invalid_selection"]_vars
\* protocol section 4: a rejection's reason states the row's facts, and only those.
RejectionReasonProp ==
    [][IsStepNext => \A x \in EvNew \cup EvCached : Reads(x) =>
          LET v == Validate(x, LatchIn(x)) IN
          Poisons(v) => VerdictsOf(x) = <<RejectedVerdict(x, v.code, v.facts)>>]_vars
\* Latch rule: a complete exact-target proof with an empty latch is latched; the same proof
\* again changes nothing; every store that stays pending has the progress and table of the step.
LatchRuleProp ==
    [][IsStepNext => \A x \in EvNew \cup EvCached : Reads(x) /\ x \in DOMAIN pending' =>
          pending'[x] = [digest |-> DigestOf[x], target |-> Target(x), done |-> DoneOut(x),
                         table |-> TableOut(x), latch |-> LatchOut(x)]]_vars
\* Publish rule: a store whose evidence passes is published (or its selection rejected) in the
\* step it is ready, and stays pending while it is not.
PublishWhenReadyProp ==
    [][IsStepNext => \A x \in EvNew \cup EvCached : Reads(x) /\ ~Poisons(Validate(x, LatchIn(x))) =>
          IF Ready(x) THEN Len(VerdictsOf(x)) = 1 /\ x \notin DOMAIN pending'
                           /\ VerdictsOf(x)[1].kind \in {"plan", "rejected"}
          ELSE VerdictsOf(x) = <<>> /\ x \in DOMAIN pending']_vars
\* Selection rule: the plan names, per group, the blocks its policy selects (a recurrent group
\* its latched block, never the table's); a selection that is short, holds a null block or
\* names a block twice is rejected as invalid_selection with the first problem.
PlanSelectionProp ==
    [][IsStepNext => \A x \in EvNew \cup EvCached : Reads(x) /\ ~Poisons(Validate(x, LatchIn(x))) /\ Ready(x) =>
          VerdictsOf(x) = IF SelectionFacts(x) = <<>>
                          THEN <<[kind |-> "plan", id |-> x, digest |-> DigestOf[x], span |-> Target(x),
                                  blocks_by_group |-> Selections(x), recurrent |-> RecurrentPairs(x)]>>
                          ELSE <<RejectedVerdict(x, "invalid_selection", SelectionFacts(x))>>]_vars
\* Output order (protocol section 5): new requests' verdicts first, then cached ones', each in
\* the order the event lists them.
Position(x) == IF x \in EvNew THEN CHOOSE i \in DOMAIN lastEvent'.new : lastEvent'.new[i].id = x
           ELSE Len(lastEvent'.new) + CHOOSE i \in DOMAIN lastEvent'.cached : lastEvent'.cached[i].id = x
\* A restored request's load comes before its other verdicts (it starts at allocation).
VerdictOrderProp ==
    [][IsStepNext => \A i, k \in DOMAIN lastVerdicts' :
          i < k => \/ Position(lastVerdicts'[i].id) < Position(lastVerdicts'[k].id)
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
PublishedSpans(d) == {Target(y) : y \in {y \in Req : planCount[y] > 0 /\ DigestOf[y] = d}}
Restorable(x, c) == {s \in PublishedSpans(DigestOf[x]) : c < s /\ s < PromptOf[x] /\ \A g \in RecGroups : s % BT(g) = 0}
Longest(S) == CHOOSE m \in S : \A y \in S : y <= m
HitRuleProp ==
    [][lastEvent'.kind = "lookup" =>
          LET x == lastEvent'.id
              R == Restorable(x, lastEvent'.computed)
          IN /\ lastVerdicts' = <<[kind |-> "hit", id |-> x,
                                   tokens |-> IF R = {} THEN 0 ELSE Longest(R) - lastEvent'.computed]>>
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
=============================================================================
