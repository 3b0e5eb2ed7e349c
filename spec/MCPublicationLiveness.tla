----------------------- MODULE MCPublicationLiveness -----------------------
(* The liveness model.  FairSpec (Publication.tla) assumes weak fairness of *)
(* SchedulerSchedulesRequest(r), an action that ranges over every evidence   *)
(* choice of a step.  Checking WF of such an action, TLC evaluates it on     *)
(* every transition of the state graph, which made this model take 94 s for *)
(* 1,848 states.  LiveSpec says the same with state predicates only, which   *)
(* TLC checks in seconds:                                                    *)
(*  - ENABLED SchedulerSchedulesRequest(r) is r \in Schedulable: the         *)
(*    invariant EnabledIsSchedulable checks it on every state;               *)
(*  - a step that schedules r is one whose event names r; parity[r] flips on *)
(*    each such step and on no other, so r is scheduled infinitely often     *)
(*    exactly when parity[r] takes both values infinitely often (a stutter   *)
(*    changes nothing).                                                      *)
(* So FairScheduling is WF_vars(SchedulerSchedulesRequest(r)) for each r.    *)
EXTENDS MCPublication

VARIABLE parity

ScheduledBy(ev) == IF ev.kind = "step"
                   THEN {ev.new[i].id : i \in DOMAIN ev.new} \cup {ev.cached[i].id : i \in DOMAIN ev.cached}
                   ELSE {}

LiveInit == Init /\ parity = [r \in Req |-> FALSE]
LiveNext == Next /\ parity' = [r \in Req |-> IF r \in ScheduledBy(lastEvent') THEN ~parity[r] ELSE parity[r]]
LiveSpec == LiveInit /\ [][LiveNext]_<<vars, parity>>

FairScheduling == \A r \in Req : <>[](r \in Schedulable) => ([]<>parity[r] /\ []<>~parity[r])
FairlyScheduledStoreLeavesPending == FairScheduling => ProvenStoreEventuallyLeavesPending

EnabledIsSchedulable == \A r \in Req : (r \in Schedulable) <=> ENABLED SchedulerSchedulesRequest(r)
=============================================================================
