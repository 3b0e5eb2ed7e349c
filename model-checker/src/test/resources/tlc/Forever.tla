---- MODULE Forever ----
\* A state space without end: TLC runs until it is stopped (TlcChildTest).
EXTENDS Naturals
VARIABLE x
Init == x = 0
Next == x' = x + 1
====
