------------------------- MODULE MCAlignPoolMutants -------------------------
(* The field's mistakes on vLLM's align mode (AlignPool.tla), as rules a   *)
(* cfg in this folder named MCAlignPool*.cfg puts in place of the          *)
(* connector's or vLLM's (the positional tracker is AlignPool's            *)
(* PositionalSaves, put where vLLM runs drafts).  Each names               *)
(* SavedBlockHoldsItsPrefix as what TLC must report violated               *)
(* (spec/models.json): the safety property every policy keeps, not an     *)
(* invariant written for the mistake.                                      *)
EXTENDS MCAlignPool

\* No pin: the block is saved when a worker gets to it, and vLLM frees it meanwhile (a
\* superseded state block one step later, every block at preemption and finish) and gives it
\* to the next allocation.
MutantNoPinning == FALSE
\* Every hand-off trusted, also for a boundary the step has not computed (with
\* HashesDrafts, vLLM hands over columns that only the drafts reach).
MutantUsableAny(o, readyTokens) == TRUE
\* vLLM's own mistake (vLLM #57605): the allocation discards the lookahead, counting a verify
\* step's tokens without its drafts, while the workers place the states by every token the step
\* schedules; where the drafts pass a block boundary, the last draft's state is written through
\* the row's entry past the request's table, a block the row's last request left there.
MutantAllocNoLookahead(r, N) == IF Prefilling(r) THEN N ELSE done[r] + 1
\* vLLM's readiness taken at schedule time: every hashed column counts as publishable, a
\* column only a draft reaches too, and a rejection does not take it back (truncation does not
\* invalidate readiness).
MutantReadyAtSchedule(p, hashedCols, e1) == Max(p, hashedCols)
\* vLLM keeps a request's readiness when it lets its blocks go (preemption does not invalidate
\* readiness): the resumed request's columns count as ready up to where its last epoch got.
MutantReadyKept(p) == p
=============================================================================
