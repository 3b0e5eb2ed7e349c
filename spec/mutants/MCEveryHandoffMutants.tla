----------------------- MODULE MCEveryHandoffMutants -----------------------
(* Broken rules of the every-handoff policy (EveryHandoff.tla, "The        *)
(* policy").  Each cfg in this folder named MCEveryHandoff*.cfg overrides  *)
(* rules with these and names the invariant TLC must report violated       *)
(* (spec/models.json): SavedBlockHoldsItsPrefix, the safety property every *)
(* policy keeps, not an invariant written for the mistake.                 *)
EXTENDS MCEveryHandoff

\* A positional save: the block at the boundary's position in the request's table, instead of
\* the block the hand-off names (the classic corruption: the table is not append-only, and a
\* partial tail's state lives in the copy-on-write target).
MutantPositionalBlock(x, e) == BlockId(x, epoch[x], e[1], RunSlot(e[3]))

\* No pin: vLLM frees a superseded state block one step later, and a preempted or finished
\* request's blocks at once, whatever saves are outstanding.
MutantNoPinning == FALSE

\* Saves deferred to finish, unpinned: the hand-offs are filed as offered, but the workers copy
\* them when the request finishes.
MutantCopyAtFinish(s) == status[s.id] = "finished"

\* A hand-off trusted for a boundary the request has not computed.
MutantUsableBeyond(e, d1) == e[1] \in RecGroups /\ e[3] > 0 /\ e[3] % HashBlock = 0
=============================================================================
