---- MODULE Loop ----
EXTENDS Naturals
VARIABLE x
Init == x = 0
Flip == x' = 1 - x
Spec == Init /\ [][Flip]_x /\ WF_x(Flip)
Never == <>(x = 5)
====
