---- MODULE Toy ----
(* A counter that climbs to 3 and stays: the smallest spec with a part to mutate. *)
EXTENDS Integers
VARIABLES x, n

\* mutate-begin: Impl
Step(v) == IF v < 3 THEN v + 1 ELSE v
\* mutate-end: Impl

Init == x = 0 /\ n = 0
\* n counts the steps, so that no step stutters and the action property sees every one.
Next == x' = Step(x) /\ n' = n + 1
\* The explored states: four steps (a mutant that counts down goes no further).
Small == n <= 4
\* Safety only: a mutant that stops short of 3 or moves down keeps it.
Bounded == x <= 3
\* The rule itself, as an action property.
StepProp == [][x' = IF x < 3 THEN x + 1 ELSE x]_<<x, n>>
\* A witness that the climb reaches 3: violated there (a model expects it violated).
DebugReachesThree == x # 3
====
