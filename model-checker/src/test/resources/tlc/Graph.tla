---- MODULE Graph ----
\* Two peers (model values) take tokens from a pool; a small finite graph for -dump dot and -simulate.
EXTENDS Naturals, Sequences

CONSTANT Peers

VARIABLES pool, held, last

vars == <<pool, held, last>>

Init == /\ pool = 2
        /\ held = [p \in Peers |-> 0]
        /\ last = [who |-> "none", msg |-> "start\tline\n"]

Take(p) == /\ pool > 0
           /\ pool' = pool - 1
           /\ held' = [held EXCEPT ![p] = @ + 1]
           /\ last' = [who |-> p, msg |-> "took"]

Give(p) == /\ held[p] > 0
           /\ pool' = pool + 1
           /\ held' = [held EXCEPT ![p] = @ - 1]
           /\ last' = [who |-> p, msg |-> "gave"]

Next == \E p \in Peers : Take(p) \/ Give(p)

Spec == Init /\ [][Next]_vars

Conserved == pool + held[CHOOSE p \in Peers : TRUE] <= 2 + 2
====
