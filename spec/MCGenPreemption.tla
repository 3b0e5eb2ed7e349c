-------------------------- MODULE MCGenPreemption --------------------------
(* Generation model gen-preemption: the connector and environment of       *)
(* Publication with one ghost more, latchedBefore, the history a scenario   *)
(* needs to take a latched request through preemption.  The connector drops *)
(* the latch when the request is preempted, so without the ghost the state  *)
(* after the preemption is the state of a request that never latched, and  *)
(* the shortest path to every later step (the one each scenario takes)     *)
(* never latches: the steps after a resume would say nothing about a       *)
(* connector that kept its latch, except in state lines.                   *)
EXTENDS MCPublication

VARIABLE latchedBefore  \* ghost: [Req -> BOOLEAN] the request held a latch before this state's event

HistoryInit == Init /\ latchedBefore = [r \in Req |-> FALSE]
HistoryNext ==
    /\ Next
    /\ latchedBefore' = [r \in Req |-> latchedBefore[r] \/ (r \in DOMAIN pending /\ pending[r].latch # {})]

\* r1: prompt 6992 (target 6912, aligned), exact proofs and a second pinned copy; r2 is never
\* scheduled (SecondWaits): it only fills the request list (MaxBatch < Len(Requests)) and names
\* another request's key.
PromptPreemption == "r1" :> 6992 @@ "r2" :> 1000
SecondWaits == status["r2"] = "waiting"
PreemptionEvidence == "r1" :> {"exact", "exact_alt"} @@ "r2" :> {"exact"}
=============================================================================
