---- MODULE RuntimeError ----
\* Comparing an integer with a string is a TLC evaluation error (message 1000) after one state.
EXTENDS Integers
VARIABLE x
Init == x = "p"
Next == x' = IF x < 1 THEN 1 ELSE 2
====
