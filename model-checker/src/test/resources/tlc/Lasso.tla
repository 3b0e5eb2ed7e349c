---- MODULE Lasso ----
\* x cycles 0 -> 1 -> 2 -> 1 under weak fairness, so <>(x = 3) fails with a lasso back to state 2,
\* and Halting eventually reaching done fails by stuttering when fairness is absent.
EXTENDS Naturals

VARIABLES x, seen

vars == <<x, seen>>

Init == x = 0 /\ seen = {}

Step == /\ x' = IF x = 2 THEN 1 ELSE x + 1
        /\ seen' = seen \cup {x}

Next == Step

Spec == Init /\ [][Next]_vars /\ WF_vars(Next)

SpecNoFairness == Init /\ [][Next]_vars

ReachesThree == <>(x = 3)

ReachesTwo == <>(x = 2)
====
