---- MODULE Wide ----
\* Long values make TLC wrap a state line; the run stops by deadlock after one step.
EXTENDS Naturals
VARIABLES big, n
Init == /\ big = [i \in 1..12 |-> [name |-> "element-number", idx |-> i, tags |-> {"alpha", "beta"}]]
        /\ n = 0
Go == /\ n = 0
      /\ n' = 1
      /\ big' = [k \in {"k1", "k2", "k3", "k4", "k5"} |-> {<<k, 1>>, <<k, 2>>, <<k, 3>>, <<k, 4>>}]
Positive == n >= 0
Bad == n > 0
====
