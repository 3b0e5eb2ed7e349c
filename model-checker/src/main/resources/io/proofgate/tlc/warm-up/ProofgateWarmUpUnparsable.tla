---- MODULE ProofgateWarmUpUnparsable ----
\* A module that does not parse (WarmTlc's warm-up).
EXTENDS ProofgateWarmUp
ProofgateWarmUpUnparsableInv == proofgateWarmUpN \notin
====
