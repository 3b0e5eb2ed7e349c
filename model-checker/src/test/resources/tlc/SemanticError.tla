---- MODULE SemanticError ----
\* Unary minus needs Integers, so SANY rejects this module (message 3002).
EXTENDS Naturals
VARIABLE x
Init == x = -1
Next == x' = x
====
