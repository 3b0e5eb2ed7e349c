---- MODULE Tiny ----
\* A counter whose invariant fails at x = 3; other variables exercise every value kind TLC prints.
EXTENDS Integers, Sequences, TLC

CONSTANT Peer

VARIABLES x, log, rec, fn, tags, who

vars == <<x, log, rec, fn, tags, who>>

Init == /\ x = -1
        /\ log = <<>>
        /\ rec = [name |-> "a\"b\\c", ok |-> TRUE]
        /\ fn = (0 :> {} @@ 1 :> {7})
        /\ tags = {}
        /\ who = Peer

Inc == /\ x' = x + 1
       /\ log' = Append(log, x)
       /\ rec' = [rec EXCEPT !.ok = ~@]
       /\ fn' = [fn EXCEPT ![1] = @ \cup {x}]
       /\ tags' = tags \cup {<<x, "t">>}
       /\ UNCHANGED who

Reset == /\ x > 1
         /\ x' = 0
         /\ UNCHANGED <<log, rec, fn, tags, who>>

Next == Inc \/ Reset

Spec == Init /\ [][Next]_vars

SmallX == x < 3
====
